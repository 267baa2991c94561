//! The JSON Schema of the engine data, generated from the very types that
//! [`super::json`] serialises ([`super::document`]), so the schema and the
//! documents cannot drift.

use super::document::Document;

/// The schema (draft 2020-12) of one engine data document, pretty-printed
/// with a final newline.
pub fn text() -> String {
    let generator = schemars::generate::SchemaSettings::draft2020_12().for_serialize().into_generator();
    let schema = generator.into_root_schema_for::<Document<'static>>();
    // A schema is a JSON object with string keys: printing it cannot fail.
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spans, fixed-point decimals and resolved ids are the IR's own: the
    /// engine data's schema still says a value, a decimal's text and an id.
    #[test]
    fn the_schema_knows_values_and_text_not_spans_or_handles() {
        let schema = text();
        for name in ["Spanned", "Decimal", "Resolved", "\"Id\""] {
            assert!(!schema.contains(name), "the schema names `{name}`");
        }
        assert!(schema.contains("\"$ref\": \"#/$defs/Value\""), "field values are values");
    }
}
