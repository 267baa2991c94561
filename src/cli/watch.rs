//! `cardsmith watch`: checks the project as `check` does, then watches its
//! folders and checks it again each time a card, ruleset or project file is
//! saved, printing only what changed: each diagnostic that is new, a line for
//! each one that is gone, and the summary.  The spreadsheets the project
//! lists as cards are watched as files of their own.  Every check is the one `check`
//! runs ([`check::check_paths`]), with the project read again, so a change
//! to `cardsmith.toml` counts too.
//!
//! A diagnostic is told from one check to the next by its code, file,
//! message and the text it points at, not by its line: a line added above it
//! moves it without making it new.
//!
//! Folders are watched one by one (not recursively by the watcher), so that
//! hidden folders, `target` and the output folders, which are never read,
//! are not watched either; a folder created later is added when it appears.
//! Everything is printed to standard output: it is what the command is for.
//!
//! With `--serve`, the HTML preview is printed again in memory after each
//! check ([`super::print::preview`]) and served by [`serve`], whose open
//! pages reload themselves.

use super::{check, project, serve};
use cardsmith::diagnostics::render::{escape_controls, MessageFormat};
use cardsmith::diagnostics::Diagnostic;
use cardsmith::workspace::Outcome;
use miette::{miette, IntoDiagnostic, Result, WrapErr};
use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode, Watcher};
use notify_debouncer_mini::{new_debouncer, DebounceEventResult, DebouncedEventKind, Debouncer};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::Duration;

/// How long the folders must stay quiet before a change is checked: an
/// editor's save (a temporary file, a rename) is one change, not three.
const QUIET: Duration = Duration::from_millis(100);

/// The most folders watched: far more than a project of cards has, and few
/// enough to stay within the system's watches when a path names a large tree.
const MOST_FOLDERS: usize = 4096;

/// The most bytes of a diagnostic's text that tell it apart from another.
const MOST_KEY_TEXT: usize = 256;

/// `cardsmith watch`'s arguments: `check`'s, and the preview server's.
#[derive(clap::Args)]
pub(super) struct Args {
    #[command(flatten)]
    pub(super) checked: super::Checked,
    /// Also serve the HTML preview on 127.0.0.1, rebuilt on every save; an open page reloads itself
    #[arg(long)]
    pub(super) serve: bool,
    /// The port of --serve (0: any free port)
    #[arg(long, default_value_t = 8000, requires = "serve")]
    pub(super) port: u16,
}

pub(super) fn run(args: &Args) -> Result<ExitCode> {
    let (paths, format) = (&args.checked.paths, MessageFormat::from(args.checked.message_format));
    if format == MessageFormat::Json {
        return Err(miette!(
            help = "use `cardsmith check --message-format json` for tools, or the language server `cardsmith lsp`",
            "watch prints for people: its formats are human and short"
        ));
    }
    let terminal = std::io::stdout().is_terminal();
    let project = project::Project::for_paths(paths)?;
    // Watching starts first, so that a save during the first check is seen.
    let mut watched = Watched::new(&project, paths, args.serve)?;
    let (sender, events) = channel();
    let mut debouncer = watched.start(sender.clone())?;
    let mut kept = check::Kept::default();
    let outcome = check::check_paths_reusing(&project, paths, &mut kept)?;
    let mut text = check::rendered(&outcome, &outcome.diagnostics, format, terminal) + &check::summary(&outcome) + "\n";
    let mut known = Known::of(&outcome);
    drop(outcome);
    let server = if args.serve { Some(serve::Server::start(args.port)?) } else { None };
    if let Some(server) = &server {
        text.push_str(&refresh_preview(server, paths));
        text.push_str(&format!("serving the preview at http://{}/\n", server.address));
    }
    ctrlc::set_handler(move || {
        let _ = sender.send(Event::Stop);
    })
    .into_diagnostic()
    .wrap_err("cannot catch Ctrl-C")?;
    let mut running = print(&format!("{text}{}\n", watched.describe()));
    while running {
        let Some(changed) = next_change(&events) else { break };
        if watched.changed(debouncer.watcher(), &changed) {
            let mut text = recheck(paths, &mut known, &mut kept, format, terminal);
            if let Some(server) = &server {
                text.push_str(&refresh_preview(server, paths));
            }
            running = print(&text);
        }
    }
    drop(debouncer);
    eprintln!("stopped watching");
    Ok(ExitCode::SUCCESS)
}

