//! The HTML preview: one self-contained page with every face inline as SVG
//! and the bundled fonts embedded, so it works offline and shows exactly
//! what the PNGs and the PDF show.  Each card carries its diagnostics, a
//! badge and a list under it.  A search box (names and card text), filters
//! by game, deck, kind and field value, and a toggle for the cards with
//! problems (plain inline script, nothing loaded) narrow the cards shown,
//! and a line counts them.

use super::fonts::{self, Style};
use super::svg::escape;
use base64::Engine;
use std::collections::BTreeSet;

/// One card in the preview.
pub struct Entry<'a> {
    pub name: &'a str,
    pub game: &'a str,
    pub kind: &'a str,
    /// The decks that list the card.
    pub decks: &'a [String],
    /// Each field with a value and its values as printed.
    pub fields: &'a [(String, String)],
    /// The diagnostics that point into the card.
    pub problems: &'a [Problem],
    pub front: &'a str,
    /// A back shown beside the front when it is not the shared back.
    pub back: Option<&'a str>,
    /// The trimmed card's width and height in millimetres: cards of
    /// different sizes show at their own.
    pub size_mm: (f32, f32),
}

/// A diagnostic as a card in the preview shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub error: bool,
    pub code: String,
    pub message: String,
    /// The line it points at, from 1.
    pub line: usize,
}

impl Problem {
    fn severity(&self) -> &'static str {
        if self.error {
            "error"
        } else {
            "warning"
        }
    }
}

const STYLE: &str = "body { margin: 0; padding: 16px; background: #e9eaec; color: #1b1b1b; }\n\
h1 { font-size: 20px; margin: 0 0 12px; }\n\
.cards { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start; }\n\
figure { margin: 0; display: flex; flex-direction: column; align-items: center; gap: 4px; }\n\
.faces { display: flex; gap: 6px; }\n\
.faces svg { width: var(--w); height: var(--h); box-shadow: 0 1px 4px rgba(0,0,0,.35); border-radius: 3mm; background: #fff; }\n\
.card.warning .faces svg { outline: 3px dashed #b05a00; outline-offset: 2px; }\n\
.card.error .faces svg { outline: 4px double #c01818; outline-offset: 2px; }\n\
figcaption { font-size: 12px; max-width: var(--w); text-align: center; }\n\
figure[hidden] { display: none; }\n\
.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 0 0 14px; font-size: 14px; }\n\
.filters label { display: inline-flex; gap: 4px; align-items: center; }\n\
#shown { font-weight: bold; }\n\
.badge { display: inline-block; margin-left: 4px; padding: 0 6px; border-radius: 8px; font-weight: bold; color: #fff; }\n\
.badge.warning { background: #b05a00; }\n\
.badge.error { background: #c01818; }\n\
.problems { list-style: none; margin: 0; padding: 4px 6px; max-width: var(--w); font-size: 11px; background: #fff; border-radius: 4px; }\n\
.problems li { margin: 2px 0; }\n\
.problems .warning strong { color: #8a4600; }\n\
.problems .error strong { color: #a01010; }\n\
.mark { display: inline-block; width: 1.3em; text-align: center; font-weight: bold; }\n";

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
    out.push_str(&format!("body {{ font-family: \"{}\", sans-serif; }}\n", fonts::FAMILY));
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n");
    out.push_str(&format!("<h1>{}</h1>\n", escape(title)));
    filters(&mut out, entries);
    out.push_str("<div class=\"cards\">\n");
    for entry in entries {
        card(&mut out, entry);
    }
    out.push_str("</div>\n");
    out.push_str(SCRIPT);
    out.push_str("</body>\n</html>\n");
    out
}

