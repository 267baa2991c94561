//! The HTML preview: one self-contained page with every face inline as SVG
//! and the bundled fonts embedded, so it works offline and shows exactly
//! what the PNGs and the PDF show.  A search box and filters by kind, deck
//! and game (plain inline script, nothing loaded) narrow the cards shown.

use super::fonts::{self, Style};
use super::svg::escape;
use base64::Engine;

/// One card in the preview.
pub struct Entry<'a> {
    pub name: &'a str,
    pub game: &'a str,
    pub kind: &'a str,
    /// The decks that list the card.
    pub decks: &'a [String],
    pub front: &'a str,
    /// A back shown beside the front when it is not the shared back.
    pub back: Option<&'a str>,
    /// The trimmed card's width and height in millimetres: cards of
    /// different sizes show at their own.
    pub size_mm: (f32, f32),
}

pub fn page(title: &str, entries: &[Entry], extra: &[fonts::ProjectFont]) -> String {
    let mut out = String::with_capacity(4_000_000);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(&format!("<title>{}</title>\n<style>\n", escape(title)));
    for (style, weight, slant) in
        [(Style::Regular, "normal", "normal"), (Style::Bold, "bold", "normal"), (Style::Italic, "normal", "italic")]
    {
        let data = base64::engine::general_purpose::STANDARD.encode(style.data());
        out.push_str(&format!(
            "@font-face {{ font-family: \"{}\"; font-weight: {weight}; font-style: {slant}; \
             src: url(data:font/ttf;base64,{data}) format(\"truetype\"); }}\n",
            fonts::FAMILY
        ));
    }
    for font in extra {
        let data = base64::engine::general_purpose::STANDARD.encode(font.data.as_slice());
        out.push_str(&format!(
            "@font-face {{ font-family: \"{}\"; src: url(data:font/ttf;base64,{data}); }}\n",
            css_name(&font.family)
        ));
    }
    out.push_str(&format!(
        "body {{ margin: 0; padding: 16px; background: #e9eaec; font-family: \"{}\", sans-serif; color: #1b1b1b; }}\n\
         h1 {{ font-size: 20px; margin: 0 0 12px; }}\n\
         .cards {{ display: flex; flex-wrap: wrap; gap: 14px; }}\n\
         figure {{ margin: 0; display: flex; flex-direction: column; align-items: center; gap: 4px; }}\n\
         .faces {{ display: flex; gap: 6px; }}\n\
         .faces svg {{ width: var(--w); height: var(--h); box-shadow: 0 1px 4px rgba(0,0,0,.35); border-radius: 3mm; background: #fff; }}\n\
         figcaption {{ font-size: 12px; max-width: var(--w); text-align: center; }}\n\
         figure[hidden] {{ display: none; }}\n\
         .filters {{ display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 0 0 14px; font-size: 14px; }}\n\
         </style>\n</head>\n<body>\n",
        fonts::FAMILY
    ));
    out.push_str(&format!("<h1>{}</h1>\n", escape(title)));
    filters(&mut out, entries);
    out.push_str("<div class=\"cards\">\n");
    for entry in entries {
        let decks = serde_json::to_string(entry.decks).unwrap_or_else(|_| "[]".into());
        out.push_str(&format!(
            "<figure class=\"card\" style=\"--w: {}mm; --h: {}mm\" data-game=\"{}\" data-name=\"{}\" \
             data-kind=\"{}\" data-decks=\"{}\">\n<div class=\"faces\">\n",
            entry.size_mm.0,
            entry.size_mm.1,
            escape(entry.game),
            escape(entry.name),
            escape(entry.kind),
            escape(&decks)
        ));
        out.push_str(strip_prolog(entry.front));
        if let Some(back) = entry.back {
            out.push('\n');
            out.push_str(strip_prolog(back));
        }
        out.push_str(&format!("\n</div>\n<figcaption>{}</figcaption>\n</figure>\n", escape(entry.name)));
    }
    out.push_str("</div>\n");
    out.push_str(SCRIPT);
    out.push_str("</body>\n</html>\n");
    out
}