/// Prints the preview again, as `print --format html` would, and serves it;
/// when the print cannot be made, serves a page saying why.  Returns a line
/// to show when the preview has problems of its own.
fn refresh_preview(server: &serve::Server, paths: &[PathBuf]) -> String {
    let preview = project::Project::for_paths(paths).and_then(|project| super::print::preview(&project, paths));
    let (page, line) = match preview {
        Ok(super::print::Preview::Page(page)) => (page, String::new()),
        Ok(super::print::Preview::Errors(outcome)) => {
            let problems = check::rendered(&outcome, &outcome.diagnostics, MessageFormat::Short, false);
            let n = outcome.stats.errors;
            let line = format!("preview: shows the {n} error{} to fix\n", if n == 1 { "" } else { "s" });
            (problem_page(&problems), line)
        }
        Err(report) => {
            let problem = super::describe(&report);
            (problem_page(&problem), format!("preview: {problem}\n"))
        }
    };
    server.publish(&page);
    line
}

/// A page that shows why there is no preview, and reloads as a preview does.
fn problem_page(problems: &str) -> Vec<u8> {
    let escaped = problems.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>cardsmith preview: problems</title></head>\n<body>\n<h1>No preview: fix these first</h1>\n<pre>{escaped}</pre>\n</body>\n</html>\n"
    )
    .into_bytes()
}

/// What the watcher and Ctrl-C tell the loop.
enum Event {
    Changed(Vec<PathBuf>),
    Failed(String),
    Stop,
}

/// Waits for the next change and takes the ones that came with it, as one
/// list of paths; `None` when the loop is to stop.  A watcher's error is
/// printed and waited past.
fn next_change(events: &Receiver<Event>) -> Option<Vec<PathBuf>> {
    let mut changed = Vec::new();
    let mut wait = true;
    loop {
        let event = if wait { events.recv().ok() } else { events.try_recv().ok() };
        match event {
            Some(Event::Changed(paths)) => changed.extend(paths),
            Some(Event::Failed(error)) => eprintln!("watch: {}", escape_controls(&error)),
            Some(Event::Stop) => return None,
            None if wait => return None,
            None => return Some(changed),
        }
        wait = changed.is_empty();
    }
}

/// Checks again and tells what changed since the last check: the new
/// diagnostics as `check` shows them, a `fixed:` line for each one gone, and
/// the summary with the count of each.  What is unchanged since the last
/// check is not parsed, checked or linted again.  A project that cannot be read (a
/// file removed as it was listed, a broken `cardsmith.toml`) is reported,
/// and the next save is checked against the last check that ran.
fn recheck(
    paths: &[PathBuf],
    known: &mut Known,
    kept: &mut check::Kept,
    format: MessageFormat,
    terminal: bool,
) -> String {
    let checked =
        project::Project::for_paths(paths).and_then(|project| check::check_paths_reusing(&project, paths, kept));
    let outcome = match checked {
        Ok(outcome) => outcome,
        Err(report) => return format!("{}\n", super::describe(&report)),
    };
    let (new, gone) = known.update(&outcome);
    let shown: Vec<Diagnostic> = new.iter().map(|&i| outcome.diagnostics[i].clone()).collect();
    let mut text = check::rendered(&outcome, &shown, format, terminal);
    for place in &gone {
        text.push_str(&format!("fixed: {place}\n"));
    }
    text.push_str(&format!("{} ({} new, {} fixed)\n", check::summary(&outcome), new.len(), gone.len()));
    text
}

/// Writes to standard output; false when no one reads it any more.
fn print(text: &str) -> bool {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).is_ok()
}

/// A diagnostic as one check is told from the next.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    code: &'static str,
    file: String,
    message: String,
    /// The start of the text it points at.
    text: String,
}

/// The diagnostics of the last check, by key, each with where it was.
#[derive(Default)]
struct Known(BTreeMap<Key, Vec<String>>);

impl Known {
    fn of(outcome: &Outcome) -> Known {
        let mut known = Known::default();
        for (key, place) in outcome.diagnostics.iter().map(|d| identify(outcome, d)) {
            known.0.entry(key).or_default().push(place);
        }
        known
    }

