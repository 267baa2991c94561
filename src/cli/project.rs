//! Finding the project and the files to read.

use cardsmith::config::Manifest;
use cardsmith::diagnostics::Diagnostic;
use cardsmith::source::{Files, Span};
use miette::{miette, IntoDiagnostic, Result, WrapErr};
use std::path::{Path, PathBuf};

pub const MANIFEST: &str = cardsmith::config::FILE_NAME;

/// The project around the current folder: where it is and its settings,
/// read once and shared by every command.
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

    /// Finds and reads the project around a folder, as if cardsmith ran there.
    pub fn find_from(cwd: PathBuf) -> Result<Project> {
        let root = find_root(&cwd);
        let (manifest, manifest_source) = match &root {
            Some(root) => {
                let (manifest, source) = read_manifest(&root.join(MANIFEST))?;
                (manifest, Some(source))
            }
            None => (Manifest::default(), None),
        };
        Ok(Project { cwd, root, manifest, manifest_source })
    }

    /// The paths to read: those given, else the project's `paths`, else the
    /// project folder itself.
    pub fn paths(&self, given: &[PathBuf]) -> Result<Vec<PathBuf>> {
        if !given.is_empty() {
            return Ok(given.to_vec());
        }
        let Some(root) = &self.root else {
            return Err(miette!(
                help = "run `cardsmith check PATH`, or create a project with `cardsmith new NAME`",
                "no {MANIFEST} in {} or any folder above it",
                self.cwd.display()
            ));
        };
        let Some(items) = &self.manifest.paths else { return Ok(vec![root.clone()]) };
        let inside = root.canonicalize().into_diagnostic()?;
        let mut paths = Vec::new();
        for (item, _) in items {
            let path = root.join(item);
            // A path that does not exist is reported when it is read.
            if path.canonicalize().is_ok_and(|p| !p.starts_with(&inside)) {
                return Err(miette!(
                    help = "keep the cards inside the project folder, or name the folder on the command line",
                    "{}: the path `{item}` leads outside the project folder {}",
                    root.join(MANIFEST).display(),
                    root.display()
                ));
            }
            paths.push(path);
        }
        Ok(paths)
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
    pub fn sources(&self, given: &[PathBuf]) -> Result<(Vec<PathBuf>, Vec<SheetFile>)> {
        let listed = self.listed_sheets()?;
        let real = |path: &Path| path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        let is_sheet = |path: &Path| listed.iter().any(|(p, _)| real(p) == real(path));
        let paths: Vec<PathBuf> = self.paths(given)?.into_iter().filter(|p| !is_sheet(p)).collect();
        let files = collect(&paths)?;
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

/// Every `.rules` and `.cards` file under the given paths, sorted, each once.
/// A file named explicitly is read whatever its extension.  Links met inside
/// a folder are followed only while they stay inside it: a link that leads
/// out is refused, and one that leads back to a folder already read (a loop)
/// is passed over, as is a second way to a file already found.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut walk = Walk::default();
    for path in paths {
        let meta =
            std::fs::metadata(path).into_diagnostic().wrap_err_with(|| format!("cannot read {}", path.display()))?;
        if meta.is_dir() {
            let top = path.canonicalize().into_diagnostic()?;
            walk.folder(path, top.clone(), &top)?;
        } else {
            let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
            walk.file(path, real);
        }
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
struct Walk {
    found: Vec<PathBuf>,
    /// Real paths of the folders and files read so far.
    seen: std::collections::HashSet<PathBuf>,
}

impl Walk {
    fn file(&mut self, path: &Path, real: PathBuf) {
        if self.seen.insert(real) {
            self.found.push(path.to_path_buf());
        }
    }

    /// Reads the folder `dir`, whose real path is `real`, inside `top`.
    fn folder(&mut self, dir: &Path, real: PathBuf, top: &Path) -> Result<()> {
        if !self.seen.insert(real.clone()) {
            return Ok(());
        }
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
            if is_dir {
                self.folder(&path, real_entry, top)?;
            } else if matches!(path.extension().and_then(|e| e.to_str()), Some("rules" | "cards")) {
                self.file(&path, real_entry);
            }
        }
        Ok(())
    }
}

/// A path as shown in diagnostics: relative to the current folder when under it.
pub fn display_name(path: &Path) -> String {
    let cwd = std::env::current_dir().ok();
    let shown = cwd.as_deref().and_then(|c| path.strip_prefix(c).ok()).unwrap_or(path);
    shown.to_string_lossy().replace('\\', "/")
}
