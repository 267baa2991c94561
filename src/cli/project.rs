//! Finding the project and the files to read.

use cardsmith::config::Manifest;
use cardsmith::diagnostics::Diagnostic;
use cardsmith::source::{Files, Span};
use miette::{miette, IntoDiagnostic, Result, WrapErr};
use std::path::{Path, PathBuf};

pub const MANIFEST: &str = cardsmith::config::FILE_NAME;

/// The project a command reads (the one holding its paths, else the one
/// around the current folder): where it is and its settings, read once and
/// shared by every part of the command.
pub struct Project {
    pub cwd: PathBuf,
    /// The folder holding `cardsmith.toml`, if any.
    pub root: Option<PathBuf>,
    pub manifest: Manifest,
    /// `cardsmith.toml` as it was read, for diagnostics that point into it
    /// later (a font it names that cannot be used): never read a second time,
    /// so such a span always points into the text the settings came from.
    pub manifest_source: Option<ManifestSource>,
}

/// A project file's name as shown and its text.
pub struct ManifestSource {
    pub name: String,
    pub text: String,
}

impl Project {
    /// Finds and reads the project around the current folder.  A project file
    /// with problems is reported in full and stops the command.
    pub fn find() -> Result<Project> {
        Project::find_from(std::env::current_dir().into_diagnostic()?)
    }

    /// Finds and reads the project of a command's paths: the one holding
    /// them, found upwards from each path (not from the current folder), so
    /// that `cardsmith check DIR` reads `DIR` with its own settings wherever
    /// it runs.  With no path, the project around the current folder.  A
    /// path in no project joins the others' project; paths in two projects
    /// are refused, since each project's settings are its own.
    pub fn for_paths(given: &[PathBuf]) -> Result<Project> {
        let cwd = std::env::current_dir().into_diagnostic()?;
        if given.is_empty() {
            return Project::find_from(cwd);
        }
        let root = root_of_paths(&cwd, given)?;
        Project::read(cwd, root)
    }

    /// Finds and reads the project around a folder, as if cardsmith ran there.
    pub fn find_from(cwd: PathBuf) -> Result<Project> {
        let root = find_root(&cwd);
        Project::read(cwd, root)
    }

    fn read(cwd: PathBuf, root: Option<PathBuf>) -> Result<Project> {
        let (manifest, manifest_source) = match &root {
            Some(root) => {
                let (manifest, source) = read_manifest(&root.join(MANIFEST))?;
                (manifest, Some(source))
            }
            None => (Manifest::default(), None),
        };
        Ok(Project { cwd, root, manifest, manifest_source })
    }

    /// The paths to read: those given, each but the project folder itself,
    /// which stands for the project's `paths`; with none given, the
    /// project's `paths`, else the project folder itself.
    pub fn paths(&self, given: &[PathBuf]) -> Result<Vec<PathBuf>> {
        if given.is_empty() {
            let Some(root) = &self.root else {
                return Err(miette!(
                    help = "run `cardsmith check PATH`, or create a project with `cardsmith new NAME`",
                    "no {MANIFEST} in {} or any folder above it",
                    self.cwd.display()
                ));
            };
            return self.listed(root);
        }
        let mut paths = Vec::new();
        for path in given {
            if self.is_root(path) {
                paths.extend(self.listed(path)?);
            } else {
                paths.push(path.clone());
            }
        }
        Ok(paths)
    }

    /// The project's `paths` (else its folder), written from `folder`, the
    /// project folder as it was named.  Each must stay inside the project.
    fn listed(&self, folder: &Path) -> Result<Vec<PathBuf>> {
        let Some(items) = &self.manifest.paths else { return Ok(vec![folder.to_path_buf()]) };
        let inside = folder.canonicalize().into_diagnostic()?;
        let mut paths = Vec::new();
        for (item, _) in items {
            let path = folder.join(item);
            // A path that does not exist is reported when it is read.
            if path.canonicalize().is_ok_and(|p| !p.starts_with(&inside)) {
                return Err(miette!(
                    help = "keep the cards inside the project folder, or name the folder on the command line",
                    "{}: the path `{item}` leads outside the project folder {}",
                    folder.join(MANIFEST).display(),
                    folder.display()
                ));
            }
            paths.push(path);
        }
        Ok(paths)
    }

