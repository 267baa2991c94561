//! UI tests: the diagnostics a person sees, case by case, with the expected
//! output beside each input.
//!
//! The cases are in `tests/ui/`; their layout (a `.cards` or `.rules` file,
//! or a folder holding a small project, with `// expect: CODE...` on the
//! first line of every input and the rendered diagnostics in `NAME.stderr`
//! beside the case) is described in `tests/common/cases.rs`.  After a change
//! that is meant to alter the output, rewrite the `.stderr` files and review
//! them with `git diff` like code:
//!
//! ```sh
//! CARDSMITH_BLESS=1 cargo test --test ui
//! ```
//!
//! A mismatch fails with a diff of the expected and the actual output.

#[path = "common/cases.rs"]
mod cases;
mod common;

#[test]
fn ui() {
    let folder = cases::Folder { path: common::repo().join("tests/ui"), shown: "tests/ui".to_string() };
    let (failures, count) = cases::run(&folder);
    assert!(count > 0, "no cases in tests/ui");
    cases::assert_all_pass(&failures, count);
}
