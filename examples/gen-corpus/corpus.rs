//! Realistic projects of any size for any bundled ruleset, in memory.
//!
//! The bundled sample cards of a game (`cards/<game>/*.cards`) are the
//! template: they are real cards that check clean against their ruleset, with
//! decks that satisfy its construction rules.  A project of N cards holds
//! enough numbered copies of the template to reach N: every card, deck and
//! card reference of copy `k` is renamed `Name k`, so the copies are distinct
//! cards that still check clean (the near-duplicate lint leaves numbered
//! variants alone) and every deck still counts the same cards.  Copies are
//! packed a few to a file and spread over many folders, like a large pool.
//!
//! Shared by `examples/gen-corpus` (which writes projects to disk) and the
//! benchmark in `benches/check.rs` (which builds them in memory).

use cardsmith::workspace::Workspace;
use std::collections::HashSet;

/// One generated file: a path relative to the project root and its text.
pub struct GeneratedFile {
    pub path: String,
    pub text: String,
}

/// The sample content of one game, ready to be copied.
pub struct Template {
    pub game: String,
    /// `(file stem, text)` of each sample `.cards` file.
    files: Vec<(String, String)>,
    /// Card and deck names, which every copy renames.
    names: HashSet<String>,
    card_names: HashSet<String>,
    pub cards_per_copy: usize,
    /// Decks of one copy, those defined inside another included: deck names
    /// are scoped (two fleets may both hold a battlegroup "Vanguard"), so
    /// their number is not that of the names.
    pub decks_per_copy: usize,
}

/// A generated project.
pub struct Project {
    pub files: Vec<GeneratedFile>,
    pub cards: usize,
    pub decks: usize,
}

impl Template {
    /// Reads the template from the sample files of a game.  They must check
    /// without errors or warnings, or the copies would not either.
    pub fn new(game: &str, files: Vec<(String, String)>) -> Result<Template, String> {
        let mut workspace = Workspace::new();
        for (name, text) in &files {
            workspace.add_text(name, text);
        }
        let outcome = workspace.check();
        if !outcome.diagnostics.is_empty() {
            let rendered = cardsmith::diagnostics::render::human_string(&outcome.files, &outcome.diagnostics);
            return Err(format!("the sample cards of `{game}` do not check clean:\n{rendered}"));
        }
        let Some(checked) = outcome.project.games.iter().find(|g| g.ruleset.id == game) else {
            return Err(format!("no sample cards for `{game}`"));
        };
        let card_names: HashSet<String> = checked.cards.iter().map(|c| c.name.clone()).collect();
        let mut names = card_names.clone();
        names.extend(checked.decks.iter().map(|d| d.name.clone()));
        let files = files
            .into_iter()
            .map(|(name, text)| {
                let stem = name.rsplit('/').next().unwrap_or(&name).trim_end_matches(".cards").to_string();
                (stem, text)
            })
            .collect();
        Ok(Template {
            game: game.to_string(),
            files,
            names,
            card_names,
            cards_per_copy: checked.cards.len(),
            decks_per_copy: checked.decks.len(),
        })
    }

    /// A project of at least `cards` cards (whole copies of the template),
    /// `copies_per_file` copies to a file, 16 parts to a folder.
    pub fn project(&self, cards: usize, copies_per_file: usize) -> Project {
        let copies = cards.div_ceil(self.cards_per_copy.max(1)).max(1);
        let copies_per_file = copies_per_file.max(1);
        let mut files = vec![GeneratedFile {
            path: "cardsmith.toml".into(),
            text: format!("[project]\nname = \"corpus\"\ngame = \"{}\"\npaths = [\"cards\"]\n", self.game),
        }];
        let parts = copies.div_ceil(copies_per_file);
        for part in 0..parts {
            let first = part * copies_per_file;
            let last = (first + copies_per_file).min(copies);
            for (stem, text) in &self.files {
                let mut out = format!("game {}\n", self.game);
                for copy in first..last {
                    out.push('\n');
                    out.push_str(&self.copy(text, copy + 1));
                }
                files.push(GeneratedFile { path: format!("cards/{:03}/{part:05}-{stem}.cards", part / 16), text: out });
            }
        }
        Project { files, cards: copies * self.cards_per_copy, decks: copies * self.decks_per_copy }
    }

    /// One copy of a sample file without its `game` line, every name
    /// renamed, and without blank lines at either end: copies are joined by
    /// one blank line, as `cardsmith fmt` writes them, so that the project
    /// is already formatted.
    fn copy(&self, text: &str, copy: usize) -> String {
        let mut body = String::with_capacity(text.len());
        let mut after_game_line = false;
        for line in text.split_inclusive('\n') {
            // The `game` line goes, and the blank line that set it apart.
            let skipped = line.starts_with("game ") || (after_game_line && line.trim().is_empty());
            after_game_line = line.starts_with("game ");
            if !skipped {
                body.push_str(line);
            }
        }
        let body = body.trim_matches(|c| c == '\n' || c == '\r');
        let mut renamed = self.rename(body, copy);
        renamed.push('\n');
        renamed
    }

    /// Renames every quoted card or deck name, and every `*Card*` reference
    /// inside text, to `Name copy`.  Comments are copied as they are.
    fn rename(&self, text: &str, copy: usize) -> String {
        let bytes = text.as_bytes();
        let mut out = String::with_capacity(text.len() + 256);
        let mut i = 0;
        let mut copied = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                // `6"` is a distance in inches, not the start of a string.
                b'"' if i == 0 || !bytes[i - 1].is_ascii_digit() => {
                    let start = i + 1;
                    let mut end = start;
                    while end < bytes.len() && bytes[end] != b'"' && bytes[end] != b'\n' {
                        end += if bytes[end] == b'\\' { 2 } else { 1 };
                    }
                    let end = end.min(bytes.len());
                    let content = &text[start..end];
                    out.push_str(&text[copied..start]);
                    if self.names.contains(content) {
                        out.push_str(&format!("{content} {copy}"));
                    } else {
                        out.push_str(&self.rename_references(content, copy));
                    }
                    copied = end;
                    i = end + 1;
                }
                _ => i += 1,
            }
        }
        out.push_str(&text[copied.min(text.len())..]);
        out
    }

    fn rename_references(&self, content: &str, copy: usize) -> String {
        let mut out = String::with_capacity(content.len());
        let mut rest = content;
        while let Some(open) = rest.find('*') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('*') else { break };
            let name = &after[..close];
            out.push_str(&rest[..open + 1]);
            if self.card_names.contains(name) {
                out.push_str(&format!("{name} {copy}*"));
                rest = &after[close + 1..];
            } else {
                rest = after;
            }
        }
        out.push_str(rest);
        out
    }
}

/// The sample `.cards` files of a bundled game, read from `cards/<game>/`.
pub fn sample_files(repository: &std::path::Path, game: &str) -> std::io::Result<Vec<(String, String)>> {
    let folder = repository.join("cards").join(game);
    let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(&folder)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cards"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            Ok((
                format!("cards/{game}/{}", p.file_name().unwrap_or_default().to_string_lossy()),
                std::fs::read_to_string(&p)?,
            ))
        })
        .collect()
}
