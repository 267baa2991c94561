//! The text of every file the server checks, its latest analysis, and the
//! diagnostics last published for each file.

use super::convert::{self, Encoding};
use super::edits::EditedText;
use crate::cli::project;
use cardsmith::ide::Analysis;
use cardsmith::source::FileId;
use cardsmith::spreadsheet::sheet::Sheet;
use cardsmith::workspace::Parsed;
use lsp_types as lsp;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Where bundled rulesets are named in the files table.
const BUNDLED_PREFIX: &str = "<bundled>/";

/// The most folders read in a workspace folder that holds no project (no
/// `cardsmith.toml` in it or above it), as `watch` watches: far more than
/// a folder of cards has, and few enough that opening a large tree (a
/// home folder) does not keep the editor waiting.
const MOST_FOLDERS: usize = 4096;

pub struct Documents {
    lints: cardsmith::lint::Config,
    /// The project's files as on disk, by path.
    disk: BTreeMap<PathBuf, Vec<u8>>,
    /// The folders and files the project reads (its `paths`), where a file
    /// created later is read too.
    roots: Vec<PathBuf>,
    /// What the project's `exclude` leaves out of them.
    exclusion: Option<project::Exclusion>,
    /// The client's open buffers, by path: they win over the disk.
    open: BTreeMap<PathBuf, String>,
    pub analysis: Analysis,
    /// Each file of the analysis by id: its path, for bundled rulesets the
    /// read-only copy in the cache folder.
    paths: Vec<Option<PathBuf>>,
    ids: HashMap<PathBuf, FileId>,
    published: HashMap<PathBuf, Vec<lsp::Diagnostic>>,
    stale: bool,
    /// Bundled rulesets written to the cache folder by this process.
    written: HashSet<PathBuf>,
    /// Each file's parse in the last check, given back to the next.
    parses: HashMap<PathBuf, Parsed>,
    /// What checking and linting each card gave in the last check.
    cache: Option<cardsmith::workspace::Cache>,
    /// The spreadsheets of cards the project lists, by path, with their
    /// settings: read as sheets, from the disk or the client's buffer.
    sheets: BTreeMap<PathBuf, Sheet>,
    /// The project's folder (or the folder read as one), where the cards'
    /// pictures are looked for (`W0716`); none before a project is loaded.
    home: Option<PathBuf>,
}

impl Documents {
    pub fn new() -> Documents {
        Documents {
            lints: cardsmith::lint::Config::default(),
            disk: BTreeMap::new(),
            roots: Vec::new(),
            exclusion: None,
            open: BTreeMap::new(),
            analysis: Analysis::new(cardsmith::workspace::Workspace::new().check()),
            paths: Vec::new(),
            ids: HashMap::new(),
            published: HashMap::new(),
            stale: true,
            written: HashSet::new(),
            parses: HashMap::new(),
            cache: None,
            sheets: BTreeMap::new(),
            home: None,
        }
    }

    /// Reads the project around a folder: its settings and every file it
    /// holds.  A folder in no project (no `cardsmith.toml` in it or above
    /// it) is read as one: every card and ruleset file in it, as `cardsmith
    /// check FOLDER` reads them, so that names resolve across its files.
    /// Problems are logged; the buffers the client opens are checked
    /// whatever happens here.
    pub fn load_project(&mut self, folder: &Path) {
        let found = project::Project::find_from(folder.to_path_buf());
        match found.and_then(|project| self.project_files(&project, folder)) {
            Ok((paths, sheets)) => {
                for path in paths.iter().filter(|p| !p.starts_with(bundled_folder())) {
                    self.read(path);
                }
                self.add_sheets(sheets);
            }
            Err(report) => eprintln!("cardsmith lsp: {report:?}"),
        }
        self.stale = true;
    }

    /// Takes the project's spreadsheets of cards, named by their paths.
    fn add_sheets(&mut self, sheets: Vec<project::SheetFile>) {
        for mut sheet in sheets {
            let path = absolute(&sheet.path);
            sheet.sheet.name = path.to_string_lossy().into_owned();
            // Files are named by their paths here, the project file too.
            if let Some(listed) = &mut sheet.sheet.listed {
                listed.file = absolute(Path::new(&listed.file)).to_string_lossy().into_owned();
            }
            self.disk.insert(path.clone(), sheet.bytes);
            self.sheets.insert(path, sheet.sheet);
        }
    }

    /// The settings of a project, the files it reads and the spreadsheets
    /// it lists: those of its `paths` without what it excludes, or with no
    /// project, those in `folder`, with at most [`MOST_FOLDERS`] folders.
    fn project_files(
        &mut self,
        project: &project::Project,
        folder: &Path,
    ) -> miette::Result<(Vec<PathBuf>, Vec<project::SheetFile>)> {
        self.lints = project.manifest.lints.clone();
        self.home = Some(absolute(project.root.as_deref().unwrap_or(folder)));
        if project.root.is_none() {
            self.roots = vec![absolute(folder)];
            return Ok((project::collect_bounded(&self.roots, Some(MOST_FOLDERS))?, Vec::new()));
        }
        self.roots = project.paths(&[])?.iter().map(|p| absolute(p)).collect();
        self.exclusion = project.exclusion();
        let (listed, sheets) = project.sources(&[])?;
        Ok((listed.files.iter().map(|p| absolute(p)).collect(), sheets))
    }

