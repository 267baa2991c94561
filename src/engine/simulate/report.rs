//! A simulation's report as JSON: the settings, the whole [`Summary`] (so
//! that shards merge into exactly what one run would have written) and the
//! figures worked out from it.  Its JSON Schema is derived from these types
//! ([`schema`]); `docs/simulate.schema.json` holds it.

use super::figures::Figures;
use super::settings::{Settings, Shards};
use super::summary::Summary;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The version of the report's JSON, raised on any change a reader would
/// notice.
pub const FORMAT: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "cardsmith simulate report", description = "The report of `cardsmith simulate --format json`.")]
pub struct Report {
    #[schemars(extend("const" = FORMAT))]
    pub format: u32,
    pub settings: Settings,
    /// The totals the figures are worked out from; what a merge adds up.
    pub summary: Summary,
    pub figures: Figures,
}

/// The most cells (rounds × seats) the score curve of a report read back
/// or merged may have: far more than any game's rounds and seats, and
/// little memory, whatever a report read claims.
pub const MAX_CURVE_CELLS: u64 = 4_000_000;

/// Why reports do not merge.
#[derive(Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No report was given.
    Nothing,
    /// A report of another format version (its index, its version).
    Format(usize, u32),
    /// A report of another run: its index and the setting that differs.
    Settings(usize, &'static str),
    /// Merged, the score curve would have more than [`MAX_CURVE_CELLS`].
    TooLarge,
    /// A whole run given with another report, or a shard given twice:
    /// their games would count twice.
    Overlap(usize, String),
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::Nothing => write!(f, "no report to merge"),
            MergeError::TooLarge => {
                write!(f, "the merged score curve would have more than {MAX_CURVE_CELLS} rounds × seats")
            }
            MergeError::Format(i, v) => {
                write!(f, "report {} is of format {v}; this cardsmith reads format {FORMAT}", i + 1)
            }
            MergeError::Settings(i, what) => {
                write!(f, "report {} is not a shard of the same run as report 1: its {what} differs", i + 1)
            }
            MergeError::Overlap(i, what) => write!(f, "report {} {what}: its games would be counted twice", i + 1),
        }
    }
}

impl Report {
    pub fn new(settings: Settings, summary: Summary) -> Report {
        let figures = Figures::of(&summary, &settings.matrix);
        Report { format: FORMAT, settings, summary, figures }
    }

    /// Pretty JSON with a final newline: the same report, the same bytes.
    pub fn to_json(&self) -> String {
        // Plain structs of numbers and strings, with string keys: this
        // cannot fail (a NaN is never made: every figure divides by a
        // count it first checks).
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Reads a report; only the format, the settings and the summary are
    /// read back: the figures are worked out again from the summary.
    pub fn from_json(text: &str) -> Result<Report, String> {
        #[derive(Deserialize)]
        struct Version {
            format: u32,
        }
        #[derive(Deserialize)]
        struct Stored {
            settings: Settings,
            summary: Summary,
        }
        let version: Version = serde_json::from_str(text).map_err(|e| format!("not a simulate report: {e}"))?;
        if version.format != FORMAT {
            return Err(format!(
                "a simulate report of format {}; this cardsmith reads format {FORMAT}",
                version.format
            ));
        }
        let stored: Stored = serde_json::from_str(text).map_err(|e| format!("not a simulate report: {e}"))?;
        if stored.summary.curve_cells() > MAX_CURVE_CELLS {
            return Err(format!("its score curve has more than {MAX_CURVE_CELLS} rounds × seats"));
        }
        Ok(Report::new(stored.settings, stored.summary))
    }

    /// The report of all the games of `reports`, which must be disjoint
    /// shards of one run.  When they are all of its shards, the result is
    /// byte for byte the report of the whole run played at once.
    pub fn merge(reports: &[Report]) -> Result<Report, MergeError> {
        let Some(first) = reports.first() else { return Err(MergeError::Nothing) };
        let mut parts: Vec<u64> = Vec::new();
        let count = first.settings.shard.as_ref().map_or(1, |s| s.count);
        let rows = reports.iter().map(|r| r.summary.curve.len() as u64).max().unwrap_or(0);
        let seats = reports.iter().map(|r| r.summary.seats() as u64).max().unwrap_or(0);
        if rows.saturating_mul(seats) > MAX_CURVE_CELLS {
            return Err(MergeError::TooLarge);
        }
        let mut summary = Summary::default();
        for (i, report) in reports.iter().enumerate() {
            if report.format != FORMAT {
                return Err(MergeError::Format(i, report.format));
            }
            if let Some(what) = differing(&first.settings, &report.settings) {
                return Err(MergeError::Settings(i, what));
            }
            let mine = match &report.settings.shard {
                Some(shards) if shards.count == count => shards.parts.clone(),
                Some(_) => return Err(MergeError::Settings(i, "number of shards")),
                None if reports.len() == 1 => Vec::new(),
                None => return Err(MergeError::Overlap(i, "holds every game of the run".into())),
            };
            for part in mine {
                if part == 0 || part > count || parts.contains(&part) {
                    return Err(MergeError::Overlap(i, format!("holds shard {part}/{count} again")));
                }
                parts.push(part);
            }
            summary.merge(&report.summary);
        }
        parts.sort_unstable();
        let mut settings = first.settings.clone();
        if settings.shard.is_some() {
            let whole = parts.len() as u64 == count;
            settings.shard = (!whole).then_some(Shards { count, parts });
        }
        Ok(Report::new(settings, summary))
    }
}

/// The first setting (but the shard) in which two runs differ.
fn differing(a: &Settings, b: &Settings) -> Option<&'static str> {
    let checks: [(&'static str, bool); 9] = [
        ("game", a.game == b.game),
        ("engine data", a.data == b.data),
        ("number of games", a.games == b.games),
        ("seed", a.seed == b.seed),
        ("bots", a.bots == b.bots),
        ("decks", a.decks == b.decks),
        ("matrix", a.matrix == b.matrix),
        ("supply", a.supply == b.supply),
        ("number of shards", a.shard.as_ref().map_or(1, |s| s.count) == b.shard.as_ref().map_or(1, |s| s.count)),
    ];
    checks.iter().find(|(_, same)| !same).map(|(what, _)| *what)
}

/// The JSON Schema (draft 2020-12) of a report, pretty-printed with a
/// final newline.
pub fn schema() -> String {
    let generator = schemars::generate::SchemaSettings::draft2020_12().for_serialize().into_generator();
    let schema = generator.into_root_schema_for::<Report>();
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