/// One card: its faces, its name with a badge counting its problems, and
/// the list of them.  What the filters read is in its `data-` attributes.
fn card(out: &mut String, entry: &Entry) {
    let decks = serde_json::to_string(entry.decks).unwrap_or_else(|_| "[]".into());
    let fields: Vec<(&str, &str)> = entry.fields.iter().map(|(name, value)| (name.as_str(), cut(value))).collect();
    let fields = serde_json::to_string(&fields).unwrap_or_else(|_| "[]".into());
    let errors = entry.problems.iter().filter(|p| p.error).count();
    let warnings = entry.problems.len() - errors;
    let worst = if errors > 0 {
        " error"
    } else if warnings > 0 {
        " warning"
    } else {
        ""
    };
    out.push_str(&format!(
        "<figure class=\"card{worst}\" style=\"--w: {}mm; --h: {}mm\" data-game=\"{}\" data-name=\"{}\" \
         data-kind=\"{}\" data-decks=\"{}\" data-fields=\"{}\" data-errors=\"{errors}\" data-warnings=\"{warnings}\">\n\
         <div class=\"faces\">\n",
        entry.size_mm.0,
        entry.size_mm.1,
        escape(entry.game),
        escape(entry.name),
        escape(entry.kind),
        escape(&decks),
        escape(&fields)
    ));
    out.push_str(strip_prolog(entry.front));
    if let Some(back) = entry.back {
        out.push('\n');
        out.push_str(strip_prolog(back));
    }
    out.push_str(&format!("\n</div>\n<figcaption>{}", escape(entry.name)));
    for (n, severity, mark) in [(errors, "error", "\u{d7}"), (warnings, "warning", "!")] {
        if n > 0 {
            let plural = if n == 1 { "" } else { "s" };
            out.push_str(&format!(
                " <span class=\"badge {severity}\" title=\"{n} {severity}{plural}\">\
                 <span class=\"mark\" aria-hidden=\"true\">{mark}</span>{n} {severity}{plural}</span>"
            ));
        }
    }
    out.push_str("</figcaption>\n");
    if !entry.problems.is_empty() {
        out.push_str("<ul class=\"problems\">\n");
        for problem in entry.problems {
            let mark = if problem.error { "\u{d7}" } else { "!" };
            out.push_str(&format!(
                "<li class=\"{0}\"><span class=\"mark\" aria-hidden=\"true\">{mark}</span><strong>{0} {1}</strong> \
                 line {2}: {3}</li>\n",
                problem.severity(),
                escape(&problem.code),
                problem.line,
                escape(&problem.message)
            ));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</figure>\n");
}

/// Shows the cards that match the search box (in their names and the text
/// on their faces, ignoring case), every menu, the field value (in the
/// field chosen, else in any field) and the problems toggle, and counts
/// them.
const SCRIPT: &str = "<script>\n(function () {\n\
const field = id => document.getElementById(id);\n\
const search = field('search'), game = field('game'), deck = field('deck'), kind = field('kind');\n\
const name = field('field'), value = field('value'), problems = field('problems');\n\
const parse = text => { try { return JSON.parse(text || '[]'); } catch (e) { return []; } };\n\
const cards = Array.from(document.querySelectorAll('figure.card')).map(card => {\n\
  const faces = card.querySelector('.faces');\n\
  const texts = faces ? Array.from(faces.querySelectorAll('text'), t => t.textContent) : [];\n\
  const words = [card.dataset.name].concat(texts).join(' ').replace(/\\s+/g, ' ').toLowerCase();\n\
  return { card, words, decks: parse(card.dataset.decks), fields: parse(card.dataset.fields),\n\
    errors: Number(card.dataset.errors) || 0, warnings: Number(card.dataset.warnings) || 0 };\n\
});\n\
const anyErrors = cards.some(c => c.errors > 0);\n\
function apply() {\n\
  const text = search.value.trim().toLowerCase(), wanted = value.value.trim().toLowerCase();\n\
  let shown = 0, warned = 0, failed = 0;\n\
  for (const c of cards) {\n\
    const d = c.card.dataset;\n\
    const match = (!text || c.words.includes(text))\n\
      && (!game.value || d.game === game.value)\n\
      && (!deck.value || c.decks.includes(deck.value))\n\
      && (!kind.value || d.kind === kind.value)\n\
      && ((!name.value && !wanted)\n\
        || c.fields.some(f => (!name.value || f[0] === name.value) && String(f[1]).toLowerCase().includes(wanted)))\n\
      && (!problems.checked || c.errors + c.warnings > 0);\n\
    c.card.hidden = !match;\n\
    if (match) { shown++; if (c.warnings) warned++; if (c.errors) failed++; }\n\
  }\n\
  let line = 'showing ' + shown + ' of ' + cards.length + ' cards; ' + warned + ' with warnings';\n\
  if (anyErrors) line += '; ' + failed + ' with errors';\n\
  field('shown').textContent = line;\n\
}\n\
for (const input of [search, game, deck, kind, name, value, problems]) {\n\
  input.addEventListener('input', apply);\n\
  input.addEventListener('change', apply);\n\
}\n\
apply();\n\
})();\n</script>\n";

/// The search box; a menu each of games, decks, kinds and field names,
/// listing what the cards have; the field value; the problems toggle; and
/// the count.
fn filters(out: &mut String, entries: &[Entry]) {
    out.push_str(
        "<div class=\"filters\" role=\"search\">\n<input type=\"search\" id=\"search\" \
         placeholder=\"Search names and text\" aria-label=\"Search names and text\">\n",
    );
    let games: BTreeSet<&str> = entries.iter().map(|e| e.game).collect();
    let decks: BTreeSet<&str> = entries.iter().flat_map(|e| e.decks.iter().map(String::as_str)).collect();
    let kinds: BTreeSet<&str> = entries.iter().map(|e| e.kind).collect();
    let fields: BTreeSet<&str> = entries.iter().flat_map(|e| e.fields.iter().map(|(n, _)| n.as_str())).collect();
    for (id, all, values) in [
        ("game", "every game", games),
        ("deck", "every deck", decks),
        ("kind", "every kind", kinds),
        ("field", "any field", fields),
    ] {
        out.push_str(&format!("<select id=\"{id}\" aria-label=\"{id}\">\n<option value=\"\">{all}</option>\n"));
        for value in values {
            // The value given as written: an option's text is trimmed.
            let value = escape(value);
            out.push_str(&format!("<option value=\"{value}\">{value}</option>\n"));
        }
        out.push_str("</select>\n");
    }
    out.push_str(
        "<input type=\"search\" id=\"value\" placeholder=\"Field value\" aria-label=\"Field value\">\n\
         <label><input type=\"checkbox\" id=\"problems\"> with problems only</label>\n\
         <span id=\"shown\" aria-live=\"polite\"></span>\n</div>\n",
    );
}

/// The most characters of a field's value that the field filter reads: a
/// long rules text is found by the search box, from the face.
const MOST_FIELD_CHARS: usize = 80;

/// The start of a field's value, for the field filter.
fn cut(value: &str) -> &str {
    value.char_indices().nth(MOST_FIELD_CHARS).map_or(value, |(end, _)| &value[..end])
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
            fields: &[],
            problems: &[],
            front: svg,
            back: None,
            size_mm: (70.0, 120.0),
        }];
        let html = page("Cards & <more>", &entries, &[]);
        assert!(html.contains("style=\"--w: 70mm; --h: 120mm\""), "{html}");
        assert!(!html.contains("<script>alert"));
        assert!(!html.contains("<b>"));
        assert!(html.contains("data-decks=\"[&quot;&lt;b&gt;Deck&lt;/b&gt;&quot;]\""), "{html}");
        assert!(html.contains("<option value=\"&lt;b&gt;Deck&lt;/b&gt;\">&lt;b&gt;Deck&lt;/b&gt;</option>"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("Cards &amp; &lt;more&gt;"));
        assert!(!html.contains("<?xml"));
        assert_eq!(html.matches("@font-face").count(), 3);
    }

    #[test]
    fn problems_show_on_their_card_with_a_mark_and_escaped() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>x</text></svg>";
        let problem =
            |error: bool, message: &str| Problem { error, code: "E1<".into(), message: message.into(), line: 7 };
        let problems = [problem(true, "bad <b>"), problem(false, "meh"), problem(false, "meh & more")];
        let fields = [("cost".to_string(), "x".repeat(200))];
        let entries = [Entry {
            name: "A",
            game: "g",
            kind: "k",
            decks: &[],
            fields: &fields,
            problems: &problems,
            front: svg,
            back: None,
            size_mm: (63.5, 88.9),
        }];
        let html = page("t", &entries, &[]);
        assert!(html.contains("<figure class=\"card error\""), "the worst of them marks the card");
        assert!(html.contains("data-errors=\"1\" data-warnings=\"2\""));
        assert!(
            html.contains("title=\"1 error\"><span class=\"mark\" aria-hidden=\"true\">\u{d7}</span>1 error</span>")
        );
        assert!(
            html.contains("title=\"2 warnings\"><span class=\"mark\" aria-hidden=\"true\">!</span>2 warnings</span>")
        );
        assert!(html.contains("<strong>error E1&lt;</strong> line 7: bad &lt;b&gt;</li>"), "{html}");
        assert!(html.contains("<strong>warning E1&lt;</strong> line 7: meh &amp; more</li>"));
        // A long value is cut for the field filter.
        let cut = format!("[[&quot;cost&quot;,&quot;{}&quot;]]", "x".repeat(MOST_FIELD_CHARS));
        assert!(html.contains(&format!("data-fields=\"{cut}\"")));
        assert_eq!(super::cut("é".repeat(100).as_str()).chars().count(), MOST_FIELD_CHARS);
    }
}
