//! Helpers shared by the integration tests.
#![allow(dead_code)]

use cardsmith::workspace::{Outcome, Workspace};
use std::path::Path;

/// Checks every file of a bundled folder (`cards/dreadnaught-2e`) through the
/// library, naming files as the CLI would from the repository root.
pub fn check_folder(folder: &str) -> Outcome {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut paths: Vec<_> = std::fs::read_dir(&dir).expect("folder").map(|e| e.expect("entry").path()).collect();
    paths.sort();
    let mut workspace = Workspace::new();
    for path in paths {
        let name = format!("{folder}/{}", path.file_name().and_then(|n| n.to_str()).unwrap_or("?"));
        workspace.add_bytes(&name, std::fs::read(&path).expect("readable"));
    }
    workspace.check()
}

/// A copy of the example project `examples/NAME` in a temporary folder.
pub fn example_project(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, bytes) in contents(&repo().join("examples").join(name)) {
        let target = dir.path().join(&path);
        std::fs::create_dir_all(target.parent().expect("a folder")).expect("folder");
        std::fs::write(target, bytes).expect("file");
    }
    dir
}

/// A copy of the example project `examples/NAME` with `from` replaced by
/// `to` once in `file` (a path inside the project): one rule broken.
pub fn edited_example(name: &str, file: &str, from: &str, to: &str) -> tempfile::TempDir {
    let dir = example_project(name);
    let path = dir.path().join(file);
    let text = std::fs::read_to_string(&path).expect("read the copy");
    assert_eq!(text.matches(from).count(), 1, "`{from}` must occur once in {file}");
    std::fs::write(&path, text.replacen(from, to, 1)).expect("edit the copy");
    dir
}

/// `severity[code]: message` of every diagnostic `check` gives in `dir`.
pub fn check_messages(dir: &Path) -> Vec<String> {
    let output = cardsmith(&["check", "--message-format", "short"], dir);
    stderr(&output)
        .lines()
        .filter_map(|line| line.split_once(": ").map(|(_, rest)| rest.to_string()))
        .filter(|rest| rest.starts_with("error[") || rest.starts_with("warning["))
        .collect()
}

/// Runs the `cardsmith` binary in a folder.
pub fn cardsmith(args: &[&str], dir: &Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_cardsmith"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cardsmith runs")
}

/// Runs an outside program that an `#[ignore]`d test needs (poppler,
/// Chromium, cargo-fuzz).  Such a test runs only when asked for
/// (`cargo test -- --ignored`), so a missing program fails it with the line
/// that installs the program: it never passes without checking.
#[track_caller]
pub fn outside_program(command: &mut std::process::Command, install: &str) -> std::process::Output {
    let program = command.get_program().to_string_lossy().into_owned();
    match command.output() {
        Ok(output) => output,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            panic!("`{program}` is not installed, and this test needs it: {install}")
        }
        Err(e) => panic!("cannot run `{program}` ({e}): {install}"),
    }
}

/// The repository root.
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// What an output folder holds, with the addresses a print's Tabletop
/// Simulator decks give their images (the folder's own `file://` address)
/// made relative: two prints into different folders then compare equal.
pub fn output_contents(out: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let here = format!("file://{}/tts/", out.display());
    let mut files = contents(out);
    for (_, bytes) in files.iter_mut().filter(|(name, _)| name.ends_with(".json")) {
        if let Ok(text) = String::from_utf8(bytes.clone()) {
            *bytes = text.replace(&here, "").into_bytes();
        }
    }
    files
}

/// Every file under `dir`, hidden ones included, by its path relative to
/// `dir` (with `/`), with its bytes.
pub fn contents(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).expect("readable folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.strip_prefix(dir).expect("below dir").to_string_lossy().replace('\\', "/");
                files.insert(name, std::fs::read(&path).expect("readable file"));
            }
        }
    }
    files
}

