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

/// One attack: the files of its project, the command it runs and what it
/// is given on standard input.
struct Attack {
    name: &'static str,
    files: Vec<(String, Vec<u8>)>,
    args: Vec<&'static str>,
    input: Vec<u8>,
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
        input: Vec::new(),
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
    Attack { name, files, args: vec!["print", "--format", "png"], input: Vec::new() }
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

/// A card file of `size` bytes or more that `fmt` changes on every line.
fn misformatted(size: usize) -> Vec<u8> {
    let card =
        "offense   \"Lance {n}\"   {\n    symbol   kinetic\n    arc  narrow\n  at 2.4 {\n impact damage 8\n  }\n}\n";
    let mut text = String::from("game dreadnaught-2e\n\n");
    let mut n = 0;
    while text.len() < size {
        text.push_str(&card.replace("{n}", &n.to_string()));
        n += 1;
    }
    text.into_bytes()
}

/// Language server messages, framed.
fn framed(messages: &[String]) -> Vec<u8> {
    let mut wire = Vec::new();
    for message in messages {
        wire.extend(format!("Content-Length: {}\r\n\r\n{message}", message.len()).into_bytes());
    }
    wire
}

fn lsp_session(name: &'static str, middle: Vec<String>) -> Attack {
    let mut messages =
        vec![r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}"#.to_string()];
    messages.push(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#.into());
    messages.extend(middle);
    messages.push(r#"{"jsonrpc":"2.0","id":9,"method":"shutdown"}"#.into());
    messages.push(r#"{"jsonrpc":"2.0","method":"exit"}"#.into());
    Attack { name, files: Vec::new(), args: vec!["lsp"], input: framed(&messages) }
}

const CHAINS: &str = "ruleset chains {\n  title \"Chains\"\n}\n\nkind token \"Token\" {\n  field worth int\n}\n\n\
                      deck-type pile \"Pile\" {\n  includes pile\n}\n";

/// A project of the chains ruleset (with `defs` and a deck rule `rule`
/// when given) and `decks`.
fn chains_attack(name: &'static str, defs: &str, rule: &str, decks: &str) -> Attack {
    let rule = if rule.is_empty() { String::new() } else { format!("  require \"the rule\" {rule}\n") };
    let ruleset = CHAINS.replace("deck-type pile \"Pile\" {\n", &format!("{defs}\ndeck-type pile \"Pile\" {{\n{rule}"));
    let cards = format!("game chains\n\ntoken \"Bead\" {{\n  worth 1\n}}\n{decks}");
    Attack {
        name,
        files: vec![
            ("cardsmith.toml".into(), MANIFEST.into()),
            ("cards/chains.rules".into(), ruleset.into_bytes()),
            ("cards/decks.cards".into(), cards.into_bytes()),
        ],
        args: vec!["build"],
        input: Vec::new(),
    }
}

fn check_attacks() -> Vec<Attack> {
    let mut tenfold = String::from("\ndeck \"D0\" pile {\n  card \"Bead\"\n}\n");
    for level in 1..=8 {
        let lines = format!("  deck \"D{}\"\n", level - 1).repeat(10);
        tenfold.push_str(&format!("\ndeck \"D{level}\" pile {{\n{lines}}}\n"));
    }
    let single = "\ndeck \"Single\" pile {\n  card \"Bead\"\n}\n";
    let doubling = format!("{}1{} > 0", "f(".repeat(30), ")".repeat(30));
    let many: String = (0..100_000).map(|i| format!("def d{i}(n) n + {i}\n")).collect();
    vec![
        chains_attack("check: 8 decks each listing the one before 10 times", "", "", &tenfold),
        chains_attack("check: def f(n) n + n called 30 deep", "def f(n) n + n\n", &doubling, single),
        chains_attack("check: 100,000 def lines", &many, "d99999(count()) > 0", single),
    ]
}

fn command_attacks() -> Vec<Attack> {
    let mut nested = String::from("cards");
    for _ in 0..1500 {
        nested.push_str("/a");
    }
    let lines = "// a note\n".repeat(20_000);
    let uri = "file:///tmp/cardsmith-attack/a.cards";
    let open = format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":{{"uri":"{uri}","languageId":"cardsmith","version":1,"text":"game dreadnaught-2e\n{}"}}}}}}"#,
        lines.replace('\n', "\\n")
    );
    let edits: Vec<String> = (0..20_000)
        .map(|i| format!(r#"{{"range":{{"start":{{"line":{i},"character":0}},"end":{{"line":{i},"character":0}}}},"text":"// added\n"}}"#))
        .collect();
    let change = format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"textDocument":{{"uri":"{uri}","version":2}},"contentChanges":[{}]}}}}"#,
        edits.join(",")
    );
    let tiny = vec![r#"{"a":0}"#; 8_000_000].join(",");
    let hover = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{{"x":[{tiny}]}}}}"#);
    let engine = format!(
        r#"{{"format":2,"ruleset":{{"id":"g"}},"decks":[{{"name":"D","computed":{{"x":[{}]}}}}]}}"#,
        vec![r#"{"a":0}"#; 31_000_000].join(",")
    );
    vec![
        Attack {
            name: "fmt --check: a 2.7 MB file changed on every line",
            files: vec![("cardsmith.toml".into(), MANIFEST.into()), ("cards/a.cards".into(), misformatted(2_700_000))],
            args: vec!["fmt", "--check"],
            input: Vec::new(),
        },
        Attack {
            name: "check: 1,500 nested folders",
            files: vec![("cardsmith.toml".into(), MANIFEST.into()), (format!("{nested}/a.cards"), EVENT.into())],
            args: vec!["check"],
            input: Vec::new(),
        },
        lsp_session("lsp: one didChange of 20,000 range edits", vec![open, change]),
        lsp_session("lsp: a 64 MB message of tiny objects", vec![hover]),
        Attack {
            name: "timeline --data: 250 MB of tiny objects",
            files: vec![("big.json".into(), engine.into_bytes())],
            args: vec!["timeline", "--data", "big.json", "--play", "1:D"],
            input: Vec::new(),
        },
    ]
}

