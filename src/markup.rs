//! Escaping text for the markup cardsmith writes: SVG faces, the HTML
//! preview and the simulate report.

/// Escapes text for an XML or HTML text node or a quoted attribute;
/// control characters, which XML 1.0 does not allow, are dropped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_markup() {
        assert_eq!(escape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
        assert_eq!(escape("a & \"b\" 'c'"), "a &amp; &quot;b&quot; &#39;c&#39;");
        assert_eq!(escape("bell\u{7}"), "bell");
    }
}
