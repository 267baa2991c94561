//! The HTML preview: one self-contained page with every face inline as SVG
//! and the bundled fonts embedded, so it works offline and shows exactly
//! what the PNGs and the PDF show.

use super::fonts::{self, Style};
use super::svg::escape;
use base64::Engine;

/// One card in the preview.
pub struct Entry<'a> {
    pub name: &'a str,
    pub game: &'a str,
    pub front: &'a str,
    /// A back shown beside the front when it is not the shared back.
    pub back: Option<&'a str>,
}

pub fn page(title: &str, entries: &[Entry], card_w_mm: f32, card_h_mm: f32) -> String {
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
    out.push_str(&format!(
        "body {{ margin: 0; padding: 16px; background: #e9eaec; font-family: \"{}\", sans-serif; color: #1b1b1b; }}\n\
         h1 {{ font-size: 20px; margin: 0 0 12px; }}\n\
         .cards {{ display: flex; flex-wrap: wrap; gap: 14px; }}\n\
         figure {{ margin: 0; display: flex; flex-direction: column; align-items: center; gap: 4px; }}\n\
         .faces {{ display: flex; gap: 6px; }}\n\
         .faces svg {{ width: {card_w_mm}mm; height: {card_h_mm}mm; box-shadow: 0 1px 4px rgba(0,0,0,.35); border-radius: 3mm; background: #fff; }}\n\
         figcaption {{ font-size: 12px; max-width: {card_w_mm}mm; text-align: center; }}\n\
         </style>\n</head>\n<body>\n",
        fonts::FAMILY
    ));
    out.push_str(&format!("<h1>{}</h1>\n<div class=\"cards\">\n", escape(title)));
    for entry in entries {
        out.push_str(&format!(
            "<figure class=\"card\" data-game=\"{}\" data-name=\"{}\">\n<div class=\"faces\">\n",
            escape(entry.game),
            escape(entry.name)
        ));
        out.push_str(strip_prolog(entry.front));
        if let Some(back) = entry.back {
            out.push('\n');
            out.push_str(strip_prolog(back));
        }
        out.push_str(&format!("\n</div>\n<figcaption>{}</figcaption>\n</figure>\n", escape(entry.name)));
    }
    out.push_str("</div>\n</body>\n</html>\n");
    out
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
        let entries = [Entry { name: "<script>alert(1)</script>", game: "g", front: svg, back: None }];
        let html = page("Cards & <more>", &entries, 63.5, 88.9);
        assert!(!html.contains("<script>"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("Cards &amp; &lt;more&gt;"));
        assert!(!html.contains("<?xml"));
        assert_eq!(html.matches("@font-face").count(), 3);
    }
}
