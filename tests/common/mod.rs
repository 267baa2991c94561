//! Helpers shared by the integration tests.

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