/// A project in a temporary folder: `cardsmith.toml` and, under `cards/`, a
/// copy of the bundled cards of `game`.
pub fn bundled_project(game: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n").expect("manifest");
    let cards = dir.path().join("cards");
    std::fs::create_dir(&cards).expect("cards");
    for entry in std::fs::read_dir(repo().join("cards").join(game)).expect("bundled cards") {
        let path = entry.expect("entry").path();
        std::fs::copy(&path, cards.join(path.file_name().expect("name"))).expect("copy");
    }
    dir
}

/// Starts `cardsmith ARGS` in `dir` paused for `pause` just before it swaps
/// its finished output folder in, and waits until the temporary folder beside
/// `dir/OUT` holds every file (its marker is written last).  Returns the
/// running process (its stderr piped) and that temporary folder.
pub fn paused_before_the_swap(
    args: &[&str],
    dir: &Path,
    out: &str,
    pause: std::time::Duration,
    release: Option<&Path>,
) -> (std::process::Child, std::path::PathBuf) {
    use std::time::{Duration, Instant};
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_cardsmith"));
    if let Some(release) = release {
        command.env("CARDSMITH_TEST_HOOK_RELEASE_FILE", release);
    }
    let mut child = command
        .args(args)
        .current_dir(dir)
        .env("CARDSMITH_TEST_HOOK_PAUSE_BEFORE_RENAME_MS", pause.as_millis().to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("cardsmith starts");
    let prefix = format!(".{out}.tmp-");
    let started = Instant::now();
    let temp = loop {
        let found = std::fs::read_dir(dir)
            .expect("project folder")
            .map(|e| e.expect("entry").path())
            .find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(&prefix)));
        // The marker is written last; once it has its text, the run is
        // paused or about to be (created but still empty, it is not).
        let marked = |t: &std::path::PathBuf| std::fs::metadata(t.join(".cardsmith-output")).is_ok_and(|m| m.len() > 0);
        if let Some(temp) = found.filter(marked) {
            break temp;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("cardsmith never wrote its temporary folder");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (child, temp)
}

/// Starts `cardsmith ARGS` in `dir` paused just before it swaps its finished
/// output folder in, waits until the temporary folder beside `dir/OUT` holds
/// every file, and kills the process with SIGKILL.  Returns the temporary
/// folder it left.
pub fn kill_before_the_swap(args: &[&str], dir: &Path, out: &str) -> std::path::PathBuf {
    let (mut child, temp) = paused_before_the_swap(args, dir, out, std::time::Duration::from_secs(60), None);
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    temp
}

/// The independent validator: the `jsonschema` crate, given `schema.json`
/// after checking that it declares draft 2020-12 and is a valid schema of
/// that draft (against the draft's own meta-schema).
pub fn validator(schema_path: &Path) -> jsonschema::Validator {
    let text = std::fs::read(schema_path).expect("schema.json");
    let schema: serde_json::Value = serde_json::from_slice(&text).expect("schema.json is JSON");
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema", "the draft schema.json declares");
    jsonschema::draft202012::meta::validate(&schema)
        .unwrap_or_else(|e| panic!("schema.json is not a valid schema: {e}"));
    jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("schema.json does not compile: {e}"))
}

/// Every objection of the validator to `document`: the JSON pointer of the
/// value it objects to, and why.
pub fn objections(validator: &jsonschema::Validator, document: &serde_json::Value) -> Vec<(String, String)> {
    validator.iter_errors(document).map(|e| (e.instance_path().as_str().to_string(), e.to_string())).collect()
}

