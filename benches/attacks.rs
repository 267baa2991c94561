//! A shared project as an attacker would write it: each row is one attack
//! of docs/robustness.md at its full size, run through the `cardsmith`
//! binary as a process of its own, with its exit status, its time and the
//! peak memory of that process (`wait4`).  The tests in `tests/stranger_*.rs`
//! hold the same attacks scaled down, and assert; a benchmark prints
//! figures and asserts nothing.
//!
//!     cargo bench --bench attacks
//!     cargo bench --bench attacks -- template   # the rows whose name has `template`
//!     CARDSMITH_BIN=/path/to/cardsmith cargo bench --bench attacks   # another build
//!
//! Each run is held to 4 GB of address space and 60 seconds, so that a
//! build without the limits (an earlier one, to compare) shows the attack
//! as aborted or killed instead of taking the machine.

#[path = "shared/peak.rs"]
mod peak;

use base64::Engine;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// One attack: the files of its project and the command it runs.
struct Attack {
    name: &'static str,
    files: Vec<(String, Vec<u8>)>,
    args: Vec<&'static str>,
}

const MANIFEST: &str = "[project]\npaths = [\"cards\"]\n";
const EVENT: &str = "game dreadnaught-2e\n\nevent \"Quick Repairs\" {\n  at 3.0 { increase damage 1 }\n}\n";

/// A project of one Event Card printed with `template` as its face.
fn template_attack(name: &'static str, template: String) -> Attack {
    Attack {
        name,
        files: vec![
            ("cardsmith.toml".into(), MANIFEST.into()),
            ("cards/event.cards".into(), EVENT.into()),
            ("templates/dreadnaught-2e/event.svg".into(), template.into_bytes()),
        ],
        args: vec!["print", "--format", "png"],
    }
}

fn face(body: &str) -> String {
    format!(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{{{{ page.viewbox }}}}">{body}</svg>"#)
}

/// The header of a PNG of `side` × `side` pixels: its size alone, read from
/// the header, must refuse it before any pixel is decoded.
fn png_header(side: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend(side.to_be_bytes());
    png.extend(side.to_be_bytes());
    png.extend([8, 0, 0, 0, 0, 0, 0, 0, 0]);
    png
}

/// A whole PNG of `side` × `side` grey pixels, all black: under a megabyte
/// for 30000², which decodes to 900 MB.
fn png_of_zeros(side: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, side, side);
        encoder.set_color(png::ColorType::Grayscale);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder.write_header().expect("a PNG header");
        let mut rows = writer.stream_writer().expect("a PNG stream");
        let row = vec![0u8; side as usize];
        for _ in 0..side {
            std::io::Write::write_all(&mut rows, &row).expect("a PNG row");
        }
        rows.finish().expect("a whole PNG");
    }
    bytes
}

fn picture(mime: &str, bytes: &[u8]) -> String {
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="data:{mime};base64,{data}" width="10" height="10"/></svg>"#
    )
}

/// The art deck example with `art/railgun.svg` replaced by `svg`.
fn art_attack(name: &'static str, svg: String) -> Attack {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/art-deck");
    let mut files = Vec::new();
    files_under(&example, &example, &mut files);
    files.push(("art/railgun.svg".into(), svg.into_bytes()));
    Attack { name, files, args: vec!["print", "--format", "png"] }
}

/// Every file under `dir`, by its path from `root`.
fn files_under(root: &Path, dir: &Path, files: &mut Vec<(String, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).expect("the art deck example").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(root, &path, files);
        } else if let Ok(relative) = path.strip_prefix(root) {
            files.push((relative.display().to_string(), std::fs::read(&path).expect("readable")));
        }
    }
}