/// The argument that makes this binary write the attacks' folders, in a
/// process of its own: the kernel starts a child's peak memory from its
/// parent's, so the process that runs and measures them stays small.
const WRITE: &str = "--write-attacks";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if args.first().map(String::as_str) == Some(WRITE) {
        let [_, dir, filter @ ..] = args.as_slice() else { panic!("{WRITE} DIR [FILTER...]") };
        return write_attacks(Path::new(dir), filter);
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let wrote = Command::new(std::env::current_exe().expect("this benchmark"))
        .arg(WRITE)
        .arg(dir.path())
        .args(&args)
        .status()
        .expect("the attacks are written");
    assert!(wrote.success(), "writing the attacks failed");
    println!("exit: the program's exit code, or `signal N` when it was ended (6: aborted at 4 GB, 9: killed at 60 s)");
    println!();
    println!("| attack | exit | seconds | peak MB |");
    println!("| --- | ---: | ---: | ---: |");
    let mut folders: Vec<_> = std::fs::read_dir(dir.path()).expect("attacks").flatten().map(|e| e.path()).collect();
    folders.sort();
    for folder in folders {
        let name = std::fs::read_to_string(folder.join("name")).expect("a name");
        match run(&folder) {
            Ok((status, seconds, peak_mb)) => println!("| {name} | {} | {seconds:.2} | {peak_mb:.0} |", exit(status)),
            Err(e) => println!("| {name} | failed: {e} | | |"),
        }
    }
}

/// Writes each attack whose name holds one of `filter` (all, when none) as
/// a folder: `project/` with its files, `name`, `args` (a line each) and
/// `stdin`.  Each is made and written before the next is made.
fn write_attacks(dir: &Path, filter: &[String]) {
    let makers: [fn() -> Vec<Attack>; 4] = [template_attacks, print_attacks, check_attacks, command_attacks];
    let mut number = 0;
    for make in makers {
        for attack in make() {
            if !filter.is_empty() && !filter.iter().any(|f| attack.name.contains(f.as_str())) {
                continue;
            }
            let folder = dir.join(format!("{number:03}"));
            number += 1;
            for (path, bytes) in &attack.files {
                let target = folder.join("project").join(path);
                std::fs::create_dir_all(target.parent().expect("a folder")).expect("a folder");
                std::fs::write(target, bytes).expect("a file");
            }
            std::fs::create_dir_all(folder.join("project")).expect("a folder");
            std::fs::write(folder.join("name"), attack.name).expect("a name");
            std::fs::write(folder.join("args"), attack.args.join("\n")).expect("args");
            std::fs::write(folder.join("stdin"), &attack.input).expect("stdin");
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

/// Runs the attack written in `folder`: its wait status, seconds and peak
/// memory in MB.
fn run(folder: &Path) -> Result<(i32, f64, f64), String> {
    let args = std::fs::read_to_string(folder.join("args")).map_err(|e| e.to_string())?;
    let stdin = std::fs::File::open(folder.join("stdin")).map_err(|e| e.to_string())?;
    let binary = std::env::var_os("CARDSMITH_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_cardsmith").into());
    let start = Instant::now();
    let child = Command::new("sh")
        .args(["-c", "ulimit -v 4194304; exec timeout -s KILL 60 \"$0\" \"$@\""])
        .arg(binary)
        .args(args.lines())
        .current_dir(folder.join("project"))
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run cardsmith: {e}"))?;
    let (status, peak_kb) = peak::wait_with_peak(child.id())?;
    Ok((status, start.elapsed().as_secs_f64(), peak_kb as f64 * 1024.0 / 1e6))
}
