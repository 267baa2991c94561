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
        Icons { shapes }
    }

    pub fn has(&self, id: &str) -> bool {
        self.shapes.contains_key(id)
    }

    /// The ids of the icons drawn.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.shapes.keys().map(String::as_str)
    }
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
/// drawing gets a circle with its first two letters, so nothing silently
/// disappears and two such icons (`coin`, `card`) are still told apart.
pub fn draw(id: &str, x: f32, y: f32, size: f32, colour: &str) -> String {
    let shape = CURRENT.with(|c| c.borrow().shapes.get(id).cloned());
    let colour = escape(colour);
    let body = shape.unwrap_or_else(|| {
        let mut letters = id.chars().filter(|c| c.is_alphanumeric());
        let first: String = letters.next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
        let initials = format!("{first}{}", letters.next().map(|c| c.to_lowercase().collect::<String>()).unwrap_or_default());
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
}
