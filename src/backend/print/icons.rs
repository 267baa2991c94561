//! Icons: small drawings in a 100 × 100 box, one `<symbol id="…">` each in a
//! ruleset's `icons.svg` template.  They are copied into each face where they
//! are used (no `<use>` references, so a page holding many faces has no
//! duplicate ids).  Shapes paint with `currentColor`, so one icon takes the
//! colour of the text around it.

use super::svg::{escape, num};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The icons of one ruleset, by id.
#[derive(Clone, Debug, Default)]
pub struct Icons {
    shapes: BTreeMap<String, String>,
    /// The letters each undrawn icon of the game prints, told apart where
    /// the first two letters of two would be alike (see [`Icons::name_undrawn`]).
    letters: BTreeMap<String, String>,
}

/// Two undrawn icons whose first two letters are alike, and the letters
/// each prints instead (alike still when no two letters tell them apart).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alike {
    pub first: String,
    pub second: String,
    pub letters: String,
    pub printed: (String, String),
}

impl Icons {
    /// Reads every `<symbol id="ID">…</symbol>` of an `icons.svg` file.
    pub fn parse(text: &str) -> Icons {
        let mut shapes = BTreeMap::new();
        let mut rest = text;
        while let Some(start) = rest.find("<symbol") {
            rest = &rest[start..];
            let Some(open_end) = rest.find('>') else { break };
            let open = &rest[..open_end];
            let Some(close) = rest.find("</symbol>") else { break };
            if close > open_end {
                if let Some(id) = attribute(open, "id") {
                    shapes.insert(id.to_string(), rest[open_end + 1..close].trim().to_string());
                }
            }
            rest = &rest[close.max(open_end)..];
            rest = rest.strip_prefix("</symbol>").unwrap_or(&rest[1.min(rest.len())..]);
        }
        Icons { shapes, letters: BTreeMap::new() }
    }

    pub fn has(&self, id: &str) -> bool {
        self.shapes.contains_key(id)
    }

    /// The ids of the icons drawn.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.shapes.keys().map(String::as_str)
    }

    /// Gives each of `ids` that has no drawing the letters it prints in
    /// its circle: its first two letters (`coin` → `Co`), unless another
    /// undrawn id starts with the same two, when it takes its words'
    /// initials (`bank-left` → `BL`) or its first letter and a later one,
    /// whichever no other takes.  Returns the pairs whose first two
    /// letters are alike, for a warning.
    pub fn name_undrawn<'a>(&mut self, ids: impl IntoIterator<Item = &'a str>) -> Vec<Alike> {
        let mut undrawn: Vec<&str> = ids.into_iter().filter(|id| !self.has(id)).collect();
        undrawn.sort_unstable();
        undrawn.dedup();
        let plain: Vec<String> = undrawn.iter().map(|id| two_letters(id)).collect();
        let shared = |i: usize| plain.iter().enumerate().any(|(j, p)| j != i && *p == plain[i]);
        let mut taken: std::collections::HashSet<String> =
            (0..undrawn.len()).filter(|i| !shared(*i)).map(|i| plain[i].clone()).collect();
        for (i, id) in undrawn.iter().enumerate() {
            let letters = if shared(i) {
                let found = candidates(id).into_iter().find(|c| !taken.contains(c));
                found.unwrap_or_else(|| plain[i].clone())
            } else {
                plain[i].clone()
            };
            taken.insert(letters.clone());
            self.letters.insert((*id).to_string(), letters);
        }
        // Each id alike with one before it is paired with the first of
        // them: a warning each, however many share the letters.
        let mut alike = Vec::new();
        for (j, second) in undrawn.iter().enumerate() {
            let Some(i) = (0..j).find(|i| plain[*i] == plain[j]) else { continue };
            let first = undrawn[i];
            alike.push(Alike {
                first: first.to_string(),
                second: (*second).to_string(),
                letters: plain[i].clone(),
                printed: (self.letters[first].clone(), self.letters[*second].clone()),
            });
        }
        alike
    }
}

/// The first two letters or digits of an id, the first upper case: `Co`.
fn two_letters(id: &str) -> String {
    let mut letters = id.chars().filter(|c| c.is_alphanumeric());
    let first: String = letters.next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
    format!("{first}{}", letters.next().map(|c| c.to_lowercase().collect::<String>()).unwrap_or_default())
}

