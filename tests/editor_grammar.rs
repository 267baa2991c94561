//! The editors' TextMate grammars leave no character of a bundled card or
//! ruleset file without a scope: editors/vscode/test/grammar.test.js
//! tokenizes every file under cards/ with VS Code's own engine
//! (vscode-textmate and vscode-oniguruma from npm) and lists what it left
//! unscoped, and checks that the committed grammars are what
//! editors/vscode/syntaxes/generate.js writes.

mod common;

use std::process::Command;

const NODE: &str = "install Node.js and npm (apt-get install nodejs npm), then run `npm ci` in editors/vscode/test";

#[test]
#[ignore = "needs Node.js and npm: run `npm ci` in editors/vscode/test"]
fn every_character_of_every_bundled_file_has_a_scope() {
    let folder = common::repo().join("editors/vscode/test");
    assert!(
        folder.join("node_modules/vscode-textmate").is_dir(),
        "the grammar test's packages are not installed: run `npm ci` in {}",
        folder.display()
    );
    let output = common::outside_program(
        Command::new("node").arg(folder.join("grammar.test.js")).arg(common::repo()).current_dir(&folder),
        NODE,
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the grammars leave characters unscoped:\n{stderr}\n{stdout}");
    assert!(stdout.contains("0 with problems"), "the grammar test did not report its files:\n{stdout}\n{stderr}");
}