    fn read(&mut self, path: &Path) {
        let path = absolute(path);
        let read = match self.sheets.contains_key(&path) {
            true => crate::cli::read::bytes(&path, &crate::cli::read::TABLE),
            false => crate::cli::read::source(&path),
        };
        match read {
            Ok(bytes) => {
                self.disk.insert(path, bytes);
            }
            Err(report) => {
                self.disk.remove(&path);
                eprintln!("cardsmith lsp: {report}");
            }
        }
        self.stale = true;
    }

    /// Takes an opened buffer in place of its file.  Only card and ruleset
    /// files are checked: a client may announce every document it opens.
    pub fn open(&mut self, params: lsp::DidOpenTextDocumentParams) {
        let document = params.text_document;
        let Some(path) = convert::path_of(&document.uri) else { return };
        let ours = matches!(path.extension().and_then(|e| e.to_str()), Some("rules" | "cards"));
        if ours || document.language_id == "cardsmith" || self.disk.contains_key(&path) {
            self.open.insert(path, document.text);
            self.stale = true;
        }
    }

    pub fn change(&mut self, params: lsp::DidChangeTextDocumentParams, encoding: Encoding) {
        let Some(path) = convert::path_of(&params.text_document.uri) else { return };
        let Some(text) = self.open.get_mut(&path) else { return };
        let mut edited = EditedText::new(std::mem::take(text));
        for change in params.content_changes {
            match change.range {
                None => edited = EditedText::new(change.text),
                Some(range) => edited.replace(range, &change.text, encoding),
            }
        }
        *text = edited.into_text();
        self.stale = true;
    }

    pub fn close(&mut self, params: lsp::DidCloseTextDocumentParams) {
        let Some(path) = convert::path_of(&params.text_document.uri) else { return };
        self.open.remove(&path);
        // Back to the file on disk, if it is one of the project's.
        if self.disk.contains_key(&path) {
            self.read(&path);
        }
        self.stale = true;
    }

    pub fn watched(&mut self, params: lsp::DidChangeWatchedFilesParams) {
        for change in params.changes {
            let Some(path) = convert::path_of(&change.uri) else { continue };
            if change.typ == lsp::FileChangeType::DELETED {
                self.disk.remove(&path);
                self.stale = true;
            } else if self.is_project_file(&path) {
                self.read(&path);
            }
        }
    }

    /// Checks the workspace again if anything changed; gives the
    /// diagnostics of each file whose diagnostics changed.
    pub fn refresh(&mut self, encoding: Encoding) -> Vec<(lsp::Uri, Vec<lsp::Diagnostic>)> {
        if !self.stale {
            return Vec::new();
        }
        self.stale = false;
        self.check();
        let mut now: HashMap<PathBuf, Vec<lsp::Diagnostic>> = HashMap::new();
        for path in self.paths.iter().flatten() {
            if !self.is_bundled(path) {
                now.insert(path.clone(), Vec::new());
            }
        }
        for d in &self.analysis.diagnostics {
            let Some(file) = d.primary_span().map(|s| s.file) else { continue };
            let Some(path) = self.path(file) else { continue };
            let converted = convert::diagnostic(&self.analysis.files, d, encoding, |f| self.uri(f));
            if let (Some(list), Some(converted)) = (now.get_mut(path), converted) {
                list.push(converted);
            }
        }
        let mut changed = Vec::new();
        for (path, diagnostics) in &now {
            // A file with nothing to report is not announced unless open.
            let before = self.published.get(path);
            let new = match before {
                Some(before) => before != diagnostics,
                None => !diagnostics.is_empty() || self.open.contains_key(path),
            };
            if new {
                changed.push((convert::uri_of(path), diagnostics.clone()));
            }
        }
        for (path, before) in &self.published {
            if !now.contains_key(path) && !before.is_empty() {
                changed.push((convert::uri_of(path), Vec::new()));
            }
        }
        // What the client holds: every file announced, now or before.
        now.retain(|path, diagnostics| {
            !diagnostics.is_empty() || self.open.contains_key(path) || self.published.contains_key(path)
        });
        self.published = now;
        changed.sort_by(|a, b| a.0.cmp(&b.0));
        changed
    }

