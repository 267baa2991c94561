//! The project file, `cardsmith.toml`: read strictly, with spans.
//!
//! Every command reads the same settings through [`parse`], so `check`,
//! `lint`, `build` and `print` can never disagree on a project.  A key that is
//! not known, a value of the wrong type or an unknown lint is a diagnostic at
//! its place in the file, with a did-you-mean; nothing is silently ignored.
//! Like the rest of the library this does no I/O: the command line hands in
//! the text.

use crate::diagnostics::{codes, Diagnostic};
use crate::lint::{self, Level};
use crate::source::{FileId, Files, Span};
use toml_edit::{Item, Value};

/// The file name the command line looks for, upwards from the current folder.
pub const FILE_NAME: &str = "cardsmith.toml";

codes! {
    CONFIG_SYNTAX "E0010" "config-syntax" "\
`cardsmith.toml` is not valid TOML at this point.  The project file is read
before any card, so nothing is checked until it parses.  A small project file
looks like this:

    [project]
    name = \"my-ship\"
    paths = [\"cards\"]

    [lints]
    near-duplicate-names = \"warn\"";
    CONFIG_UNKNOWN_KEY "E0011" "config-unknown-key" "\
`cardsmith.toml` names a table or key that cardsmith does not know.  Unknown
keys are refused rather than ignored, so a misspelt setting never silently
does nothing.  The known tables and keys are:

    [project]  name, game, paths, exclude
    [build]    out
    [print]    out, format, paper, card, bleed, margin, backs, duplex,
               offset, calibration, dpi, base-url, tts-width, fonts,
               back-art, backs-named, deck, min-text, sizes,
               deck-backs
    [print.sizes]  one key per kind: its card size
    [print.deck-backs]  one key per deck: the picture on its backs
    [lints]    one key per lint name (`cardsmith lint --list`)
    [[sheet]]  path, game, kind, worksheet, map (one per spreadsheet of cards)";
    CONFIG_WRONG_TYPE "E0012" "config-wrong-type" "\
A setting in `cardsmith.toml` has a value of the wrong type, such as a string
where a list is expected:

    paths = \"cards\"       # wrong: a string
    paths = [\"cards\"]     # right: a list of folders

The message says which type the key takes.";
    CONFIG_BAD_VALUE "E0013" "config-bad-value" "\
A setting in `cardsmith.toml` has the right type but a value cardsmith cannot
use: a lint name that does not exist in `[lints]`, a level other than
\"allow\", \"warn\" or \"deny\", a `[print.sizes]` value that is not a
card size (poker, bridge, tarot, mini, or WxH in millimetres), an output
folder (`[build] out`, `[print] out`) outside the project: a project's own
settings write only inside it (`--out` on the command line can name any
folder), or an `exclude` pattern that is not a pattern of paths inside the
project (empty, absolute, through `..`, or not a glob, such as `[a-`).
`cardsmith lint --list` lists the lints.

    [lints]
    near-duplicate-names = \"wran\"    # wrong
    near-duplicate-names = \"warn\"    # right";
    CONFIG_EXCLUDE_UNUSED "E0020" "config-exclude-unused" "\
A pattern of `exclude` in `cardsmith.toml` leaves out nothing: no card or
ruleset file, and no folder, of what the project reads matches it.  It is
likely misspelt, or written from another folder than the project's:
patterns are relative to the folder holding `cardsmith.toml`, `*` stays
within one name and `**` crosses folders.

    [project]
    paths = [\"cards\"]
    exclude = [\"backup/**\"]          # nothing: backup/ is not under cards/
    exclude = [\"cards/backup/**\"]    # everything under cards/backup/
    exclude = [\"cards/*.draft.cards\"] # the drafts directly in cards/

It is a warning: the files are read as they would be without the pattern.
Remove the pattern when it is no longer needed.";
}

/// The settings of a project.  Absent keys are `None`: each command has its
/// own default.
#[derive(Clone, Debug, Default)]
pub struct Manifest {
    pub name: Option<String>,
    pub game: Option<String>,
    /// `[project] paths`, each with its span for later diagnostics.
    pub paths: Option<Vec<(String, Span)>>,
    /// `[project] exclude`: what the project does not read.
    pub exclude: Exclude,
    /// `[build] out`, with its value's span.
    pub build_out: Option<(String, Span)>,
    pub print: PrintSettings,
    pub lints: lint::Config,
    /// `[[sheet]]`: spreadsheets read as cards, in the order listed.
    pub sheets: Vec<SheetSetting>,
}

/// One `[[sheet]]`: a spreadsheet (CSV or XLSX) whose rows are cards of one
/// kind, checked with the card files.  Each setting keeps its span.
#[derive(Clone, Debug)]
pub struct SheetSetting {
    pub path: (String, Span),
    /// The game of its cards; `[project] game` when not given.
    pub game: Option<(String, Span)>,
    pub kind: (String, Span),
    /// The worksheet of an XLSX workbook; the first when not given.
    pub worksheet: Option<String>,
    /// `map = { "Card Name" = "name" }`: a column read as another field.
    pub map: Vec<(String, String)>,
    /// The `[[sheet]]` header.
    pub span: Span,
}

/// `[print]`: defaults for `cardsmith print`; the command line wins.
#[derive(Clone, Debug, Default)]
pub struct PrintSettings {
    /// `[print] out`, with its value's span.
    pub out: Option<(String, Span)>,
    pub formats: Option<Vec<String>>,
    pub paper: Option<String>,
    pub card: Option<String>,
    pub bleed: Option<f64>,
    pub margin: Option<f64>,
    pub backs: Option<bool>,
    pub duplex: Option<String>,
    /// Millimetres x, y.
    pub offset: Option<(f64, f64)>,
    pub calibration: Option<bool>,
    /// `backs-named`: the bundled backs show the deck's name and initial.
    pub backs_named: Option<bool>,
    pub dpi: Option<u32>,
    pub base_url: Option<String>,
    pub tts_width: Option<u32>,
    /// Font files of the project, each with its span.
    pub fonts: Option<Vec<(String, Span)>>,
    /// A picture for the backs, by its path in the project.
    pub back_art: Option<String>,
    /// `[print.deck-backs]`: a picture for the backs of one deck's cards,
    /// by the deck's name, each with the span of the deck's key.
    pub deck_backs: Vec<(String, String, Span)>,
    pub deck: Option<String>,
    /// The smallest type size in points before a warning.
    pub min_text: Option<f64>,
    /// `[print.sizes]`: kinds printed at a size of their own, each with its
    /// width and height in millimetres and the span of the kind's key.
    pub sizes: Vec<KindSize>,
}

/// One kind's size from `[print.sizes]`.
#[derive(Clone, Debug, PartialEq)]
pub struct KindSize {
    pub kind: String,
    pub w: f32,
    pub h: f32,
    pub span: Span,
}

/// `[project] exclude`: patterns of paths, relative to the project folder,
/// that the project does not read.  `*`, `?` and `[…]` match within one
/// name of a path, `**` across folders; a pattern that matches a folder
/// leaves out everything in it.  The command line tests each folder and
/// each card or ruleset file it finds in the project ([`Exclude::excludes`]).
#[derive(Clone, Debug, Default)]
pub struct Exclude {
    /// Each valid pattern as written, with its span in the file.
    pub patterns: Vec<(String, Span)>,
    set: globset::GlobSet,
}

impl Exclude {
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Whether `path`, relative to the project folder, is left out; marks
    /// in `used` (one flag a pattern) each pattern that matches it.
    pub fn excludes(&self, path: &std::path::Path, used: &mut [bool]) -> bool {
        if self.is_empty() {
            return false;
        }
        let matching = self.set.matches(path);
        for &i in &matching {
            if let Some(flag) = used.get_mut(i) {
                *flag = true;
            }
        }
        !matching.is_empty()
    }

    /// A warning at each pattern `used` does not mark: one that left out
    /// nothing.  `file` is the project file as the caller's table holds it.
    pub fn unused(&self, used: &[bool], file: FileId) -> Vec<Diagnostic> {
        let unused = self.patterns.iter().enumerate().filter(|(i, _)| !used.get(*i).copied().unwrap_or(false));
        let help = "patterns are relative to the folder holding cardsmith.toml: `backup/**` leaves out everything \
                    under backup/, `drafts/*.cards` the card files directly in drafts/";
        unused
            .map(|(_, (pattern, span))| {
                let at = Span::new(file, span.start as usize, span.end as usize);
                Diagnostic::warning(&CONFIG_EXCLUDE_UNUSED, format!("the pattern `{pattern}` leaves out nothing"))
                    .primary(at, "matches no card or ruleset file, and no folder")
                    .help(help)
            })
            .collect()
    }
}

/// One pattern of `exclude` made ready to match, or why it cannot be.
fn exclude_pattern(pattern: &str) -> Result<globset::Glob, String> {
    // `./backup/**` means `backup/**`: paths are matched without the `./`.
    let relative = pattern.strip_prefix("./").unwrap_or(pattern);
    if relative.is_empty() {
        return Err("an empty pattern matches nothing".into());
    }
    // Patterns separate names with `/` on every system (a `\` escapes the
    // character after it), as the paths they are matched against do.
    if relative.starts_with('/') || relative.get(1..2) == Some(":") {
        return Err("patterns are relative to the project folder, and this one is absolute".into());
    }
    if relative.split('/').any(|part| part == "..") {
        return Err("patterns name paths inside the project, and `..` leads out of it".into());
    }
    let glob = globset::GlobBuilder::new(relative).literal_separator(true).backslash_escape(true).build();
    glob.map_err(|e| e.kind().to_string())
}

/// The type a key takes.
#[derive(Clone, Copy)]
enum Kind {
    Text,
    TextList,
    /// A list of strings, or one string of comma-separated items.
    TextOrList,
    Number,
    /// Two numbers: `[0.5, -1]`.
    Pair,
    Flag,
    Count,
    /// A table of strings: `[print.sizes]`.
    TextTable,
}

impl Kind {
    fn describe(self) -> (&'static str, &'static str) {
        match self {
            Kind::Text => ("a string in quotes", "\"name\""),
            Kind::TextList => ("a list of strings", "[\"cards\"]"),
            Kind::TextOrList => ("a list of strings", "[\"pdf\", \"png\"]"),
            Kind::Number => ("a number", "3"),
            Kind::Pair => ("a list of two numbers", "[0.5, -1]"),
            Kind::Flag => ("true or false", "true"),
            Kind::Count => ("a whole number from 1 to 4294967295", "300"),
            Kind::TextTable => ("a table of strings", "{ ship = \"tarot\" }"),
        }
    }
}

/// The tables and keys the file may hold (`[lints]` is open: one key a lint).
const TABLES: &[(&str, &[(&str, Kind)])] = &[
    ("project", &[("name", Kind::Text), ("game", Kind::Text), ("paths", Kind::TextList), ("exclude", Kind::TextList)]),
    ("build", &[("out", Kind::Text)]),
    (
        "print",
        &[
            ("out", Kind::Text),
            ("format", Kind::TextOrList),
            ("formats", Kind::TextOrList),
            ("paper", Kind::Text),
            ("card", Kind::Text),
            ("bleed", Kind::Number),
            ("margin", Kind::Number),
            ("backs", Kind::Flag),
            ("duplex", Kind::Text),
            ("offset", Kind::Pair),
            ("calibration", Kind::Flag),
            ("dpi", Kind::Count),
            ("base-url", Kind::Text),
            ("tts-width", Kind::Count),
            ("fonts", Kind::TextList),
            ("back-art", Kind::Text),
            ("backs-named", Kind::Flag),
            ("deck", Kind::Text),
            ("min-text", Kind::Number),
            ("sizes", Kind::TextTable),
            ("deck-backs", Kind::TextTable),
        ],
    ),
    ("lints", &[]),
];

/// A value read and typed.
enum Setting {
    Text(String),
    List(Vec<(String, Span)>),
    Number(f64),
    Pair(f64, f64),
    Flag(bool),
    Count(u32),
    /// Keys and strings, each with its key's and its value's span.
    Table(Vec<(String, Span, String, Span)>),
}

/// Reads the project file `file` of the table.  Every problem is reported;
/// the manifest holds whatever was valid.
pub fn parse(files: &Files, file: FileId) -> (Manifest, Vec<Diagnostic>) {
    let text = &files.get(file).text;
    let mut reader = Reader { file, manifest: Manifest::default(), diagnostics: Vec::new() };
    match text.parse::<toml_edit::Document<String>>() {
        Ok(document) => {
            reader.document(document.as_table());
            reader.sheets_have_games();
        }
        Err(error) => {
            let span = error.span().map_or(reader.span(None), |r| reader.span(Some(r)));
            let message = error.message().lines().collect::<Vec<_>>().join("; ");
            reader.diagnostics.push(
                Diagnostic::error(&CONFIG_SYNTAX, format!("`{FILE_NAME}` is not valid TOML"))
                    .primary(span, message)
                    .help("see https://toml.io for the syntax; strings are written in double quotes"),
            );
        }
    }
    (reader.manifest, reader.diagnostics)
}

struct Reader {
    file: FileId,
    manifest: Manifest,
    diagnostics: Vec<Diagnostic>,
}

impl Reader {
    /// `[print.sizes]`: each kind's size, read as `--card` reads one; a size
    /// that is not one is an error at its value.
    fn sizes(&mut self, entries: Vec<(String, Span, String, Span)>) {
        for (kind, span, value, value_span) in entries {
            match crate::card_size::card_size(&value) {
                Ok(size) => self.manifest.print.sizes.push(KindSize { kind, w: size.w, h: size.h, span }),
                Err(_) => self.diagnostics.push(
                    Diagnostic::error(&CONFIG_BAD_VALUE, format!("`{value}` is not a card size for `{kind}`"))
                        .primary(value_span, "not a card size")
                        .help("use poker, bridge, tarot, mini, or WxH in millimetres such as \"70x120\" (sides 20 to 400)"),
                ),
            }
        }
    }

    /// `[project] exclude`: each pattern compiled; one that is not a
    /// pattern of paths inside the project is an error at it.
    fn exclude(&mut self, patterns: Vec<(String, Span)>, list: Span) {
        let mut builder = globset::GlobSetBuilder::new();
        let mut valid = Vec::new();
        for (pattern, span) in patterns {
            match exclude_pattern(&pattern) {
                Ok(glob) => {
                    builder.add(glob);
                    valid.push((pattern, span));
                }
                Err(why) => self.diagnostics.push(
                    Diagnostic::error(&CONFIG_BAD_VALUE, format!("`{pattern}` is not a pattern of paths to exclude"))
                        .primary(span, why)
                        .help(
                            "write a path relative to the folder holding cardsmith.toml, with `*` for any name and \
                             `**` for any folders: \"backup/**\", \"drafts/*.cards\"",
                        ),
                ),
            }
        }
        match builder.build() {
            Ok(set) => self.manifest.exclude = Exclude { patterns: valid, set },
            // Each pattern was built alone above; a set of valid patterns builds.
            Err(e) => self.diagnostics.push(
                Diagnostic::error(&CONFIG_BAD_VALUE, "the patterns of `exclude` cannot be used together")
                    .primary(list, e.to_string())
                    .help("use fewer or simpler patterns"),
            ),
        }
    }

    fn span(&self, range: Option<std::ops::Range<usize>>) -> Span {
        let range = range.unwrap_or(0..0);
        Span::new(self.file, range.start, range.end)
    }

    fn document(&mut self, root: &toml_edit::Table) {
        for (key, item) in root.iter() {
            let key_span = self.span(root.key(key).and_then(|k| k.span()));
            if key == SHEET {
                self.sheets(item, key_span);
                continue;
            }
            let Some((_, keys)) = TABLES.iter().find(|(name, _)| *name == key) else {
                let tables = TABLES.iter().map(|(name, _)| *name).chain([SHEET]);
                self.unknown(
                    key,
                    key_span,
                    "table",
                    crate::check::suggest(key, tables),
                    "project, build, print, lints, [[sheet]]",
                );
                continue;
            };
            let Some(table) = item.as_table_like() else {
                self.wrong_type(&format!("`{key}`"), key_span, "a table", &format!("[{key}]"));
                continue;
            };
            if key == "lints" {
                self.lints(table);
            } else {
                self.table(key, keys, table);
            }
        }
    }

    fn table(&mut self, table_name: &str, keys: &[(&str, Kind)], table: &dyn toml_edit::TableLike) {
        for (key, item) in table.iter() {
            let key_span = self.span(table.key(key).and_then(|k| k.span()));
            let Some((_, kind)) = keys.iter().find(|(name, _)| *name == key) else {
                let known: Vec<&str> = keys.iter().map(|(name, _)| *name).collect();
                let suggestion = crate::check::suggest(key, known.iter().copied());
                self.unknown(&format!("{table_name}.{key}"), key_span, "key", suggestion, &known.join(", "));
                continue;
            };
            let value_span = item.span().map_or(key_span, |r| self.span(Some(r)));
            match self.setting(*kind, item) {
                Some(setting) => self.store(table_name, key, setting, value_span),
                None => {
                    let (what, example) = kind.describe();
                    self.wrong_type(&format!("`{table_name}.{key}`"), value_span, what, &format!("{key} = {example}"));
                }
            }
        }
    }

    /// Types one value, or `None` when it is of the wrong type.
    fn setting(&self, kind: Kind, item: &Item) -> Option<Setting> {
        if let Kind::TextTable = kind {
            let table = item.as_table_like()?;
            let entries = table.iter().map(|(key, item)| {
                let key_span = self.span(table.key(key).and_then(|k| k.span()));
                let value = item.as_str()?.to_string();
                Some((key.to_string(), key_span, value, item.span().map_or(key_span, |r| self.span(Some(r)))))
            });
            return entries.collect::<Option<Vec<_>>>().map(Setting::Table);
        }
        let value = item.as_value()?;
        Some(match (kind, value) {
            (Kind::Text, Value::String(s)) => Setting::Text(s.value().clone()),
            (Kind::TextOrList, Value::String(s)) => Setting::List(
                s.value().split(',').map(|part| (part.trim().to_string(), self.span(value.span()))).collect(),
            ),
            (Kind::TextList | Kind::TextOrList, Value::Array(items)) => Setting::List(
                items
                    .iter()
                    .map(|i| i.as_str().map(|s| (s.to_string(), self.span(i.span()))))
                    .collect::<Option<Vec<_>>>()?,
            ),
            (Kind::Number, Value::Float(f)) if f.value().is_finite() => Setting::Number(*f.value()),
            (Kind::Number, Value::Integer(i)) => Setting::Number(*i.value() as f64),
            (Kind::Pair, Value::Array(items)) => {
                let numbers: Vec<f64> = items
                    .iter()
                    .map(|i| i.as_float().or_else(|| i.as_integer().map(|n| n as f64)).filter(|f| f.is_finite()))
                    .collect::<Option<_>>()?;
                match numbers.as_slice() {
                    [x, y] => Setting::Pair(*x, *y),
                    _ => return None,
                }
            }
            (Kind::Flag, Value::Boolean(b)) => Setting::Flag(*b.value()),
            (Kind::Count, Value::Integer(i)) => Setting::Count(u32::try_from(*i.value()).ok().filter(|n| *n > 0)?),
            _ => return None,
        })
    }

    fn store(&mut self, table: &str, key: &str, setting: Setting, span: Span) {
        let manifest = &mut self.manifest;
        let print = &mut manifest.print;
        match (table, key, setting) {
            ("project", "name", Setting::Text(s)) => manifest.name = Some(s),
            ("project", "game", Setting::Text(s)) => manifest.game = Some(s),
            ("project", "paths", Setting::List(l)) => manifest.paths = Some(l),
            ("project", "exclude", Setting::List(l)) => self.exclude(l, span),
            ("build", "out", Setting::Text(s)) => manifest.build_out = Some((s, span)),
            ("print", "out", Setting::Text(s)) => print.out = Some((s, span)),
            ("print", "format" | "formats", Setting::List(l)) => {
                print.formats = Some(l.into_iter().map(|(s, _)| s).collect())
            }
            ("print", "paper", Setting::Text(s)) => print.paper = Some(s),
            ("print", "card", Setting::Text(s)) => print.card = Some(s),
            ("print", "bleed", Setting::Number(n)) => print.bleed = Some(n),
            ("print", "margin", Setting::Number(n)) => print.margin = Some(n),
            ("print", "backs", Setting::Flag(b)) => print.backs = Some(b),
            ("print", "duplex", Setting::Text(s)) => print.duplex = Some(s),
            ("print", "offset", Setting::Pair(x, y)) => print.offset = Some((x, y)),
            ("print", "calibration", Setting::Flag(b)) => print.calibration = Some(b),
            ("print", "dpi", Setting::Count(n)) => print.dpi = Some(n),
            ("print", "base-url", Setting::Text(s)) => print.base_url = Some(s),
            ("print", "tts-width", Setting::Count(n)) => print.tts_width = Some(n),
            ("print", "fonts", Setting::List(l)) => print.fonts = Some(l),
            ("print", "back-art", Setting::Text(s)) => print.back_art = Some(s),
            ("print", "backs-named", Setting::Flag(b)) => print.backs_named = Some(b),
            ("print", "deck", Setting::Text(s)) => print.deck = Some(s),
            ("print", "min-text", Setting::Number(n)) => print.min_text = Some(n),
            ("print", "sizes", Setting::Table(entries)) => self.sizes(entries),
            ("print", "deck-backs", Setting::Table(entries)) => {
                print.deck_backs = entries.into_iter().map(|(deck, span, path, _)| (deck, path, span)).collect()
            }
            // TABLES and this match list the same keys; a key typed by
            // `setting` always lands in one arm above.
            _ => {}
        }
    }

    fn lints(&mut self, table: &dyn toml_edit::TableLike) {
        for (name, item) in table.iter() {
            let key_span = self.span(table.key(name).and_then(|k| k.span()));
            if lint::lint(name).is_none() {
                let suggestion = crate::check::suggest(name, lint::LINTS.iter().map(|l| l.name));
                self.diagnostics.push(
                    Diagnostic::error(&CONFIG_BAD_VALUE, format!("no lint is named `{}`", name))
                        .primary(key_span, "not a lint")
                        .suggest(suggestion)
                        .note("`cardsmith lint --list` lists the lints"),
                );
                continue;
            }
            let value_span = item.span().map_or(key_span, |r| self.span(Some(r)));
            let Some(word) = item.as_str() else {
                self.wrong_type(
                    &format!("the level of `{name}`"),
                    value_span,
                    "a string",
                    &format!("{name} = \"warn\""),
                );
                continue;
            };
            match Level::parse(word) {
                Some(level) => {
                    self.manifest.lints.levels.insert(name.to_string(), level);
                }
                None => self.diagnostics.push(
                    Diagnostic::error(&CONFIG_BAD_VALUE, format!("`{}` is not a lint level", word))
                        .primary(value_span, "not a level")
                        .suggest(crate::check::suggest(word, ["allow", "warn", "deny"]))
                        .note("a level is \"allow\", \"warn\" or \"deny\""),
                ),
            }
        }
    }

    fn unknown(&mut self, name: &str, span: Span, what: &str, suggestion: Option<&str>, known: &str) {
        let diagnostic = Diagnostic::error(&CONFIG_UNKNOWN_KEY, format!("unknown {what} `{}` in `{FILE_NAME}`", name))
            .primary(span, format!("no such {what}"));
        let diagnostic = match suggestion {
            Some(_) => diagnostic.suggest(suggestion),
            None => diagnostic.help(format!("the known {what}s here are: {known}")),
        };
        self.diagnostics.push(diagnostic);
    }

    fn wrong_type(&mut self, what: &str, span: Span, expected: &str, example: &str) {
        self.diagnostics.push(
            Diagnostic::error(&CONFIG_WRONG_TYPE, format!("{what} must be {expected}"))
                .primary(span, format!("expected {expected}"))
                .help(format!("write `{example}`")),
        );
    }
}

/// The array of tables listing spreadsheets of cards.
const SHEET: &str = "sheet";

/// The keys of a `[[sheet]]`.
const SHEET_KEYS: [&str; 5] = ["path", "game", "kind", "worksheet", "map"];

impl Reader {
    /// `[[sheet]]`: each spreadsheet of cards with its settings.
    fn sheets(&mut self, item: &Item, key_span: Span) {
        let Some(tables) = item.as_array_of_tables() else {
            let example = "[[sheet]]\npath = \"units.csv\"\nkind = \"unit\"";
            self.wrong_type("`sheet`", key_span, "an array of tables, one `[[sheet]]` per spreadsheet", example);
            return;
        };
        for table in tables.iter() {
            let span = table.span().map_or(key_span, |r| self.span(Some(r)));
            let (mut path, mut game, mut kind, mut worksheet, mut map) = (None, None, None, None, Vec::new());
            for (key, item) in table.iter() {
                let key_span = self.span(table.key(key).and_then(|k| k.span()));
                let value_span = item.span().map_or(key_span, |r| self.span(Some(r)));
                let text = item.as_str().map(|s| (s.to_string(), value_span));
                match (key, text) {
                    ("path", Some(value)) => path = Some(value),
                    ("game", Some(value)) => game = Some(value),
                    ("kind", Some(value)) => kind = Some(value),
                    ("worksheet", Some(value)) => worksheet = Some(value.0),
                    ("map", _) => match self.setting(Kind::TextTable, item) {
                        Some(Setting::Table(entries)) => map = entries.into_iter().map(|(k, _, v, _)| (k, v)).collect(),
                        _ => self.wrong_type(
                            "`sheet.map`",
                            value_span,
                            "a table of strings",
                            "map = { \"Card Name\" = \"name\" }",
                        ),
                    },
                    (key, _) if SHEET_KEYS.contains(&key) => self.wrong_type(
                        &format!("`sheet.{key}`"),
                        value_span,
                        "a string in quotes",
                        &format!("{key} = \"…\""),
                    ),
                    (key, _) => {
                        let suggestion = crate::check::suggest(key, SHEET_KEYS);
                        self.unknown(&format!("sheet.{key}"), key_span, "key", suggestion, &SHEET_KEYS.join(", "));
                    }
                }
            }
            match (path, kind) {
                (Some(path), Some(kind)) => {
                    self.manifest.sheets.push(SheetSetting { path, game, kind, worksheet, map, span });
                }
                (path, _) => {
                    let missing = if path.is_none() { "path" } else { "kind" };
                    self.diagnostics.push(
                        Diagnostic::error(&CONFIG_BAD_VALUE, format!("this `[[sheet]]` has no `{missing}`"))
                            .primary(span, format!("`{missing}` is missing"))
                            .help("a sheet names its file and the kind of its cards: path = \"units.csv\", kind = \"unit\""),
                    );
                }
            }
        }
    }

    /// A sheet's game: its own, else `[project] game`; one without either
    /// is reported.
    fn sheets_have_games(&mut self) {
        if self.manifest.game.is_some() {
            return;
        }
        for sheet in self.manifest.sheets.iter().filter(|s| s.game.is_none()) {
            self.diagnostics.push(
                Diagnostic::error(&CONFIG_BAD_VALUE, format!("the sheet `{}` names no game", sheet.path.0))
                    .primary(sheet.span, "no `game` here, and no `[project] game`")
                    .help("add game = \"ID\" to the sheet, or game = \"ID\" under [project]"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Manifest, Vec<(&'static str, String)>) {
        let mut files = Files::new();
        let id = files.add(FILE_NAME, text);
        let (manifest, diagnostics) = parse(&files, id);
        let shown = diagnostics
            .iter()
            .map(|d| {
                let span = d.primary_span().expect("every problem has a place");
                (d.code.id, files.get(id).text[span.range()].to_string())
            })
            .collect();
        (manifest, shown)
    }

    #[test]
    fn a_valid_file_gives_every_setting() {
        let (manifest, problems) = read(
            "[project]\nname = \"x\"\ngame = \"g\"\npaths = [\"cards\", \"more\"]\n[build]\nout = \"o\"\n\
             [print]\nformat = \"pdf, png\"\nbleed = 3\nbacks = true\ndpi = 150\noffset = [0.5, -1]\nmin-text = 5.5\n[lints]\nnear-duplicate-names = \"deny\"\n",
        );
        assert_eq!(problems, vec![]);
        let paths: Vec<&str> = manifest.paths.iter().flatten().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["cards", "more"]);
        assert_eq!(manifest.build_out.map(|(out, _)| out).as_deref(), Some("o"));
        assert_eq!(manifest.print.formats, Some(vec!["pdf".to_string(), "png".to_string()]));
        assert_eq!(
            (manifest.print.bleed, manifest.print.backs, manifest.print.dpi),
            (Some(3.0), Some(true), Some(150))
        );
        assert_eq!(manifest.print.min_text, Some(5.5));
        assert_eq!(manifest.lints.levels.get("near-duplicate-names"), Some(&Level::Deny));
        assert_eq!(manifest.print.offset, Some((0.5, -1.0)));
    }

    #[test]
    fn print_sizes_give_kinds_their_size_and_refuse_what_is_not_one() {
        let (manifest, problems) = read("[print.sizes]\nship = \"tarot\"\nbase = \"88.9x63.5\"\nfoe = \"huge\"\n");
        let sizes: Vec<(&str, f32, f32)> = manifest.print.sizes.iter().map(|s| (s.kind.as_str(), s.w, s.h)).collect();
        assert_eq!(sizes, [("ship", 70.0, 120.0), ("base", 88.9, 63.5)]);
        assert_eq!(problems, [("E0013", "\"huge\"".to_string())]);
        let (inline, problems) = read("[print]\nsizes = { ship = \"mini\" }\n");
        assert_eq!((inline.print.sizes.len(), problems), (1, vec![]));
        let (_, problems) = read("[print]\nsizes = { ship = 3 }\n");
        assert_eq!(problems, [("E0012", "{ ship = 3 }".to_string())]);
    }

    #[test]
    fn every_problem_is_reported_at_its_place() {
        let (manifest, problems) = read(
            "[project]\npaths = \"cards\"\npathz = 1\n[printt]\n[print]\ndpi = -3\n[lints]\nnope = \"warn\"\n\
             near-duplicate-names = \"wran\"\n",
        );
        assert_eq!(
            problems,
            vec![
                ("E0012", "\"cards\"".to_string()),
                ("E0011", "pathz".to_string()),
                ("E0011", "printt".to_string()),
                ("E0012", "-3".to_string()),
                ("E0013", "nope".to_string()),
                ("E0013", "\"wran\"".to_string()),
            ]
        );
        assert!(manifest.paths.is_none() && manifest.lints.levels.is_empty());
    }

    #[test]
    fn sheets_are_listed_with_their_settings_and_their_mistakes_at_their_place() {
        let (manifest, problems) = read(
            "[project]\ngame = \"g\"\n[[sheet]]\npath = \"units.csv\"\nkind = \"unit\"\nmap = { \"Card Name\" = \"name\" }\n\
             [[sheet]]\npath = \"ships.xlsx\"\ngame = \"h\"\nkind = \"ship\"\nworksheet = \"Ships\"\n",
        );
        assert_eq!(problems, vec![]);
        let sheets: Vec<(&str, Option<&str>, &str, Option<&str>)> = manifest
            .sheets
            .iter()
            .map(|s| {
                (s.path.0.as_str(), s.game.as_ref().map(|g| g.0.as_str()), s.kind.0.as_str(), s.worksheet.as_deref())
            })
            .collect();
        assert_eq!(sheets, [("units.csv", None, "unit", None), ("ships.xlsx", Some("h"), "ship", Some("Ships"))]);
        assert_eq!(manifest.sheets[0].map, [("Card Name".to_string(), "name".to_string())]);
        let (_, problems) =
            read("[[sheet]]\npath = \"u.csv\"\nkind = 3\nknd = \"x\"\n[[sheet]]\nkind = \"k\"\ngame = \"g\"\n");
        let codes: Vec<&str> = problems.iter().map(|(code, _)| *code).collect();
        assert_eq!(codes, ["E0012", "E0011", "E0013", "E0013"], "{problems:?}");
        assert_eq!(problems[0].1, "3");
        assert_eq!(problems[1].1, "knd");
    }

    #[test]
    fn exclude_matches_paths_relative_to_the_project_and_tells_what_matched() {
        let text = "[project]\nexclude = [\"backup/**\", \"./drafts/*.cards\", \"old\", \"**/*.bak.cards\"]\n";
        let (manifest, problems) = read(text);
        assert_eq!(problems, vec![]);
        let exclude = &manifest.exclude;
        let mut used = vec![false; 4];
        let mut excluded = |path: &str| exclude.excludes(std::path::Path::new(path), &mut used);
        for path in ["backup/a.cards", "backup/x/y.rules", "drafts/a.cards", "old", "cards/x/a.bak.cards"] {
            assert!(excluded(path), "{path} is excluded");
        }
        for path in ["backup", "drafts/x/a.cards", "cards/old", "olden", "cards/a.cards"] {
            assert!(!excluded(path), "{path} is not excluded");
        }
        assert_eq!(used, [true, true, true, true]);
        let mut files = Files::new();
        let id = files.add(FILE_NAME, text);
        let unused = exclude.unused(&[true, false, true, true], id);
        let spans: Vec<&str> = unused.iter().filter_map(|d| d.primary_span()).map(|s| files.text(s)).collect();
        assert_eq!(spans, ["\"./drafts/*.cards\""]);
        assert_eq!(unused[0].code.id, "E0020");
    }

    #[test]
    fn an_exclude_pattern_that_is_no_pattern_inside_the_project_is_refused_at_it() {
        let (manifest, problems) =
            read("[project]\nexclude = [\"/abs/**\", \"a/../../b\", \"[z-\", \"\", \"./\", \"C:/x\", \"ok/**\"]\n");
        let refused: Vec<&str> = problems.iter().map(|(_, text)| text.as_str()).collect();
        assert_eq!(refused, ["\"/abs/**\"", "\"a/../../b\"", "\"[z-\"", "\"\"", "\"./\"", "\"C:/x\""]);
        assert!(problems.iter().all(|(code, _)| *code == "E0013"));
        let kept: Vec<&str> = manifest.exclude.patterns.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(kept, ["ok/**"]);
    }

    #[test]
    fn a_table_given_as_a_value_and_broken_toml_are_reported() {
        assert_eq!(read("print = 3\n").1, vec![("E0012", "print".to_string())]);
        assert_eq!(read("[print]\noffset = [1]\n").1, vec![("E0012", "[1]".to_string())]);
        let (_, problems) = read("[project\n");
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, "E0010");
    }
}