    /// Whether a path given on the command line is the project folder.
    fn is_root(&self, path: &Path) -> bool {
        let real = |p: &Path| p.canonicalize().ok();
        self.root.as_deref().and_then(real).is_some_and(|root| real(&self.cwd.join(path)) == Some(root))
    }

    /// The folder outputs are kept in by default: the project folder, or the
    /// current folder outside a project.  It is the one input folder an
    /// output may lie inside (`cardsmith build .` writes `./out`).
    pub fn home(&self) -> &Path {
        self.root.as_deref().unwrap_or(&self.cwd)
    }

    /// An output folder: the one the manifest's `key` names (`setting`),
    /// else `default`, relative to the project root (or to the current folder
    /// outside a project).  A folder the manifest names must lie inside the
    /// project, links followed, so that a project from someone else cannot
    /// write elsewhere; it is an `E0013` at the setting otherwise.  (`--out`
    /// on the command line is the user's own word and may name any folder.)
    pub fn output_folder(&self, setting: Option<&(String, Span)>, key: &str, default: &str) -> Result<PathBuf> {
        let Some((name, span)) = setting else { return Ok(self.home().join(default)) };
        let folder = self.home().join(name);
        let (Some(root), Some(source)) = (&self.root, &self.manifest_source) else { return Ok(folder) };
        let real_root = root.canonicalize().into_diagnostic()?;
        let real = super::output::resolve(&folder);
        if real.starts_with(&real_root) && real != real_root {
            return Ok(folder);
        }
        let mut files = Files::new();
        let id = files.add(&source.name, source.text.as_str());
        let outside = Diagnostic::error(
            &cardsmith::config::CONFIG_BAD_VALUE,
            format!("`{key}` must be a folder inside the project, and `{name}` is not"),
        )
        .primary(Span::new(id, span.start as usize, span.end as usize), format!("leads to {}", real.display()))
        .help("name a folder inside the project, such as \"out\"; `--out DIR` on the command line can name any folder");
        Err(report(&files, &[outside]))
    }

    /// The card and ruleset files under `paths` (as [`Project::paths`]
    /// gives them), sorted, each once, without what the project's `exclude`
    /// leaves out.  A folder named on the command line whose every file
    /// `exclude` leaves out is refused: its name would otherwise read
    /// nothing, silently.
    pub fn files(&self, paths: &[PathBuf]) -> Result<Listed> {
        let exclusion = self.exclusion();
        let mut walk = Walk { excluding: exclusion.as_ref().map(Excluding::new), ..Walk::default() };
        let whole = self.reads_whole(paths);
        for path in paths {
            let before = (walk.found.len(), walk.excluding.as_ref().map_or(0, |e| e.left_out));
            walk.path(path)?;
            let left_out = walk.excluding.as_ref().map_or(0, |e| e.left_out) - before.1;
            if !whole && left_out > 0 && walk.found.len() == before.0 {
                return Err(miette!(
                    help = "name the files themselves to read them, or change `exclude` in the project file",
                    "`exclude` in {} leaves out every card and ruleset file under {}",
                    display_name(&self.home().join(MANIFEST)),
                    display_name(path)
                ));
            }
        }
        walk.found.sort();
        let used = walk.excluding.map(|e| e.used).filter(|_| whole);
        Ok(Listed { files: walk.found, used })
    }

    /// Whether `paths` cover all the project's own: only then can a
    /// pattern of `exclude` that left out nothing be told of.
    fn reads_whole(&self, paths: &[PathBuf]) -> bool {
        let Some(root) = &self.root else { return false };
        let real: std::collections::HashSet<PathBuf> = paths.iter().filter_map(|p| p.canonicalize().ok()).collect();
        self.listed(root).is_ok_and(|listed| listed.iter().all(|p| p.canonicalize().is_ok_and(|p| real.contains(&p))))
    }