/// Other letters an undrawn id may print, best first: its words' first
/// and last initials (`bank-left` → `BL`), then its first letter with
/// each later one (`Bn`, `Bk` …).
fn candidates(id: &str) -> Vec<String> {
    let words: Vec<&str> = id.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let initial = |w: &str| w.chars().next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
    let mut found = Vec::new();
    if let [first, .., last] = words.as_slice() {
        found.push(format!("{}{}", initial(first), initial(last)));
        for middle in &words[1..words.len() - 1] {
            found.push(format!("{}{}", initial(first), initial(middle)));
        }
    }
    let letters: Vec<char> = id.chars().filter(|c| c.is_alphanumeric()).collect();
    if let Some((first, rest)) = letters.split_first() {
        let first: String = first.to_uppercase().collect();
        found.extend(rest.iter().map(|c| format!("{first}{}", c.to_lowercase())));
    }
    found
}

fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(&tag[start..end])
}

thread_local! {
    static CURRENT: RefCell<Arc<Icons>> = RefCell::new(Arc::new(Icons::default()));
}

/// Runs `f` with `icons` as the icons that [`draw`] uses on this thread.
pub fn with_icons<R>(icons: Arc<Icons>, f: impl FnOnce() -> R) -> R {
    let previous = CURRENT.with(|c| c.replace(icons));
    let result = f();
    CURRENT.with(|c| c.replace(previous));
    result
}

/// An icon drawn in the square at (`x`, `y`) of side `size`.  An id with no
/// drawing gets a circle with its first two letters (or the letters
/// [`Icons::name_undrawn`] gave it), so nothing silently disappears and two
/// such icons (`coin`, `card`) are still told apart.
pub fn draw(id: &str, x: f32, y: f32, size: f32, colour: &str) -> String {
    let (shape, letters) = CURRENT.with(|c| {
        let icons = c.borrow();
        (icons.shapes.get(id).cloned(), icons.letters.get(id).cloned())
    });
    let colour = escape(colour);
    let body = shape.unwrap_or_else(|| {
        let initials = letters.unwrap_or_else(|| two_letters(id));
        format!(
            "<circle cx=\"50\" cy=\"50\" r=\"46\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"8\"/>\
             <text x=\"50\" y=\"64\" font-size=\"40\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"currentColor\">{}</text>",
            escape(&initials)
        )
    });
    format!(
        "<g transform=\"translate({} {}) scale({})\" color=\"{colour}\" fill=\"{colour}\">{body}</g>",
        num(x),
        num(y),
        (size / 100.0 * 10000.0).round() / 10000.0
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_symbols_and_draws_them() {
        let icons = Icons::parse(
            "<svg><symbol id=\"damage\" viewBox=\"0 0 100 100\"><path d=\"M0 0h100\"/></symbol>\n\
             <symbol id=\"push\"><circle r=\"5\"/></symbol></svg>",
        );
        assert!(icons.has("damage") && icons.has("push") && !icons.has("burn"));
        let drawn = with_icons(Arc::new(icons), || draw("damage", 1.0, 2.0, 10.0, "#c00"));
        assert!(drawn.contains("<path d=\"M0 0h100\"/>") && drawn.contains("translate(1 2) scale(0.1)"), "{drawn}");
        let unknown = draw("<burn>", 0.0, 0.0, 10.0, "red\"");
        assert!(unknown.contains(">Bu</text>") && unknown.contains("red&quot;"), "{unknown}");
        let (coin, card) = (draw("coin", 0.0, 0.0, 10.0, "#000"), draw("card", 0.0, 0.0, 10.0, "#000"));
        assert!(coin.contains(">Co</text>") && card.contains(">Ca</text>"), "{coin} {card}");
    }

    #[test]
    fn undrawn_icons_alike_in_two_letters_print_letters_of_their_own() {
        let mut icons = Icons::parse("<symbol id=\"bank\"><path/></symbol>");
        let ids = ["bank-left", "bank-right", "trade", "trade-federation", "coin", "bank", "tr"];
        let alike = icons.name_undrawn(ids);
        let printed: Vec<String> =
            with_icons(Arc::new(icons), || ids.iter().map(|id| draw(id, 0.0, 0.0, 10.0, "#000")).collect());
        let letters: Vec<&str> =
            printed.iter().map(|p| p.split("\">").last().and_then(|t| t.split('<').next()).unwrap_or("")).collect();
        // A drawn icon (`bank`) keeps its drawing and takes no letters.
        assert_eq!(letters, ["BL", "BR", "Ta", "TF", "Co", "", "Tr"]);
        let pairs: Vec<(&str, &str)> = alike.iter().map(|a| (a.first.as_str(), a.second.as_str())).collect();
        // Each is paired with the first it is alike with: one warning each.
        assert_eq!(pairs, [("bank-left", "bank-right"), ("tr", "trade"), ("tr", "trade-federation")]);
        assert_eq!(alike[0].letters, "Ba");
        assert_eq!(alike[0].printed, ("BL".to_string(), "BR".to_string()));
    }
}