    /// Takes the diagnostics of a new check, and returns which of them are
    /// new (their indices) and where those that are gone were.
    fn update(&mut self, outcome: &Outcome) -> (Vec<usize>, Vec<String>) {
        let mut after = Known::default();
        let mut new = Vec::new();
        for (index, diagnostic) in outcome.diagnostics.iter().enumerate() {
            let (key, place) = identify(outcome, diagnostic);
            let before = self.0.get(&key).map_or(0, Vec::len);
            let places = after.0.entry(key).or_default();
            places.push(place);
            if places.len() > before {
                new.push(index);
            }
        }
        let gone = self
            .0
            .iter()
            .flat_map(|(key, places)| places.iter().skip(after.0.get(key).map_or(0, Vec::len)))
            .cloned()
            .collect();
        *self = after;
        (new, gone)
    }
}

/// A diagnostic's key, and where it is: `E0205 cards/x.cards:3: message`.
fn identify(outcome: &Outcome, diagnostic: &Diagnostic) -> (Key, String) {
    let code = diagnostic.code.id;
    let message = escape_controls(&diagnostic.message).into_owned();
    let Some(span) = diagnostic.primary_span() else {
        let place = format!("{code}: {message}");
        return (Key { code, file: String::new(), message, text: String::new() }, place);
    };
    let file = outcome.files.get(span.file);
    let (line, _) = file.line_column(span.start as usize);
    let mut text = outcome.files.text(span);
    let mut end = text.len().min(MOST_KEY_TEXT);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text = &text[..end];
    let name = escape_controls(&file.name).into_owned();
    // In a spreadsheet, the cell: `E0208 units.csv!C3: message`.
    let place = match outcome.files.cell(span) {
        Some(cell) => format!("{code} {name}!{}: {message}", cell.reference()),
        None => format!("{code} {name}:{line}: {message}"),
    };
    (Key { code, file: name, message, text: text.to_string() }, place)
}

/// What is watched: each folder read, with the folders under it; the folder
/// of each file read, for that file alone (an editor may save a file by
/// replacing it); and the project folder, for `cardsmith.toml`.
///
/// The watcher also reports files that are only read (by the check itself),
/// so a source counts as changed only when its size or modification time
/// has, and a folder only when it appears or goes.
struct Watched {
    folders: Vec<PathBuf>,
    files: Vec<PathBuf>,
    manifest: Option<PathBuf>,
    /// The output folders, never read: `build`'s, `print`'s and `export`'s.
    outputs: Vec<PathBuf>,
    /// What the project's `exclude` leaves out, never read either.
    exclusion: Option<project::Exclusion>,
    /// The folders watched so far.
    watching: BTreeSet<PathBuf>,
    /// Each source's size and modification time when last seen; `None` when
    /// it did not exist.
    stamps: HashMap<PathBuf, Option<Stamp>>,
    /// With `--serve`, the project folder, where what the preview draws with
    /// lies: templates, icons, fonts and art (see [`is_print_input`]).
    assets: Option<PathBuf>,
}

type Stamp = (u64, Option<std::time::SystemTime>);

fn stamp(path: &Path) -> Option<Stamp> {
    std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| (m.len(), m.modified().ok()))
}

impl Watched {
    fn new(project: &project::Project, paths: &[PathBuf], serve: bool) -> Result<Watched> {
        let real = |path: &Path| {
            path.canonicalize().into_diagnostic().wrap_err_with(|| format!("cannot watch {}", path.display()))
        };
        let (mut folders, mut files) = (Vec::new(), Vec::new());
        for path in project.paths(paths)? {
            if path.is_dir() {
                folders.push(real(&path)?);
            } else {
                let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
                files.push(real(parent)?.join(path.file_name().unwrap_or_default()));
            }
        }
        // A spreadsheet of cards is watched as a file named on its own.
        for sheet in project.sources(paths)?.1 {
            let parent = sheet.path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            files.push(real(parent)?.join(sheet.path.file_name().unwrap_or_default()));
        }
        let home = real(project.home())?;
        let settings = &project.manifest;
        let outputs = [
            (settings.build_out.as_ref().map(|(out, _)| out.as_str()), super::build::DEFAULT_OUT),
            (settings.print.out.as_ref().map(|(out, _)| out.as_str()), super::print::DEFAULT_OUT),
            (None, super::spreadsheet::DEFAULT_OUT),
        ];
        let outputs = outputs.iter().map(|(setting, default)| home.join(setting.unwrap_or(default))).collect();
        let manifest = project.root.as_ref().map(|_| home.join(project::MANIFEST));
        let exclusion = project.exclusion();
        let assets = serve.then(|| home.clone());
        let (watching, stamps) = (BTreeSet::new(), HashMap::new());
        Ok(Watched { folders, files, manifest, outputs, exclusion, watching, stamps, assets })
    }

