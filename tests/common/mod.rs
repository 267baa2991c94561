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

/// Runs the `cardsmith` binary in a folder.
pub fn cardsmith(args: &[&str], dir: &Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_cardsmith"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cardsmith runs")
}

/// The repository root.
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
