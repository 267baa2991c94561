//! UI tests: every file in `tests/ui/` is a broken input.  Its first line
//! lists the diagnostic codes it must produce (`// expect: E0203 E0208`); the
//! rendered diagnostics are an insta snapshot, reviewed like code.

use cardsmith::diagnostics::render;
use cardsmith::workspace::Workspace;

#[test]
fn ui() {
    insta::glob!("ui/*.cards", |path| {
        let bytes = std::fs::read(path).expect("readable test file");
        let name = format!("tests/ui/{}", path.file_name().and_then(|n| n.to_str()).unwrap_or("?"));
        let header = String::from_utf8_lossy(&bytes).lines().next().unwrap_or("").to_string();
        let mut expected: Vec<&str> = header
            .strip_prefix("// expect:")
            .unwrap_or_else(|| panic!("{name}: first line must be `// expect: CODE...`"))
            .split_whitespace()
            .collect();

        let mut workspace = Workspace::new();
        workspace.add_bytes(&name, bytes.clone());
        let outcome = workspace.check();

        let mut actual: Vec<&str> = outcome.diagnostics.iter().map(|d| d.code.id).collect();
        expected.sort();
        actual.sort();
        let rendered = render::human_string(&outcome.files, &outcome.diagnostics);
        assert_eq!(actual, expected, "{name}: codes differ\n{rendered}");
        for d in &outcome.diagnostics {
            let primary = d.primary_span().unwrap_or_else(|| panic!("{name}: {} has no primary label", d.code.id));
            assert_eq!(
                outcome.files.get(primary.file).name,
                name,
                "{name}: primary label of {} is not in the test file",
                d.code.id
            );
        }
        insta::assert_snapshot!(rendered);
    });
}
