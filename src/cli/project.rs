//! Finding the project and the files to read.

use miette::{miette, IntoDiagnostic, Result, WrapErr};
use std::path::{Path, PathBuf};

pub const MANIFEST: &str = "cardsmith.toml";

/// The folder holding `cardsmith.toml`, searched upwards from `start`.
pub fn find_root(start: &Path) -> Option<PathBuf> {
    start.ancestors().find(|dir| dir.join(MANIFEST).is_file()).map(Path::to_path_buf)
}

/// The paths a project checks by default: `paths` in its manifest, or the
/// project folder itself.
pub fn default_paths() -> Result<Vec<PathBuf>> {
    let cwd = std::env::current_dir().into_diagnostic()?;
    let Some(root) = find_root(&cwd) else {
        return Err(miette!(
            help = "run `cardsmith check PATH`, or create a project with `cardsmith new NAME`",
            "no {MANIFEST} in {} or any folder above it",
            cwd.display()
        ));
    };
    let table = manifest(&root)?;
    let Some(items) = table.get("project").and_then(|p| p.get("paths")).and_then(|p| p.as_array()) else {
        return Ok(vec![root]);
    };
    let inside = root.canonicalize().into_diagnostic()?;
    let mut paths = Vec::new();
    for item in items.iter().filter_map(|i| i.as_str()) {
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

/// The parsed `cardsmith.toml` of a project.
pub fn manifest(root: &Path) -> Result<toml::Table> {
    let manifest = root.join(MANIFEST);
    let text = super::read::text(&manifest, &super::read::MANIFEST)?;
    text.parse().map_err(|e| miette!("{}: {e}", manifest.display()))
}

/// The lint levels of the project around the current folder (`[lints]` in
/// its `cardsmith.toml`); the defaults when there is no project.
pub fn lint_config() -> Result<crate::lint::Config> {
    let mut config = crate::lint::Config::default();
    let Some(root) = std::env::current_dir().ok().and_then(|cwd| find_root(&cwd)) else { return Ok(config) };
    let table = manifest(&root)?;
    let Some(lints) = table.get("lints") else { return Ok(config) };
    let Some(lints) = lints.as_table() else {
        return Err(miette!("{}: `[lints]` must be a table of lint names and levels", root.join(MANIFEST).display()));
    };
    for (name, level) in lints {
        if crate::lint::lint(name).is_none() {
            return Err(miette!(
                help = "`cardsmith lint --list` lists the lints",
                "{}: no lint is named `{name}`",
                root.join(MANIFEST).display()
            ));
        }
        let Some(level) = level.as_str().and_then(crate::lint::Level::parse) else {
            return Err(miette!(
                help = "a level is \"allow\", \"warn\" or \"deny\"",
                "{}: the level of `{name}` must be allow, warn or deny",
                root.join(MANIFEST).display()
            ));
        };
        config.levels.insert(name.clone(), level);
    }
    Ok(config)
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
            walk.folder(path, &top)?;
        } else {
            walk.file(path);
        }
    }
    walk.found.sort();
    Ok(walk.found)
}

#[derive(Default)]
struct Walk {
    found: Vec<PathBuf>,
    /// Real paths of the folders and files read so far.
    seen: std::collections::HashSet<PathBuf>,
}

impl Walk {
    fn file(&mut self, path: &Path) {
        let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if self.seen.insert(real) {
            self.found.push(path.to_path_buf());
        }
    }

    fn folder(&mut self, dir: &Path, top: &Path) -> Result<()> {
        let real = dir.canonicalize().into_diagnostic().wrap_err_with(|| format!("cannot read {}", dir.display()))?;
        if !self.seen.insert(real) {
            return Ok(());
        }
        let entries =
            std::fs::read_dir(dir).into_diagnostic().wrap_err_with(|| format!("cannot list {}", dir.display()))?;
        let mut paths: Vec<PathBuf> =
            entries.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>().into_diagnostic()?;
        paths.sort();
        for path in paths {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with('.') || name == "target" {
                continue;
            }
            let link = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
            if link {
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
            }
            if path.is_dir() {
                self.folder(&path, top)?;
            } else if matches!(path.extension().and_then(|e| e.to_str()), Some("rules" | "cards")) {
                self.file(&path);
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