    /// Starts watching; each batch of changes is sent as one event.
    fn start(&mut self, sender: Sender<Event>) -> Result<Debouncer<RecommendedWatcher>> {
        let mut debouncer = new_debouncer(QUIET, move |result: DebounceEventResult| {
            let event = match result {
                // A path still changing is reported again once quiet.
                Ok(events) => Event::Changed(
                    events.into_iter().filter(|e| e.kind == DebouncedEventKind::Any).map(|e| e.path).collect(),
                ),
                Err(error) => Event::Failed(error.to_string()),
            };
            let _ = sender.send(event);
        })
        .into_diagnostic()
        .wrap_err("cannot watch the project's folders")?;
        let watcher = debouncer.watcher();
        for folder in self.folders.clone() {
            self.watch_tree(watcher, &folder)?;
        }
        if let Some(home) = self.assets.clone() {
            self.watch_assets(watcher, &home)?;
        }
        let singles: Vec<PathBuf> = self.files.iter().chain(&self.manifest).cloned().collect();
        for file in singles {
            self.stamps.insert(file.clone(), stamp(&file));
            if let Some(folder) = file.parent().filter(|f| !self.under_folder(f)) {
                if self.watching.insert(folder.to_path_buf()) {
                    watch_one(watcher, folder, self.watching.len())?;
                }
            }
        }
        Ok(debouncer)
    }

