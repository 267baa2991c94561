//! The rulebook's notation is accepted as printed: a stat line copied from
//! the Dropfleet Commander rulebook checks clean, and `cardsmith fmt` writes
//! it in the one canonical spelling, which checks clean too and which `fmt`
//! then leaves alone.  One row per printed spelling, each on a ship of its
//! own; the Dreadnought TCG's timing tags as its game reference prints
//! them (`[Ac]`); then the canonical spellings, which `fmt` keeps, and near
//! misses, which are still reported with what was meant.

mod common;

use common::{cardsmith, stderr};
use std::path::Path;

/// A row: what it shows, the lines of a ship as the rulebook prints them,
/// and the same lines as `fmt` writes them.
struct Row {
    what: &'static str,
    printed: &'static [&'static str],
    canonical: &'static [&'static str],
}

const ROWS: &[Row] = &[
    Row {
        what: "an arc with a space, `F/S (Right)` (§3.1.2)",
        printed: &[r#"weapon "W" lock 3+ attack 2 damage 1 arc F/S (Right)"#],
        canonical: &[r#"weapon "W" lock 3+ attack 2 damage 1 arc F/S(Right)"#],
    },
    Row {
        what: "the narrow arc `F (N)` (§3.1.2)",
        printed: &[r#"weapon "W" lock 3+ attack 2 damage 1 arc F (N)"#],
        canonical: &[r#"weapon "W" lock 3+ attack 2 damage 1 arc F(N)"#],
    },
    Row {
        what: "a rule's parameter after a space, `Calibre (L)`",
        printed: &[r#"weapon "W" lock 5+ attack 2 damage 1 arc F special Calibre (L)"#],
        canonical: &[r#"weapon "W" lock 5+ attack 2 damage 1 arc F special calibre(L)"#],
    },
    Row {
        what: "a list, `Burnthrough (4), Flash` (the Laser Armament)",
        printed: &[r#"weapon "Laser Armament" lock 3+ attack 2 damage 1 arc F/S/R special Burnthrough (4), Flash"#],
        canonical: &[r#"weapon "Laser Armament" lock 3+ attack 2 damage 1 arc F/S/R special burnthrough(4) flash"#],
    },
    Row {
        what: "`Link (1)` on two weapons",
        printed: &[
            r#"weapon "A" lock 3+ attack 2 damage 1 arc F special Link (1)"#,
            r#"weapon "B" lock 3+ attack 2 damage 1 arc F special Link (1)"#,
        ],
        canonical: &[
            r#"weapon "A" lock 3+ attack 2 damage 1 arc F special link(1)"#,
            r#"weapon "B" lock 3+ attack 2 damage 1 arc F special link(1)"#,
        ],
    },
    Row {
        what: "`-` in a weapon's Special column (the space station armaments, L1463)",
        printed: &[r#"weapon "Mass Driver Armament" lock 4+ attack 2 damage 1 arc F/S/R special -"#],
        canonical: &[r#"weapon "Mass Driver Armament" lock 4+ attack 2 damage 1 arc F/S/R special -"#],
    },
    Row {
        what: "a Launch Capacity row with its `-` Special column, `Torpedoes|1|-` (L1232)",
        printed: &["special launch", "launch Torpedoes 1 -"],
        canonical: &["special launch", "launch torpedoes 1 -"],
    },
    Row {
        what: "a two-word rule, `Close Action`",
        printed: &[r#"weapon "Barracuda Missile Bay" lock 4+ attack 2 damage 1 arc F/S/R special Close Action"#],
        canonical: &[r#"weapon "Barracuda Missile Bay" lock 4+ attack 2 damage 1 arc F/S/R special close-action"#],
    },
    Row {
        what: "Limited as printed, `L (2)`, beside Tonnage L",
        printed: &[r#"weapon "W" lock 3+ attack 4 damage 2 arc F/S/R special Bombardment, L (2)"#],
        canonical: &[r#"weapon "W" lock 3+ attack 4 damage 2 arc F/S/R special bombardment limited(2)"#],
    },
    Row {
        what: "`Escape Velocity`",
        printed: &[r#"weapon "W" lock 3+ attack 2 damage 1 arc F special Escape Velocity, Flash"#],
        canonical: &[r#"weapon "W" lock 3+ attack 2 damage 1 arc F special escape-velocity flash"#],
    },
    Row {
        what: "a rule whose printed name has brackets, `Close Action (Beam)`",
        printed: &[r#"weapon "W" lock 3+ attack 2 damage 1 arc F special Close Action (Beam)"#],
        canonical: &[r#"weapon "W" lock 3+ attack 2 damage 1 arc F special close-action-beam"#],
    },
    Row {
        what: "`Alt-1` on two weapons (§Alternate fire)",
        printed: &[
            r#"weapon "Heavy Rail Cannon" lock 3+ attack 2 damage 4 arc F(N) special Alt-1"#,
            r#"weapon "Heavy Rail Cannon (Scatter)" lock 4+ attack 6 damage 1 arc F(N) special Alt-1"#,
        ],
        canonical: &[
            r#"weapon "Heavy Rail Cannon" lock 3+ attack 2 damage 4 arc F(N) special alt(1)"#,
            r#"weapon "Heavy Rail Cannon (Scatter)" lock 4+ attack 6 damage 1 arc F(N) special alt(1)"#,
        ],
    },
    Row {
        what: "`Squadron-X` with its number",
        printed: &[r#"weapon "W" lock 3+ attack 2 damage 1 arc F special Squadron-2"#],
        canonical: &[r#"weapon "W" lock 3+ attack 2 damage 1 arc F special squadron(2)"#],
    },
    Row {
        what: "`Voidgate-X` with its number, on the ship",
        printed: &["special Voidgate-3"],
        canonical: &["special voidgate(3)"],
    },
    Row {
        what: "the Lysander's Special column, `Atmospheric, Full Cloak, Launch, Open, Rare`",
        printed: &["special Atmospheric, Full Cloak, Launch, Open, Rare", "launch Dropships 1"],
        canonical: &["special atmospheric full-cloak launch open rare", "launch dropships 1"],
    },
    Row { what: "`Aegis (5)`", printed: &["special Aegis (5)"], canonical: &["special aegis(5)"] },
    Row {
        what: "the curly inch mark, `6”`",
        printed: &["scan 6”", "sig 0”", "thrust 12”"],
        canonical: &[r#"scan 6""#, r#"sig 0""#, r#"thrust 12""#],
    },
    Row {
        what: "the short side arcs of fleet lists, `F/S(L)/R`, kept as written",
        printed: &[
            r#"weapon "W" lock 3+ attack 2 damage 1 arc F/S(L)/R"#,
            r#"weapon "V" lock 3+ attack 2 damage 1 arc S(R)"#,
        ],
        canonical: &[
            r#"weapon "W" lock 3+ attack 2 damage 1 arc F/S(L)/R"#,
            r#"weapon "V" lock 3+ attack 2 damage 1 arc S(R)"#,
        ],
    },
    Row {
        what: "Link by the name the rulebook's text uses, `Linked-1` and `Linked (1)`",
        printed: &[
            r#"weapon "A" lock 3+ attack 2 damage 1 arc F special Linked-1"#,
            r#"weapon "B" lock 3+ attack 2 damage 1 arc F special Linked (1)"#,
        ],
        canonical: &[
            r#"weapon "A" lock 3+ attack 2 damage 1 arc F special link(1)"#,
            r#"weapon "B" lock 3+ attack 2 damage 1 arc F special link(1)"#,
        ],
    },
    Row {
        what: "a two-word Load, `Bulk Landers 1 -` (L1484)",
        printed: &["special Atmospheric, Launch", "launch Bulk Landers 1 -"],
        canonical: &["special atmospheric launch", "launch bulk-landers 1 -"],
    },
    Row {
        what: "several Loads in a row, one of two words, `Bombers & Fire Ships` and `Dropships/Bulk Landers`",
        printed: &[
            "special Atmospheric, Launch",
            "launch Bombers & Fire Ships 2 -",
            "launch Dropships/Bulk Landers 1 -",
        ],
        canonical: &[
            "special atmospheric launch",
            "launch bombers/fire-ships 2 -",
            "launch dropships/bulk-landers 1 -",
        ],
    },
    Row {
        what: "a launch row, `Fighters & Bombers 6`",
        printed: &["special Launch", "launch Torpedoes 1", "launch Fighters & Bombers 6"],
        canonical: &["special launch", "launch torpedoes 1", "launch fighters/bombers 6"],
    },
];

/// The canonical spellings, which `fmt` leaves as they are.
const CANONICAL: &[&str] = &[
    r#"special atmospheric full-cloak launch open rare aegis(5)"#,
    r#"weapon "A" lock 3+ attack 2 damage 1 arc F/S(Right) special burnthrough(4) flash alt(1) close-action-beam"#,
    r#"weapon "B" lock 3+ attack 2 damage 1 arc F(N) special alt(1) squadron(2) calibre(L/H) escape-velocity"#,
    "launch fighters/bombers 6",
];

/// A ship of the UCM with the Lysander's stat line, `lines` replacing the
/// lines of the same names.
fn ship(lines: &[&str]) -> String {
    let base = ["scan 6\"", "sig 0\"", "thrust 12\"", "hull 2", "armour 6+", "pd 2", "group 1-3", "tonnage L"];
    let given = |line: &str| line.split_whitespace().next().unwrap_or_default().to_string();
    let replaced: Vec<String> = lines.iter().map(|l| given(l)).collect();
    let mut card = String::from(
        "game dropfleet-1.3\n\nship \"UCM Test\" {\n  class \"Test\"\n  role \"Test\"\n  faction ucm\n  points 15\n",
    );
    for line in base.iter().filter(|l| !replaced.contains(&given(l))) {
        card.push_str(&format!("  {line}\n"));
    }
    for line in lines {
        card.push_str(&format!("  {line}\n"));
    }
    card.push_str("}\n");
    card
}

/// Runs `cardsmith ARGS .` in `dir`; gives whether it succeeded and what it said.
fn run(args: &[&str], dir: &Path) -> (bool, String) {
    let output = cardsmith(&[args, &["."]].concat(), dir);
    (output.status.success(), format!("{}{}", String::from_utf8_lossy(&output.stdout), stderr(&output)))
}

/// `check` passes with no diagnostic at all.
fn assert_clean(dir: &Path, what: &str) {
    let (ok, said) = run(&["check"], dir);
    assert!(ok && said.contains("0 errors, 0 warnings"), "{what}: check is not clean:\n{said}");
}

/// The card checks clean as written, `fmt` writes `canonical`, which checks
/// clean, and `fmt` then changes nothing.
fn assert_accepted(what: &str, written: &str, canonical: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("notation.cards");
    std::fs::write(&file, written).expect("write");
    assert_clean(dir.path(), what);
    let (ok, said) = run(&["fmt"], dir.path());
    assert!(ok, "{what}: fmt failed:\n{said}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), canonical, "{what}: fmt");
    assert_clean(dir.path(), what);
    let (ok, said) = run(&["fmt", "--check"], dir.path());
    assert!(ok, "{what}: fmt is not idempotent:\n{said}");
}

#[test]
fn every_printed_spelling_checks_clean_and_formats_to_the_canonical_one() {
    for row in ROWS {
        assert_accepted(row.what, &ship(row.printed), &ship(row.canonical));
    }
}

/// A Dropship's two Thrust values as printed, `3”/6”` or `3"/6"`: two
/// distances, which `fmt` writes `3" 6"`.
#[test]
fn a_dropships_thrust_as_printed_is_two_distances() {
    let asset = |thrust: &str| {
        format!(
            "game dropfleet-1.3\n\nasset \"UCM Dropship\" {{\n  load dropships\n  faction ucm\n  thrust {thrust}\n}}\n"
        )
    };
    for printed in ["3”/6”", "3\"/6\"", "3\"/6\"/9\""] {
        let canonical = printed.replace('”', "\"").replace('/', " ");
        assert_accepted(&format!("Thrust `{printed}`"), &asset(printed), &asset(&canonical));
    }
}

/// Rows of other sheets as printed: the Space Station table's `-` columns
/// (L1923-1925), a Dropship's `-` PD Bonus (L1252-1254), and Dreadnaught's
/// arc and effect symbol by their printed names (`Narrow (Long+)`,
/// `Unstoppable (Damage)`).
#[test]
fn other_sheets_check_clean_as_printed() {
    let station = |dashes: &str| {
        format!(
            "game dropfleet-1.3\n\nstation \"Small Space Station\" {{\n  size small\n  scan 6\"\n  sig 4\"\n  \
             thrust 0\"\n  hull 8\n  armour 3+\n  pd 5\n{dashes}}}\n"
        )
    };
    let dashes = "  group -\n  tonnage -\n  special -\n";
    assert_accepted("the Space Station's `-` columns", &station(dashes), &station(dashes));
    let dropship = "game dropfleet-1.3\n\nasset \"UCM Dropship\" {\n  load dropships\n  faction ucm\n  thrust 3\"\n  \
                    pd-bonus -\n}\n";
    assert_accepted("a Dropship's `-` PD Bonus", dropship, dropship);
    let offense = |arc: &str, keywords: &str| {
        format!(
            "game dreadnaught-2e\n\noffense \"Spinal Railcannon\" {{\n  symbol kinetic\n  arc {arc}\n  at 2.4 {{\n    \
             impact damage 8\n  }}\n  keywords {keywords}\n  text \"Deal 8 {{damage}}.\"\n}}\n"
        )
    };
    let terrain = |chevron: &str| {
        format!(
            "game dreadnaught-1e\n\nterrain \"Drift\" {{\n  symbol kinetic\n  place 2\n  hexes 1\n  hp 4\n  speed 2\n  \
             moves-at 4\n  chevron {chevron}\n}}\n"
        )
    };
    assert_accepted("a value of several words, `Forward Right`", &terrain("Forward Right"), &terrain("forward-right"));
    let deck_guide =
        "game dreadnaught-1e\n\nsystem \"Beam Array Control\" {\n  symbol beams\n  hp +1\n  resources +2\n  \
                      move 1 3 2\n  deck-keyword charge-tokens \"Charge Tokens\" \"Spend them for Damage.\"\n  \
                      reverse {\n    deploy \"Anywhere.\"\n  }\n}\n\n\
                      offense \"Graser\" {\n  symbol {symbol}\n  arc narrow\n  at 2.4 {\n    impact damage 2\n    \
                      when range {band} { impact damage +1 }\n  }\n  keywords {keywords}\n}\n";
    let graser = |symbol: &str, band: &str, keywords: &str| {
        deck_guide.replace("{symbol}", symbol).replace("{band}", band).replace("{keywords}", keywords)
    };
    assert_accepted(
        "a deck symbol, a range band and a System Card's keyword by their printed names",
        &graser("Beams", "Far..", "Charge Tokens"),
        &graser("beams", "Far..", "charge-tokens"),
    );
    let symbol = |symbol: &str| graser(symbol, "far", "defensive").replace("  keywords defensive\n", "");
    assert_accepted("a deck symbol of two words, `Close Action`", &symbol("Close Action"), &symbol("close-action"));
    assert_accepted(
        "a deck symbol with `&`, `Missiles & Torpedoes`",
        &symbol("Missiles & Torpedoes"),
        &symbol("missiles"),
    );
    assert_accepted(
        "`Narrow (Long+)` and `Unstoppable (Damage)`",
        &offense("Narrow (Long+)", "Unstoppable (Damage)"),
        &offense("narrow-long", "unstoppable(damage)"),
    );
}

/// A Space Station given a Group or a Tonnage is refused with the reason.
#[test]
fn a_space_station_takes_only_dashes_in_its_group_and_tonnage() {
    let dir = tempfile::tempdir().expect("temp dir");
    let card = "game dropfleet-1.3\n\nstation \"S\" {\n  size small\n  scan 6\"\n  sig 4\"\n  thrust 0\"\n  hull 8\n  \
                armour 3+\n  pd 5\n  group 1-2\n}\n";
    std::fs::write(dir.path().join("s.cards"), card).expect("write");
    let (ok, said) = run(&["check"], dir.path());
    assert!(!ok && said.contains("a Space Station forms no group: its Group is printed `-`"), "{said}");
}

/// A Dreadnought TCG unit whose ability has the timing tag `timing`, as the
/// game reference prints it (`[Ac]`) or as it is written (`ac`).
fn unit(timing: &str) -> String {
    let requirement = if timing.eq_ignore_ascii_case("[trigger]") || timing == "trigger" {
        "    requirement \"When one of your ember units breaks.\"\n"
    } else {
        ""
    };
    format!(
        "game dreadnought-tcg\n\nunit \"Kiln Drake\" {{\n  log-cost 3\n  bp 150\n  size 2\n  speed B\n  condition ember ember\n  \
         ability {timing} {{\n{requirement}    damage 50\n    text \"[Ac] Deal 50 ability damage to a unit.\"\n  }}\n}}\n"
    )
}

#[test]
fn every_timing_tag_checks_clean_as_printed_and_formats_to_its_name() {
    for tag in ["Ac", "Re", "Speed", "Fast", "Cast", "Auto", "Trigger"] {
        let printed = format!("[{tag}]");
        assert_accepted(&printed, &unit(&printed), &unit(&tag.to_lowercase()));
    }
    let canonical = unit("ac");
    assert_accepted("the timing `ac`", &canonical, &canonical);
}

#[test]
fn the_canonical_spellings_still_check_clean_and_fmt_keeps_them() {
    let card = ship(CANONICAL);
    assert_accepted("the canonical spellings", &card, &card);
}

#[test]
fn a_near_miss_is_still_reported_with_what_was_meant() {
    let rows: &[(&str, &str, &str)] = &[
        (
            r#"weapon "W" lock 3+ attack 2 damage 1 arc F special Burntrough (4)"#,
            "unknown keyword `Burntrough`",
            "did you mean `burnthrough`?",
        ),
        (
            r#"weapon "W" lock 3+ attack 2 damage 1 arc F special Flahs"#,
            "unknown keyword `Flahs`",
            "did you mean `flash`?",
        ),
        (
            r#"weapon "W" lock 3+ attack 2 damage 1 arc F/S (Rigth)"#,
            "unknown `arc-token` value `S(Rigth)`",
            "did you mean `S(Right)`?",
        ),
        ("launch Fighters & Bomberz 6", "unknown `load` value `Bomberz`", "did you mean `bombers`?"),
        (
            r#"weapon "W" lock 3+ attack 2 damage 1 arc F special Escape Velosity"#,
            "unknown keyword `Escape Velosity`",
            "did you mean `escape-velocity`?",
        ),
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("notation.cards"), unit("[Acc]")).expect("write");
    let (ok, said) = run(&["check"], dir.path());
    assert!(!ok && said.contains("unknown `timing` value `Acc`") && said.contains("did you mean `ac`?"), "{said}");
    for (line, message, help) in rows {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("notation.cards"), ship(&["special launch", line])).expect("write");
        let (ok, said) = run(&["check"], dir.path());
        assert!(!ok && said.contains(message) && said.contains(help), "{line}:\n{said}");
    }
}
