//! The colours a ruleset may name for a role's effects or a kind's border:
//! a small palette that prints on white, or any `#rgb` / `#rrggbb`, and the
//! luminance and contrast that tell how a colour prints (`contrast.rs`).

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

/// The colour the bundled and generic faces print a role's effects and a
/// kind's border against: the card's white body.
pub const FACE_BACKGROUND: &str = "#ffffff";

/// The relative luminance (as WCAG measures it, 0 for black to 1 for
/// white) of a colour as a ruleset writes it, a colour with alpha blended
/// onto white; `None` for what is not a colour.
pub fn luminance(name: &str) -> Option<f64> {
    let hex = hex(name)?;
    let digits: Vec<u8> = hex.trim_start_matches('#').bytes().collect();
    let channel = |i: usize| -> Option<f64> {
        let (hi, lo) = match digits.len() {
            3 | 4 => (digits.get(i)?, digits.get(i)?),
            _ => (digits.get(2 * i)?, digits.get(2 * i + 1)?),
        };
        let value = u8::from_str_radix(std::str::from_utf8(&[*hi, *lo]).ok()?, 16).ok()?;
        Some(f64::from(value) / 255.0)
    };
    let alpha = if matches!(digits.len(), 4 | 8) { channel(3)? } else { 1.0 };
    let linear = |i: usize| -> Option<f64> {
        let c = channel(i)? * alpha + (1.0 - alpha);
        Some(if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) })
    };
    Some(0.2126 * linear(0)? + 0.7152 * linear(1)? + 0.0722 * linear(2)?)
}

/// The contrast ratio of two luminances, from 1 (the same grey) to 21
/// (black on white).
pub fn contrast(a: f64, b: f64) -> f64 {
    (a.max(b) + 0.05) / (a.min(b) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luminance_and_contrast() {
        let white = luminance("white").unwrap();
        assert!((white - 1.0).abs() < 1e-9);
        assert!(luminance("#000").unwrap() < 1e-9);
        assert!((contrast(luminance("black").unwrap(), white) - 17.2).abs() < 0.1);
        assert!((luminance("#fff0").unwrap() - 1.0).abs() < 1e-9, "transparent is the paper");
        assert_eq!(luminance("banana"), None);
        assert!(contrast(luminance("red").unwrap(), luminance("blue").unwrap()) < 1.1);
    }
}