    /// The project's `exclude` with the folder it is relative to.
    pub fn exclusion(&self) -> Option<Exclusion> {
        let root = self.root.as_ref()?.canonicalize().ok()?;
        (!self.manifest.exclude.is_empty()).then(|| Exclusion { root, exclude: self.manifest.exclude.clone() })
    }

    /// The warnings about `exclude` from listing the files: a pattern that
    /// left out nothing.  The project file joins `files` when there is one.
    pub fn exclude_warnings(&self, listed: &Listed, files: &mut Files) -> Vec<Diagnostic> {
        let (Some(used), Some(source)) = (&listed.used, &self.manifest_source) else { return Vec::new() };
        if used.iter().all(|u| *u) {
            return Vec::new();
        }
        let id = files.add(&source.name, source.text.as_str());
        self.manifest.exclude.unused(used, id)
    }

    /// Adds a warning at each card's picture that is not in the project
    /// (`W0716`): `print` would draw a placeholder in its place.
    pub fn add_missing_art(&self, outcome: &mut cardsmith::workspace::Outcome) {
        add_missing_art(self.home(), outcome);
    }

    /// Adds [`Project::exclude_warnings`] to a check's outcome.
    pub fn add_exclude_warnings(&self, listed: &Listed, outcome: &mut cardsmith::workspace::Outcome) {
        let warnings = self.exclude_warnings(listed, &mut outcome.files);
        outcome.stats.warnings += warnings.len();
        outcome.diagnostics.extend(warnings);
    }

    /// A workspace with the project's settings applied.
    pub fn workspace(&self) -> cardsmith::workspace::Workspace {
        let mut workspace = cardsmith::workspace::Workspace::new();
        workspace.set_lint_config(self.manifest.lints.clone());
        workspace
    }
}

/// A spreadsheet of cards the project lists (`[[sheet]]`), read.
pub struct SheetFile {
    pub path: PathBuf,
    /// Its settings, named as shown from the current folder.
    pub sheet: cardsmith::spreadsheet::sheet::Sheet,
    pub bytes: Vec<u8>,
}

impl Project {
    /// The card and ruleset files to read for the paths given (or the
    /// project's), and the spreadsheets of cards among them: every sheet
    /// the project lists when no path is given, else those the paths name
    /// or hold.  A sheet named on the command line is read as a sheet.
    pub fn sources(&self, given: &[PathBuf]) -> Result<(Listed, Vec<SheetFile>)> {
        let listed = self.listed_sheets()?;
        let real = |path: &Path| path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        let is_sheet = |path: &Path| listed.iter().any(|(p, _)| real(p) == real(path));
        let paths: Vec<PathBuf> = self.paths(given)?.into_iter().filter(|p| !is_sheet(p)).collect();
        let files = self.files(&paths)?;
        let mut sheets = Vec::new();
        for (path, setting) in listed {
            let wanted = given.is_empty() || given.iter().any(|g| real(&path).starts_with(real(g)));
            if wanted {
                let bytes = super::read::bytes(&path, &super::read::TABLE)?;
                let sheet = self.sheet(&path, setting);
                sheets.push(SheetFile { path, sheet, bytes });
            }
        }
        Ok((files, sheets))
    }

    /// Each `[[sheet]]` by its path, which must lie inside the project.
    fn listed_sheets(&self) -> Result<Vec<(PathBuf, &cardsmith::config::SheetSetting)>> {
        let Some(root) = &self.root else { return Ok(Vec::new()) };
        let inside = root.canonicalize().into_diagnostic()?;
        let mut listed = Vec::new();
        for setting in &self.manifest.sheets {
            let path = root.join(&setting.path.0);
            if path.canonicalize().is_ok_and(|p| !p.starts_with(&inside)) {
                return Err(miette!(
                    help = "keep the sheet inside the project folder",
                    "{}: the sheet `{}` lies outside the project folder {}",
                    root.join(MANIFEST).display(),
                    setting.path.0,
                    root.display()
                ));
            }
            listed.push((path, setting));
        }
        Ok(listed)
    }