fn template_attacks() -> Vec<Attack> {
    let nested = "{% for a in range(end=100000) %}{% for b in range(end=100000) %}{% endfor %}{% endfor %}";
    let items = format!("[{}]", vec!["0"; 1000].join(","));
    let quiet_loops = format!(
        "{{% set a = {items} %}}{{% for x in a %}}{{% for y in a %}}{{% for z in a %}}{{% for w in a %}}{{% endfor %}}{{% endfor %}}{{% endfor %}}{{% endfor %}}"
    );
    vec![
        template_attack(
            "template: a macro that calls itself",
            face("{% macro f(n) %}{{ self::f(n=n) }}{% endmacro f %}{{ self::f(n=0) }}"),
        ),
        template_attack("template: nested range(100000) loops", face(nested)),
        template_attack("template: range(end=4e9)", face("{% for a in range(end=4000000000) %}{% endfor %}")),
        template_attack(
            "template: a value doubled 40 times",
            face(&format!("{{% set s = \"x\" %}}{}", "{% set s = s ~ s %}".repeat(40))),
        ),
        template_attack("template: loops that never write", face(&quiet_loops)),
        template_attack(
            "template: 20,000 nested ifs",
            face(&format!("{}x{}", "{% if true %}".repeat(20_000), "{% endif %}".repeat(20_000))),
        ),
    ]
}

fn print_attacks() -> Vec<Attack> {
    let mut nested = picture("image/png", &png_header(4));
    while nested.len() < 12 << 20 {
        nested = picture("image/svg+xml", nested.as_bytes());
    }
    let mut huge_page = template_attack("print: --dpi 1200 --paper a3 --card 280x400", face(""));
    huge_page.files.pop();
    huge_page.args = vec!["print", "--dpi", "1200", "--paper", "a3", "--card", "280x400"];
    vec![
        art_attack("art: an SVG embedding a 30000² PNG", picture("image/png", &png_of_zeros(30_000))),
        art_attack("art: 12 MB of SVGs nested as data addresses", nested),
        huge_page,
    ]
}

fn main() {
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let attacks: Vec<Attack> = template_attacks().into_iter().chain(print_attacks()).collect();
    println!("exit: the program's exit code, or `signal N` when it was ended (6: aborted at 4 GB, 9: killed at 60 s)");
    println!();
    println!("| attack | exit | seconds | peak MB |");
    println!("| --- | ---: | ---: | ---: |");
    for attack in attacks {
        if !filter.is_empty() && !filter.iter().any(|f| attack.name.contains(f.as_str())) {
            continue;
        }
        match run(&attack) {
            Ok((status, seconds, peak_mb)) => {
                println!("| {} | {} | {seconds:.2} | {peak_mb:.0} |", attack.name, exit(status))
            }
            Err(e) => println!("| {} | failed: {e} | | |", attack.name),
        }
    }
}

/// A wait status as an exit code or the signal that ended the process
/// (`timeout` ends itself with the signal it sent: exit 128 + 9).
fn exit(status: i32) -> String {
    match (status & 0x7f, (status >> 8) & 0xff) {
        (0, 137) => "signal 9".into(),
        (0, code) if code > 128 => format!("signal {}", code - 128),
        (0, code) => code.to_string(),
        (signal, _) => format!("signal {signal}"),
    }
}

/// Runs the attack in a fresh folder: its wait status, seconds and peak
/// memory in MB.
fn run(attack: &Attack) -> Result<(i32, f64, f64), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    for (path, bytes) in &attack.files {
        let target = dir.path().join(path);
        std::fs::create_dir_all(target.parent().expect("a folder")).map_err(|e| e.to_string())?;
        std::fs::write(target, bytes).map_err(|e| e.to_string())?;
    }
    let start = Instant::now();
    let binary = std::env::var_os("CARDSMITH_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_cardsmith").into());
    let child = Command::new("sh")
        .args(["-c", "ulimit -v 4194304; exec timeout -s KILL 60 \"$0\" \"$@\""])
        .arg(binary)
        .args(&attack.args)
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run cardsmith: {e}"))?;
    let (status, peak_kb) = peak::wait_with_peak(child.id())?;
    Ok((status, start.elapsed().as_secs_f64(), peak_kb as f64 * 1024.0 / 1e6))
}
