//! Small helpers for writing SVG by hand, and the usvg options every face is
//! parsed with.

use std::sync::Arc;

/// Escapes text for an XML text node or a quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// A coordinate with at most two decimals, so output is short and stable.
pub fn num(value: f32) -> String {
    if !value.is_finite() {
        return "0".into();
    }
    let rounded = (value * 100.0).round() / 100.0;
    let text = format!("{rounded:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.to_string()
    }
}

/// usvg options with the bundled fonts and nothing read from disk.
pub fn options() -> resvg::usvg::Options<'static> {
    options_with(super::fonts::database())
}

/// usvg options with the fonts of `fontdb` and nothing read from disk.
pub fn options_with(fontdb: Arc<resvg::usvg::fontdb::Database>) -> resvg::usvg::Options<'static> {
    let mut options = resvg::usvg::Options {
        font_family: super::fonts::FAMILY.to_string(),
        fontdb,
        ..resvg::usvg::Options::default()
    };
    // Faces never load external files or images (a card's art comes in
    // through `with_art`).
    options.resources_dir = None;
    options.image_href_resolver = resvg::usvg::ImageHrefResolver {
        resolve_data: resvg::usvg::ImageHrefResolver::default_data_resolver(),
        resolve_string: Box::new(|_, _| None),
    };
    options
}

/// `options` with the images of `art` drawn where a face names them.
pub fn with_art(mut options: resvg::usvg::Options<'static>, art: &super::art::Images) -> resvg::usvg::Options<'static> {
    let art = art.clone();
    options.image_href_resolver.resolve_string = Box::new(move |href, _| art.resolve(href));
    options
}

/// Parses a face's SVG.
pub fn parse(svg: &str, options: &resvg::usvg::Options) -> Result<Arc<resvg::usvg::Tree>, String> {
    resvg::usvg::Tree::from_str(svg, options).map(Arc::new).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(escape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
        assert_eq!(escape("a & \"b\" 'c'"), "a &amp; &quot;b&quot; &#39;c&#39;");
        assert_eq!(escape("bell\u{7}"), "bell");
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.256), "1.26");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(f32::NAN), "0");
        assert_eq!(num(12.5), "12.5");
    }
}