/// Shows the cards that match the search box (in their names, ignoring
/// case) and every filter, and how many that is.
const SCRIPT: &str = "<script>\n(function () {\n\
const field = id => document.getElementById(id);\n\
const search = field('search'), kind = field('kind'), deck = field('deck'), game = field('game');\n\
const cards = Array.from(document.querySelectorAll('figure.card'));\n\
function apply() {\n\
  const text = search.value.trim().toLowerCase();\n\
  let shown = 0;\n\
  for (const card of cards) {\n\
    const match = (!text || card.dataset.name.toLowerCase().includes(text))\n\
      && (!kind.value || card.dataset.kind === kind.value)\n\
      && (!deck.value || JSON.parse(card.dataset.decks).includes(deck.value))\n\
      && (!game.value || card.dataset.game === game.value);\n\
    card.hidden = !match;\n\
    if (match) shown++;\n\
  }\n\
  field('shown').textContent = shown + ' of ' + cards.length + ' cards';\n\
}\n\
for (const input of [search, kind, deck, game]) input.addEventListener('input', apply);\n\
apply();\n\
})();\n</script>\n";

/// The search box and a menu each of kinds, decks and games, listing what
/// the cards have.
fn filters(out: &mut String, entries: &[Entry]) {
    out.push_str("<div class=\"filters\">\n<input type=\"search\" id=\"search\" placeholder=\"Search names\" aria-label=\"Search names\">\n");
    let kinds: std::collections::BTreeSet<&str> = entries.iter().map(|e| e.kind).collect();
    let decks: std::collections::BTreeSet<&str> =
        entries.iter().flat_map(|e| e.decks.iter().map(String::as_str)).collect();
    let games: std::collections::BTreeSet<&str> = entries.iter().map(|e| e.game).collect();
    for (id, all, values) in
        [("kind", "every kind", kinds), ("deck", "every deck", decks), ("game", "every game", games)]
    {
        out.push_str(&format!("<select id=\"{id}\" aria-label=\"{id}\">\n<option value=\"\">{all}</option>\n"));
        for value in values {
            out.push_str(&format!("<option>{}</option>\n", escape(value)));
        }
        out.push_str("</select>\n");
    }
    out.push_str("<span id=\"shown\"></span>\n</div>\n");
}

/// A font family name safe inside a quoted CSS string in a `<style>`
/// element, where entities mean nothing: letters, digits, spaces, `-`
/// and `_` only.
fn css_name(name: &str) -> String {
    name.chars().filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_')).collect()
}

/// Drops an `<?xml …?>` line, which has no place inside HTML.
fn strip_prolog(svg: &str) -> &str {
    let trimmed = svg.trim_start();
    match trimmed.strip_prefix("<?xml").and_then(|rest| rest.find("?>").map(|end| &rest[end + 2..])) {
        Some(rest) => rest.trim_start(),
        None => trimmed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_and_fonts_embedded() {
        let svg = "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>";
        let decks = ["<b>Deck</b>".to_string()];
        let entries = [Entry {
            name: "<script>alert(1)</script>",
            game: "g",
            kind: "k\"",
            decks: &decks,
            front: svg,
            back: None,
            size_mm: (70.0, 120.0),
        }];
        let html = page("Cards & <more>", &entries, &[]);
        assert!(html.contains("style=\"--w: 70mm; --h: 120mm\""), "{html}");
        assert!(!html.contains("<script>alert"));
        assert!(!html.contains("<b>"));
        assert!(html.contains("data-decks=\"[&quot;&lt;b&gt;Deck&lt;/b&gt;&quot;]\""), "{html}");
        assert!(html.contains("<option>&lt;b&gt;Deck&lt;/b&gt;</option>"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("Cards &amp; &lt;more&gt;"));
        assert!(!html.contains("<?xml"));
        assert_eq!(html.matches("@font-face").count(), 3);
    }
}