    /// A sheet's settings as the library takes them, with the places of its
    /// game and kind in the project file.
    fn sheet(&self, path: &Path, setting: &cardsmith::config::SheetSetting) -> cardsmith::spreadsheet::sheet::Sheet {
        let game = setting.game.clone().map(|(game, span)| (game, Some(span.range())));
        let (game, game_at) = game.unwrap_or_else(|| (self.manifest.game.clone().unwrap_or_default(), None));
        let listed = self.manifest_source.as_ref().map(|source| cardsmith::spreadsheet::sheet::Listed {
            file: source.name.clone(),
            text: source.text.clone(),
            game: game_at,
            kind: setting.kind.1.range(),
        });
        cardsmith::spreadsheet::sheet::Sheet {
            name: display_name(path),
            game,
            kind: setting.kind.0.clone(),
            worksheet: setting.worksheet.clone(),
            mapping: setting.map.clone(),
            listed,
        }
    }
}

/// What a command reads: files, and for `exclude`, which patterns left out
/// something (when the whole project was read).
pub struct Listed {
    pub files: Vec<PathBuf>,
    /// One flag a pattern of `exclude`, set when it left out something;
    /// `None` when the paths read are not the whole project.
    used: Option<Vec<bool>>,
}

/// The project's `exclude`, relative to its real folder.
pub struct Exclusion {
    root: PathBuf,
    exclude: cardsmith::config::Exclude,
}

impl Exclusion {
    /// Whether `path` (absolute) is left out: it, or a folder holding it
    /// inside the project, matches a pattern.  A path not written from the
    /// project's real folder is found there through its real folder.
    pub fn excludes(&self, path: &Path) -> bool {
        let real;
        let inside = match path.strip_prefix(&self.root) {
            Ok(inside) => inside,
            Err(_) => {
                let Some(folder) = path.parent().and_then(|p| p.canonicalize().ok()) else { return false };
                real = folder.join(path.file_name().unwrap_or_default());
                let Ok(inside) = real.strip_prefix(&self.root) else { return false };
                inside
            }
        };
        let mut used = vec![false; self.exclude.patterns.len()];
        inside.ancestors().filter(|a| !a.as_os_str().is_empty()).any(|a| self.exclude.excludes(a, &mut used))
    }
}

/// The one project holding the given paths, found upwards from each: the
/// folder holding its `cardsmith.toml`, or `None` when no path is in one.
fn root_of_paths(cwd: &Path, given: &[PathBuf]) -> Result<Option<PathBuf>> {
    let mut found: Option<(PathBuf, &PathBuf)> = None;
    for path in given {
        let Some(root) = root_of(&cwd.join(path)) else { continue };
        match &found {
            Some((first, first_path)) if *first != root => {
                return Err(miette!(
                    help = "run cardsmith once for each project: each reads its files with its own settings (lint levels, paths, exclude, outputs)",
                    "the paths given lie in two projects: `{}` is read with {}, and `{}` with {}",
                    display_name(first_path),
                    display_name(&first.join(MANIFEST)),
                    display_name(path),
                    display_name(&root.join(MANIFEST))
                ))
            }
            Some(_) => {}
            None => found = Some((root, path)),
        }
    }
    Ok(found.map(|(root, _)| root))
}

/// The folder holding the `cardsmith.toml` of a file or folder, searched
/// upwards from its real place; `None` for a path that does not exist (it
/// is reported when it is read) or lies in no project.
fn root_of(path: &Path) -> Option<PathBuf> {
    let real = path.canonicalize().ok()?;
    let folder = if real.is_dir() { real } else { real.parent()?.to_path_buf() };
    find_root(&folder)
}

