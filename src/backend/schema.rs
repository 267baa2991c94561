//! The JSON Schema of the engine data, generated from the very types that
//! [`super::json`] serialises, so the schema and the documents cannot drift.

use super::json::Document;

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
