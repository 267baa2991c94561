//! The case harness shared by the UI tests (`tests/ui.rs`) and the rule
//! fidelity tests (`tests/fidelity.rs`).
//!
//! A case folder holds cases, each one of:
//!
//! - a file, `NAME.cards` or `NAME.rules`, checked on its own (with the
//!   bundled ruleset of the game it names);
//! - a folder, `NAME/`, holding a small project: every `.cards` and `.rules`
//!   file in it is checked together, and a `cardsmith.toml` there sets the
//!   lint levels as in a project (`[lints]`).
//!
//! The first line of every input file lists the codes whose primary label
//! is in that file, in any order (`// expect: E0203 E0208`, or `// expect:`
//! for none).  The rendered diagnostics, exactly as `cardsmith check` shows
//! them, are in `NAME.stderr` beside the case; a case that must check clean
//! has no `.stderr`.  `CARDSMITH_BLESS=1` rewrites the `.stderr` files.

use cardsmith::diagnostics::render;
use cardsmith::workspace::Workspace;
use similar::TextDiff;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A folder of cases, and how its paths are shown in diagnostics
/// (`tests/ui`), relative to the repository.
pub struct Folder {
    pub path: PathBuf,
    pub shown: String,
}

/// One case: its input files (name as shown in the diagnostics, bytes) and
/// its project file, if it has one.
pub struct Case {
    pub name: String,
    pub inputs: Vec<(String, Vec<u8>)>,
    pub manifest: Option<String>,
}

fn is_input(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "cards" || e == "rules")
}

fn file_name(path: &Path) -> String {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string()
}

/// Every entry of a folder, sorted by name.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("readable folder").map(|e| e.expect("entry").path()).collect();
    paths.sort();
    paths
}

/// Every case in a folder, and every `.stderr` file found there.
pub fn cases(folder: &Folder) -> (Vec<Case>, Vec<PathBuf>) {
    let mut cases = Vec::new();
    let mut stderr_files = Vec::new();
    for path in entries(&folder.path) {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("?").to_string();
        if path.is_dir() {
            cases.push(folder_case(folder, &path, stem));
        } else if is_input(&path) {
            let shown = format!("{}/{}", folder.shown, file_name(&path));
            cases.push(Case { name: stem, inputs: vec![(shown, read(&path))], manifest: None });
        } else if path.extension().is_some_and(|e| e == "stderr") {
            stderr_files.push(path);
        } else {
            panic!("{}: not a case (`.cards`, `.rules` or a folder) nor a `.stderr`", path.display());
        }
    }
    let mut names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    names.sort();
    if let Some(pair) = names.windows(2).find(|pair| pair[0] == pair[1]) {
        panic!("two cases are named `{}`: they would share one `.stderr`", pair[0]);
    }
    (cases, stderr_files)
}