/// The folder holding `cardsmith.toml`, searched upwards from `start`.
pub fn find_root(start: &Path) -> Option<PathBuf> {
    start.ancestors().find(|dir| dir.join(MANIFEST).is_file()).map(Path::to_path_buf)
}

/// Reads and validates a project file, printing its problems.
fn read_manifest(path: &Path) -> Result<(Manifest, ManifestSource)> {
    let text = super::read::text(path, &super::read::MANIFEST)?;
    let mut files = Files::new();
    let name = display_name(path);
    let id = files.add(&name, text.clone());
    let (manifest, problems) = cardsmith::config::parse(&files, id);
    if problems.is_empty() {
        Ok((manifest, ManifestSource { name, text }))
    } else {
        Err(report(&files, &problems))
    }
}

/// Shows the problems of a project file and stops the command.
fn report(files: &Files, problems: &[cardsmith::diagnostics::Diagnostic]) -> miette::Report {
    eprint!("{}", cardsmith::diagnostics::render::human_string(files, problems));
    let n = problems.len();
    miette!(
        help = "fix the project file first: it is read before any card",
        "{MANIFEST} has {n} problem{}; nothing was done",
        if n == 1 { "" } else { "s" }
    )
}

/// The most card and ruleset files one run reads: a project of 100,000
/// cards written one card a file.
pub const MOST_FILES: usize = 100_000;

/// Every `.rules` and `.cards` file under the given paths, sorted, each once.
/// A file named explicitly is read whatever its extension.  Links met inside
/// a folder are followed only while they stay inside it: a link that leads
/// out is refused, and one that leads back to a folder already read (a loop)
/// is passed over, as is a second way to a file already found.
///
/// At most `most_folders` folders are read when given: for a folder that
/// may be anything, such as the one an editor opens.
pub fn collect_bounded(paths: &[PathBuf], most_folders: Option<usize>) -> Result<Vec<PathBuf>> {
    let mut walk = Walk { most_folders, ..Walk::default() };
    for path in paths {
        walk.path(path)?;
    }
    walk.found.sort();
    Ok(walk.found)
}

/// A walk over folders.  Each entry's real path is its folder's with its
/// name added, unless it is a link: only a link is resolved, so that the
/// walk takes time in line with what it finds, however deep the folders
/// nest (resolving every path anew costs in the square of the depth, and
/// the system's own walk of each long path once more).
#[derive(Default)]
struct Walk<'a> {
    found: Vec<PathBuf>,
    /// Real paths of the folders and files read so far.
    seen: std::collections::HashSet<PathBuf>,
    /// The project's `exclude`, when the walk applies it.
    excluding: Option<Excluding<'a>>,
    /// The most folders read, when bounded, and how many were.
    most_folders: Option<usize>,
    folders: usize,
}

/// An `exclude` applied by a walk: which patterns matched, and how many
/// folders and files it left out.
struct Excluding<'a> {
    exclusion: &'a Exclusion,
    used: Vec<bool>,
    left_out: usize,
}

impl<'a> Excluding<'a> {
    fn new(exclusion: &'a Exclusion) -> Excluding<'a> {
        Excluding { exclusion, used: vec![false; exclusion.exclude.patterns.len()], left_out: 0 }
    }

    /// Whether the folder or file at the real path `real` is left out.
    fn excludes(&mut self, real: &Path) -> bool {
        let Ok(inside) = real.strip_prefix(&self.exclusion.root) else { return false };
        let excluded = self.exclusion.exclude.excludes(inside, &mut self.used);
        self.left_out += usize::from(excluded);
        excluded
    }
}

impl Walk<'_> {
    /// Reads a path named on the command line (or in `paths`): a folder is
    /// walked, a file is taken whatever its name and `exclude` say.
    fn path(&mut self, path: &Path) -> Result<()> {
        let meta =
            std::fs::metadata(path).into_diagnostic().wrap_err_with(|| format!("cannot read {}", path.display()))?;
        if meta.is_dir() {
            let top = path.canonicalize().into_diagnostic()?;
            self.folder(path, top.clone(), &top)
        } else {
            let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
            self.file(path, real)
        }
    }