/// A workbook (XLSX) of worksheets, each a name and its rows of cells, every
/// cell written as text (an inline string), as a spreadsheet saves one.
pub fn xlsx(worksheets: &[(&str, Vec<Vec<String>>)]) -> Vec<u8> {
    use std::io::Write;
    let escape =
        |text: &str| text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    let mut parts: Vec<(String, String)> = Vec::new();
    let (mut types, mut sheets, mut rels) = (String::new(), String::new(), String::new());
    for (i, (name, rows)) in worksheets.iter().enumerate() {
        let n = i + 1;
        types.push_str(&format!(
            "<Override PartName=\"/xl/worksheets/sheet{n}.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>"
        ));
        sheets.push_str(&format!("<sheet name=\"{}\" sheetId=\"{n}\" r:id=\"rId{n}\"/>", escape(name)));
        rels.push_str(&format!(
            "<Relationship Id=\"rId{n}\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" Target=\"worksheets/sheet{n}.xml\"/>"
        ));
        let mut data = String::new();
        for (r, row) in rows.iter().enumerate() {
            data.push_str(&format!("<row r=\"{}\">", r + 1));
            for (c, cell) in row.iter().enumerate().filter(|(_, cell)| !cell.is_empty()) {
                let column = (b'A' + c as u8) as char;
                data.push_str(&format!(
                    "<c r=\"{column}{}\" t=\"inlineStr\"><is><t xml:space=\"preserve\">{}</t></is></c>",
                    r + 1,
                    escape(cell)
                ));
            }
            data.push_str("</row>");
        }
        parts.push((
            format!("xl/worksheets/sheet{n}.xml"),
            format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>{data}</sheetData></worksheet>"
            ),
        ));
    }
    parts.push((
        "[Content_Types].xml".into(),
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/><Default Extension=\"xml\" ContentType=\"application/xml\"/><Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>{types}</Types>"
        ),
    ));
    parts.push((
        "_rels/.rels".into(),
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>".into(),
    ));
    parts.push((
        "xl/workbook.xml".into(),
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"><sheets>{sheets}</sheets></workbook>"
        ),
    ));
    parts.push((
        "xl/_rels/workbook.xml.rels".into(),
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">{rels}</Relationships>"
        ),
    ));
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, text) in parts {
        writer.start_file(name, options).expect("a part");
        writer.write_all(text.as_bytes()).expect("written");
    }
    writer.finish().expect("a workbook").into_inner()
}

/// The rows of a CSV table, each cell's text, as a workbook holds them.
pub fn rows_of_csv(table: &str) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(table.as_bytes());
    reader.records().map(|r| r.expect("a row").iter().map(str::to_string).collect()).collect()
}

/// How the browser tests start Chromium: headless, as root, and with none of
/// its background connections, which a closed network refuses.
pub const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// The engine data of the game `name` whose sources are in `folder` (from
/// the repository root), built in memory as `cardsmith build` writes it.
pub fn built_json(folder: &str, name: &str) -> String {
    let folder = repo().join(folder);
    let mut workspace = Workspace::new();
    let mut paths: Vec<_> = std::fs::read_dir(&folder).expect("the game").flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a source file");
        workspace.add_text(&path.display().to_string(), &text);
    }
    let outcome = workspace.check();
    let files = cardsmith::backend::json::build(&outcome.files, &outcome.project).expect("engine data");
    let file = files.iter().find(|f| f.name == format!("{name}.json")).expect("the game's document");
    file.contents.clone()
}

/// A game's decisions, taken by bots (each checked by `Game::apply`), and
/// its record.
pub fn bot_game(
    table: &cardsmith::engine::play::Table,
    bots: &[cardsmith::engine::play::BotKind],
    seed: u64,
) -> (Vec<cardsmith::engine::play::Decision>, cardsmith::engine::record::GameRecord) {
    let mut game = cardsmith::engine::play::Game::new(table, seed);
    let mut rng = cardsmith::engine::play::bots::bot_rng(seed);
    let mut taken = Vec::new();
    while let Some(seat) = game.to_act() {
        let decision = cardsmith::engine::play::bots::choose(bots[seat], &game, &mut rng).expect("a decision");
        game.apply(&decision).expect("a bot's decision is legal");
        taken.push(decision);
    }
    (taken, game.record())
}