    /// Watches `dir` and every folder under it that is read, and notes the
    /// stamp of each source in them.
    fn watch_tree(&mut self, watcher: &mut dyn Watcher, dir: &Path) -> Result<()> {
        if !self.watching.insert(dir.to_path_buf()) {
            return Ok(());
        }
        watch_one(watcher, dir, self.watching.len())?;
        let entries =
            std::fs::read_dir(dir).into_diagnostic().wrap_err_with(|| format!("cannot list {}", dir.display()))?;
        let mut folders = Vec::new();
        for path in entries.filter_map(|entry| entry.ok()).map(|entry| entry.path()) {
            if self.skipped(&path) {
                continue;
            }
            if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
                folders.push(path);
            } else if is_source(&path) {
                self.stamps.insert(path.clone(), stamp(&path));
            }
        }
        folders.sort();
        for folder in folders {
            self.watch_tree(watcher, &folder)?;
        }
        Ok(())
    }

    /// Watches `dir` and every folder under it but outputs, hidden folders
    /// and `target`, and notes the stamp of each print input in them.  The
    /// card folders among them keep the stamps of their sources.
    fn watch_assets(&mut self, watcher: &mut dyn Watcher, dir: &Path) -> Result<()> {
        if self.watching.insert(dir.to_path_buf()) {
            watch_one(watcher, dir, self.watching.len())?;
        }
        let entries =
            std::fs::read_dir(dir).into_diagnostic().wrap_err_with(|| format!("cannot list {}", dir.display()))?;
        let mut folders = Vec::new();
        for path in entries.filter_map(|entry| entry.ok()).map(|entry| entry.path()) {
            if !self.is_asset_place(&path) {
                continue;
            }
            if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
                folders.push(path);
            } else if is_print_input(&path) {
                self.stamps.insert(path.clone(), stamp(&path));
            }
        }
        folders.sort();
        for folder in folders {
            self.watch_assets(watcher, &folder)?;
        }
        Ok(())
    }

    /// Whether `path` lies where the preview's inputs are watched: in the
    /// project folder, under `--serve`, and in no output, hidden or `target`
    /// folder.
    fn is_asset_place(&self, path: &Path) -> bool {
        let Some(below) = self.assets.as_deref().and_then(|home| path.strip_prefix(home).ok()) else { return false };
        let hidden = below.components().any(|part| {
            let name = part.as_os_str().to_string_lossy();
            name.starts_with('.') || name == "target"
        });
        !hidden && !self.outputs.iter().any(|out| path.starts_with(out))
    }

    /// Whether the changes reported can change what a check finds, or the
    /// preview shows: a source or print input whose stamp changed, a folder
    /// that appeared (now watched too) or went.
    fn changed(&mut self, watcher: &mut dyn Watcher, paths: &[PathBuf]) -> bool {
        let mut changed = false;
        for path in paths.iter().collect::<BTreeSet<_>>() {
            let inside = self.under_folder(path) && !self.skipped(path);
            let is_folder = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
            let asset = self.is_asset_place(path);
            if asset && is_folder && !self.watching.contains(path) {
                if let Err(report) = self.watch_assets(watcher, path) {
                    eprintln!("{}", super::describe(&report));
                }
                changed = true;
            } else if asset && !is_folder && is_print_input(path) {
                let now = stamp(path);
                changed |= self.stamps.insert(path.clone(), now).flatten() != now;
            }
            if inside && is_folder && !self.watching.contains(path) {
                if let Err(report) = self.watch_tree(watcher, path) {
                    eprintln!("{}", super::describe(&report));
                }
                changed = true;
            } else if !is_folder && self.watching.remove(path) {
                self.watching.retain(|folder| !folder.starts_with(path));
                changed = true;
            } else if self.is_watched_source(path, inside) {
                let now = stamp(path);
                changed |= self.stamps.insert(path.clone(), now).flatten() != now;
            }
        }
        changed
    }

    fn is_watched_source(&self, path: &Path, inside: bool) -> bool {
        self.manifest.as_deref() == Some(path)
            || self.files.iter().any(|file| file == path)
            || inside && is_source(path)
    }

    fn under_folder(&self, path: &Path) -> bool {
        self.folders.iter().any(|folder| path.starts_with(folder))
    }

    /// Whether `path`, under a watched folder, is never read: it lies in an
    /// output folder, or in a hidden or `target` folder as `collect` skips,
    /// or the project's `exclude` leaves it out.
    fn skipped(&self, path: &Path) -> bool {
        if self.outputs.iter().any(|out| path.starts_with(out)) {
            return true;
        }
        if self.exclusion.as_ref().is_some_and(|e| e.excludes(path)) {
            return true;
        }
        let Some(below) = self.folders.iter().find_map(|folder| path.strip_prefix(folder).ok()) else {
            return false;
        };
        below.components().any(|part| {
            let name = part.as_os_str().to_string_lossy();
            name.starts_with('.') || name == "target"
        })
    }

    fn describe(&self) -> String {
        let name = |path: &PathBuf| match project::display_name(path) {
            name if name.is_empty() => ".".to_string(),
            name => name,
        };
        let mut shown: Vec<String> = self.folders.iter().map(|f| name(f) + "/").collect();
        shown.extend(self.files.iter().map(name));
        format!("watching {} for changes; Ctrl-C stops", shown.join(", "))
    }
}

/// A card or ruleset file, by its name: what `collect` reads in a folder.
fn is_source(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("rules" | "cards"))
}

/// A file the preview may draw with, by its name: a template or `icons.svg`
/// (SVG), a picture (PNG, JPEG, SVG) or a font (TrueType, OpenType).
fn is_print_input(path: &Path) -> bool {
    let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    matches!(extension.as_deref(), Some("svg" | "png" | "jpg" | "jpeg" | "ttf" | "otf"))
}

/// Watches one folder, not the folders under it: the `count`th.
fn watch_one(watcher: &mut dyn Watcher, dir: &Path, count: usize) -> Result<()> {
    if count > MOST_FOLDERS {
        return Err(miette!(
            help = "name the folders that hold the cards, on the command line or as `paths` in cardsmith.toml",
            "more than {MOST_FOLDERS} folders to watch under {}",
            dir.display()
        ));
    }
    watcher
        .watch(dir, RecursiveMode::NonRecursive)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot watch {}", dir.display()))
}