    fn file(&mut self, path: &Path, real: PathBuf) -> Result<()> {
        if self.seen.insert(real) {
            if self.found.len() == MOST_FILES {
                return Err(miette!(
                    help = "name fewer folders, or leave folders out with `exclude` in cardsmith.toml",
                    "more than {MOST_FILES} card and ruleset files to read, the most one run reads; the one past it is {}",
                    path.display()
                ));
            }
            self.found.push(path.to_path_buf());
        }
        Ok(())
    }

    /// Reads the folder `dir`, whose real path is `real`, inside `top`.
    fn folder(&mut self, dir: &Path, real: PathBuf, top: &Path) -> Result<()> {
        if !self.seen.insert(real.clone()) {
            return Ok(());
        }
        self.count_folder(dir)?;
        let entries =
            std::fs::read_dir(dir).into_diagnostic().wrap_err_with(|| format!("cannot list {}", dir.display()))?;
        let mut entries: Vec<std::fs::DirEntry> = entries.collect::<Result<_, _>>().into_diagnostic()?;
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for entry in entries {
            let (path, file_name) = (entry.path(), entry.file_name());
            let name = file_name.to_str().unwrap_or("");
            if name.starts_with('.') || name == "target" {
                continue;
            }
            let link = entry.file_type().is_ok_and(|t| t.is_symlink());
            let (real_entry, is_dir) = if link {
                // A dangling link is no file to read.
                let Ok(target) = path.canonicalize() else { continue };
                if !target.starts_with(top) {
                    return Err(miette!(
                        help = "copy what it links to into the folder, or name that path on the command line",
                        "{} links to {}, outside {}",
                        path.display(),
                        target.display(),
                        top.display()
                    ));
                }
                let is_dir = target.is_dir();
                (target, is_dir)
            } else {
                (real.join(&file_name), entry.file_type().is_ok_and(|t| t.is_dir()))
            };
            let source = matches!(path.extension().and_then(|e| e.to_str()), Some("rules" | "cards"));
            if (is_dir || source) && self.excluding.as_mut().is_some_and(|e| e.excludes(&real_entry)) {
                continue;
            }
            if is_dir {
                self.folder(&path, real_entry, top)?;
            } else if source {
                self.file(&path, real_entry)?;
            }
        }
        Ok(())
    }

    /// Counts a folder against [`Walk::most_folders`].
    fn count_folder(&mut self, dir: &Path) -> Result<()> {
        self.folders += 1;
        match self.most_folders {
            Some(most) if self.folders > most => Err(miette!(
                help = "open the folder of a project, or put a cardsmith.toml in this one naming the folders of its cards (`paths`)",
                "more than {most} folders to read, the most read in a folder that is no project; the one past it is {}",
                dir.display()
            )),
            _ => Ok(()),
        }
    }
}

/// A path as shown in diagnostics: relative to the current folder when under it.
pub fn display_name(path: &Path) -> String {
    let cwd = std::env::current_dir().ok();
    let shown = cwd.as_deref().and_then(|c| path.strip_prefix(c).ok()).unwrap_or(path);
    shown.to_string_lossy().replace('\\', "/")
}

/// Adds a warning at each card's picture that is not in the project folder
/// `home` (`W0716`), as `check` and the language server report it.
pub fn add_missing_art(home: &Path, outcome: &mut cardsmith::workspace::Outcome) {
    let found = cardsmith::backend::print::art::missing(&outcome.project, |path| home.join(path).exists());
    if found.is_empty() {
        return;
    }
    for mut diagnostic in found {
        for label in &mut diagnostic.labels {
            label.span = outcome.files.origin(label.span);
        }
        outcome.stats.warnings += 1;
        outcome.diagnostics.push(diagnostic);
    }
    cardsmith::diagnostics::sort(&mut outcome.diagnostics);
}