    /// Checks every file together, each open buffer in place of its file.
    fn check(&mut self) {
        let mut workspace = cardsmith::workspace::Workspace::new();
        workspace.set_lint_config(self.lints.clone());
        if let Some(cache) = self.cache.take() {
            workspace.reuse(cache);
        }
        let mut paths: Vec<&PathBuf> = self.disk.keys().chain(self.open.keys()).collect();
        paths.sort();
        paths.dedup();
        for path in &paths {
            let name = path.to_string_lossy();
            let parsed = self.parses.remove(*path);
            let disk = self.disk.get(*path).map(Vec::as_slice).unwrap_or_default();
            if let Some(sheet) = self.sheets.get(*path) {
                let bytes = self.open.get(*path).map_or(disk, |text| text.as_bytes());
                workspace.add_sheet(sheet.clone(), bytes);
                continue;
            }
            match self.open.get(*path).map(String::as_str).or_else(|| std::str::from_utf8(disk).ok()) {
                Some(text) => workspace.add_parsed(&name, text, parsed),
                None => workspace.add_bytes(&name, disk.to_vec()),
            }
        }
        let (mut outcome, parses, cache) = workspace.check_keeping_parses();
        if let Some(home) = &self.home {
            project::add_missing_art(home, &mut outcome);
        }
        self.cache = Some(cache);
        self.parses = parses.into_iter().map(|p| (PathBuf::from(&outcome.files.get(p.file()).name), p)).collect();
        let old = std::mem::replace(&mut self.analysis, Analysis::new(outcome));
        // Freeing ten thousand cards takes a while: not on the way to the
        // diagnostics.
        std::thread::spawn(move || drop(old));
        let files = &self.analysis.files;
        let mut paths = Vec::new();
        for id in files.ids() {
            let file = files.get(id);
            if files.is_derived(id) {
                // A sheet's card text: its diagnostics are at the sheet's cells.
                paths.push(None);
                continue;
            }
            paths.push(match file.name.strip_prefix(BUNDLED_PREFIX) {
                Some(name) => bundled_copy(name, &file.text, &mut self.written),
                None => Some(PathBuf::from(&file.name)),
            });
        }
        self.ids = paths.iter().enumerate().filter_map(|(i, p)| Some((p.clone()?, FileId(i as u32)))).collect();
        self.paths = paths;
    }

    pub fn path(&self, file: FileId) -> Option<&PathBuf> {
        self.paths.get(file.0 as usize)?.as_ref()
    }

    pub fn uri(&self, file: FileId) -> Option<lsp::Uri> {
        self.path(file).map(|p| convert::uri_of(p))
    }

    /// The file a URI names, if checked.
    pub fn file(&self, uri: &lsp::Uri) -> Option<FileId> {
        self.ids.get(&convert::path_of(uri)?).copied()
    }

    /// Whether the project reads a file at this path: a card or ruleset
    /// file under its paths, outside hidden folders and `target`, as
    /// [`project::collect_bounded`] finds them.
    fn is_project_file(&self, path: &Path) -> bool {
        let Some(root) = self.roots.iter().find(|r| path.starts_with(r)) else { return false };
        let inside = path.strip_prefix(root).map(|p| p.components().collect::<Vec<_>>()).unwrap_or_default();
        let hidden = inside.iter().any(|c| {
            let name = c.as_os_str().to_string_lossy();
            name.starts_with('.') || name == "target"
        });
        let kind = matches!(path.extension().and_then(|e| e.to_str()), Some("rules" | "cards"));
        let excluded = self.exclusion.as_ref().is_some_and(|e| e.excludes(path)) || self.is_bundled(path);
        (kind && !hidden && !excluded) || self.disk.contains_key(path)
    }

    fn is_bundled(&self, path: &Path) -> bool {
        path.starts_with(bundled_folder())
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Where bundled rulesets are written for editors to open: the user's cache
/// folder, one folder per build of cardsmith, since their text changes
/// between versions.
fn bundled_folder() -> &'static Path {
    static FOLDER: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    FOLDER.get_or_init(|| {
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("LOCALAPPDATA").map(PathBuf::from))
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
            .unwrap_or_else(std::env::temp_dir);
        let build: u64 = cardsmith::check::builtin::RULESETS
            .iter()
            .flat_map(|(_, _, text)| text.bytes())
            .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
        cache.join("cardsmith").join(format!("bundled-{}-{build:016x}", env!("CARGO_PKG_VERSION")))
    })
}

/// The read-only copy of a bundled ruleset, written once, atomically.
fn bundled_copy(name: &str, text: &str, written: &mut HashSet<PathBuf>) -> Option<PathBuf> {
    let path = bundled_folder().join(name);
    if written.contains(&path) || std::fs::read(&path).is_ok_and(|b| b == text.as_bytes()) {
        written.insert(path.clone());
        return Some(path);
    }
    let made = std::fs::create_dir_all(bundled_folder())
        .map_err(|e| miette::miette!("{e}"))
        .and_then(|()| crate::cli::atomic::create_file(&path, text));
    match made {
        Ok(()) => {
            if let Ok(meta) = std::fs::metadata(&path) {
                let mut permissions = meta.permissions();
                permissions.set_readonly(true);
                let _ = std::fs::set_permissions(&path, permissions);
            }
            written.insert(path.clone());
            Some(path)
        }
        Err(report) => {
            eprintln!("cardsmith lsp: cannot write the bundled ruleset {name}: {report}");
            None
        }
    }
}
