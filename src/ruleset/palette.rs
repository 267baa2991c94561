//! The colours a ruleset may name for a role's effects or a kind's border:
//! a small palette that prints well on white and stays apart in greyscale,
//! or any `#rgb` / `#rrggbb`.

/// Each colour name, and how it prints.
pub const COLOURS: &[(&str, &str)] = &[
    ("black", "#1b1b1b"),
    ("white", "#ffffff"),
    ("grey", "#6b7075"),
    ("gray", "#6b7075"),
    ("red", "#c0262d"),
    ("red-orange", "#d9531e"),
    ("orange-red", "#d9531e"),
    ("orange", "#e8891d"),
    ("yellow", "#e0b31b"),
    ("gold", "#b8902a"),
    ("green", "#2f8a3b"),
    ("blue", "#1f5fae"),
    ("purple", "#6a3d9a"),
    ("brown", "#7a5230"),
    ("silver", "#9aa3ab"),
];

/// A colour as `#rrggbb` (or as written, when written in hex: `#rgb`,
/// `#rgba`, `#rrggbb`, `#rrggbbaa`); `None` for a name not in the palette.
pub fn hex(name: &str) -> Option<String> {
    if let Some(digits) = name.strip_prefix('#') {
        let hex = matches!(digits.len(), 3 | 4 | 6 | 8) && digits.chars().all(|c| c.is_ascii_hexdigit());
        return hex.then(|| name.to_string());
    }
    COLOURS.iter().find(|(known, _)| *known == name).map(|(_, hex)| hex.to_string())
}

/// The names of the palette.
pub fn names() -> impl Iterator<Item = &'static str> {
    COLOURS.iter().map(|(name, _)| *name)
}