fn folder_case(folder: &Folder, dir: &Path, name: String) -> Case {
    let mut inputs = Vec::new();
    let mut manifest = None;
    for path in entries(dir) {
        let file = file_name(&path);
        if is_input(&path) {
            inputs.push((format!("{}/{name}/{file}", folder.shown), read(&path)));
        } else if file == cardsmith::config::FILE_NAME {
            manifest = Some(String::from_utf8(read(&path)).expect("a UTF-8 project file"));
        } else {
            panic!("{}: a case folder holds `.cards`, `.rules` and `cardsmith.toml` only", path.display());
        }
    }
    assert!(!inputs.is_empty(), "{}: no `.cards` or `.rules` file", dir.display());
    Case { name, inputs, manifest }
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The codes the first line of an input lists, sorted.
pub fn expected_codes(name: &str, bytes: &[u8]) -> Result<Vec<String>, String> {
    let text = String::from_utf8_lossy(bytes);
    let first = text.lines().next().unwrap_or("");
    let Some(codes) = first.strip_prefix("// expect:") else {
        return Err(format!("{name}: the first line must be `// expect: CODE...` (or `// expect:` for none)"));
    };
    let mut codes: Vec<String> = codes.split_whitespace().map(str::to_string).collect();
    codes.sort();
    Ok(codes)
}

/// The lint levels of a case's `cardsmith.toml`, read as a project reads it.
fn lint_levels(folder: &Folder, case: &Case) -> Result<cardsmith::lint::Config, String> {
    let Some(text) = &case.manifest else { return Ok(cardsmith::lint::Config::default()) };
    let mut files = cardsmith::source::Files::new();
    let id = files.add(format!("{}/{}/{}", folder.shown, case.name, cardsmith::config::FILE_NAME), text.as_str());
    let (manifest, problems) = cardsmith::config::parse(&files, id);
    if problems.is_empty() {
        Ok(manifest.lints)
    } else {
        Err(format!("{}: the project file has problems:\n{}", case.name, render::human_string(&files, &problems)))
    }
}

/// Checks a case: its codes, file by file, against its first lines.  Returns
/// the rendered diagnostics, or what is wrong.
pub fn check(folder: &Folder, case: &Case) -> Result<String, String> {
    let mut workspace = Workspace::new();
    workspace.set_lint_config(lint_levels(folder, case)?);
    let mut expected: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (name, bytes) in &case.inputs {
        expected.insert(name, expected_codes(name, bytes)?);
        workspace.add_bytes(name, bytes.clone());
    }
    let outcome = workspace.check();
    let rendered = render::human_string(&outcome.files, &outcome.diagnostics);

    let mut actual: BTreeMap<&str, Vec<String>> = expected.keys().map(|name| (*name, Vec::new())).collect();
    for diagnostic in &outcome.diagnostics {
        let Some(primary) = diagnostic.primary_span() else {
            return Err(format!("{}: {} has no primary label\n{rendered}", case.name, diagnostic.code.id));
        };
        let file = outcome.files.get(primary.file).name.as_str();
        match actual.get_mut(file) {
            Some(codes) => codes.push(diagnostic.code.id.to_string()),
            None => {
                return Err(format!(
                    "{}: the primary label of {} is in `{file}`, not in the case\n{rendered}",
                    case.name, diagnostic.code.id
                ))
            }
        }
    }
    for (file, codes) in &mut actual {
        codes.sort();
        if codes != &expected[file] {
            return Err(format!("{file}: expected {:?}, found {codes:?}\n{rendered}", expected[file]));
        }
    }
    Ok(rendered)
}

/// Compares the rendered output with the case's `.stderr`, or rewrites it
/// when blessing.  No output means no `.stderr` file.
pub fn compare(folder: &Folder, case: &Case, rendered: &str, bless: bool) -> Result<(), String> {
    let path = folder.path.join(format!("{}.stderr", case.name));
    let expected = std::fs::read_to_string(&path).ok();
    if expected.as_deref().unwrap_or("") == rendered {
        return Ok(());
    }
    if bless {
        if rendered.is_empty() {
            std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        } else {
            std::fs::write(&path, rendered).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        return Ok(());
    }
    let shown = format!("{}/{}.stderr", folder.shown, case.name);
    let diff = TextDiff::from_lines(expected.as_deref().unwrap_or(""), rendered)
        .unified_diff()
        .header(&format!("{shown} (expected)"), &format!("{shown} (actual)"))
        .to_string();
    Err(match expected {
        Some(_) => format!("{}: the diagnostics differ from {shown}:\n{diff}", case.name),
        None => format!("{}: no {shown}; the diagnostics are:\n{rendered}", case.name),
    })
}

/// Checks every case of a folder against its `.stderr`, and that no
/// `.stderr` is left without its case.  Returns the failures, one message
/// each, and the number of cases.
pub fn run(folder: &Folder) -> (Vec<String>, usize) {
    let bless = std::env::var_os("CARDSMITH_BLESS").is_some();
    let (cases, stderr_files) = cases(folder);
    let mut failures: Vec<String> = cases
        .iter()
        .filter_map(|case| check(folder, case).and_then(|rendered| compare(folder, case, &rendered, bless)).err())
        .collect();
    // An expected output whose case is gone is stale.
    for path in stderr_files {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
        if !cases.iter().any(|case| case.name == stem) {
            if bless {
                std::fs::remove_file(&path).expect("remove a stale .stderr");
            } else {
                failures.push(format!("{}: no case of that name", path.display()));
            }
        }
    }
    (failures, cases.len())
}

/// Fails with every failure of `run`, and the advice to bless.
pub fn assert_all_pass(failures: &[String], count: usize) {
    let bless = std::env::var_os("CARDSMITH_BLESS").is_some();
    let advice = if bless { "" } else { "\n(after reviewing, rewrite the .stderr files with CARDSMITH_BLESS=1)" };
    assert!(failures.is_empty(), "{} of {count} cases failed:\n\n{}{advice}", failures.len(), failures.join("\n\n"));
}
