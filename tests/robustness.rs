//! Hostile and unusual input: every case ends in diagnostics, never a panic
//! or a hang, and positions stay exact whatever the encoding details.

use cardsmith::diagnostics::render;
use cardsmith::workspace::{Outcome, Workspace};

fn check_bytes(name: &str, bytes: Vec<u8>) -> Outcome {
    let mut workspace = Workspace::new();
    workspace.add_bytes(name, bytes);
    workspace.check()
}

fn codes(outcome: &Outcome) -> Vec<&'static str> {
    outcome.diagnostics.iter().map(|d| d.code.id).collect()
}

fn json_of(outcome: &Outcome, code: &str) -> serde_json::Value {
    let d = outcome
        .diagnostics
        .iter()
        .find(|d| d.code.id == code)
        .unwrap_or_else(|| panic!("no {code}: {:?}", codes(outcome)));
    serde_json::from_str(&render::json(&outcome.files, d)).expect("valid JSON")
}

#[test]
fn positions_are_exact_with_crlf_tabs_bom_and_non_ascii() {
    let text = "\u{feff}game dreadnaught-2e\r\n\r\noffense \"Café Crème\" {\r\n\tsymbol kinetic\r\n\tarc narow\r\n\tat 3.5 { impact damage 3 }\r\n\ttext \"Über {dmg}\"\r\n}\r\n";
    let outcome = check_bytes("crlf.cards", text.as_bytes().to_vec());
    assert_eq!(codes(&outcome), vec!["E0208", "E0210"]);

    let arc = json_of(&outcome, "E0208");
    assert_eq!((arc["line"].as_u64(), arc["column"].as_u64()), (Some(5), Some(6)));
    let start = text.find("narow").unwrap();
    assert_eq!(arc["byte_start"].as_u64(), Some(start as u64), "byte offsets count the byte-order mark");
    assert_eq!(arc["byte_end"].as_u64(), Some((start + 5) as u64));

    let icon = json_of(&outcome, "E0210");
    // Column in characters: tab, `text "`, `Über ` (Ü is one character, two bytes).
    assert_eq!((icon["line"].as_u64(), icon["column"].as_u64()), (Some(7), Some(13)));
    let start = text.find("{dmg}").unwrap();
    assert_eq!(icon["byte_start"].as_u64(), Some(start as u64));

    // The rendered snippet shows the line without its `\r`.
    let rendered = render::human_string(&outcome.files, &outcome.diagnostics);
    assert!(rendered.contains("crlf.cards:5:6"), "{rendered}");
    assert!(!rendered.contains('\r'), "{rendered:?}");
}

#[test]
fn lone_carriage_returns_end_lines() {
    let text = "game dreadnaught-2e\r\roffense \"Old Mac\" {\r  symbol kinetic\r  arc narow\r  at 3.5 { impact damage 3 }\r}\r";
    let outcome = check_bytes("cr.cards", text.as_bytes().to_vec());
    let arc = json_of(&outcome, "E0208");
    assert_eq!((arc["line"].as_u64(), arc["column"].as_u64()), (Some(5), Some(7)));
}

#[test]
fn short_format_gives_file_line_and_column() {
    let outcome =
        check_bytes("s.cards", b"game dreadnaught-2e\noffense \"A\" {\n  symbol kinetik\n  arc turret\n}\n".to_vec());
    let line = render::short(&outcome.files, &outcome.diagnostics[0]);
    assert_eq!(line, "s.cards:3:10: error[E0205]: unknown deck symbol `kinetik`");
}

#[test]
fn invalid_utf8_is_reported_at_the_first_bad_byte() {
    let mut bytes = b"game dreadnaught-2e\noffense \"A".to_vec();
    bytes.extend([0xff, 0xfe]);
    bytes.extend(b"\" {}\n");
    let outcome = check_bytes("bad.cards", bytes);
    assert_eq!(codes(&outcome), vec!["E0008"]);
    let d = json_of(&outcome, "E0008");
    assert_eq!((d["line"].as_u64(), d["column"].as_u64(), d["byte_start"].as_u64()), (Some(2), Some(11), Some(30)));
}

#[test]
fn an_empty_file_is_an_error() {
    let outcome = check_bytes("empty.cards", Vec::new());
    assert_eq!(codes(&outcome), vec!["E0101"]);
    assert_eq!(outcome.stats.errors, 1);
}

/// A small deterministic generator, so failures reproduce.
fn noise(len: usize, seed: u64, alphabet: &[u8]) -> Vec<u8> {
    let mut state = seed;
    (0..len)
        .map(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            alphabet[(state >> 33) as usize % alphabet.len()]
        })
        .collect()
}

#[test]
fn a_megabyte_of_random_bytes_is_refused_cleanly() {
    let all: Vec<u8> = (0..=255).collect();
    let outcome = check_bytes("random.cards", noise(1 << 20, 7, &all));
    assert!(outcome.stats.errors >= 1);
}

#[test]
fn a_megabyte_of_random_card_like_text_never_panics() {
    let alphabet = b"abc xyz\"{}()*,.+-/0123456789\n\t;#\\Xx";
    for seed in 1..4 {
        let mut text = b"game dreadnaught-2e\n".to_vec();
        text.extend(noise(1 << 20, seed, alphabet));
        let outcome = check_bytes("noise.cards", text);
        assert!(outcome.stats.errors >= 1);
    }
}

#[test]
fn two_megabytes_of_open_parentheses_fail_fast() {
    // Refused by the depth guard before the grammar sees it.
    let outcome = check_bytes("parens.cards", vec![b'('; 2 << 20]);
    assert_eq!(codes(&outcome), ["E0005"]);
}

#[test]
fn deep_nesting_is_refused_before_parsing() {
    let mut text = b"game dreadnaught-2e\noffense \"Deep\" ".to_vec();
    text.extend(b"{ a ".repeat(200_000));
    let outcome = check_bytes("deep.cards", text);
    assert!(codes(&outcome).contains(&"E0005"), "{:?}", codes(&outcome));
}

#[test]
fn files_over_the_size_limit_are_not_parsed() {
    let outcome = check_bytes("huge.cards", vec![b' '; cardsmith::syntax::MAX_FILE_SIZE + 1]);
    assert_eq!(codes(&outcome), vec!["E0009"]);
}
