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
    let paths = table
        .get("project")
        .and_then(|p| p.get("paths"))
        .and_then(|p| p.as_array())
        .map(|items| items.iter().filter_map(|i| i.as_str()).map(|p| root.join(p)).collect::<Vec<_>>());
    Ok(paths.unwrap_or_else(|| vec![root]))
}

/// The parsed `cardsmith.toml` of a project.
pub fn manifest(root: &Path) -> Result<toml::Table> {
    let manifest = root.join(MANIFEST);
    let text = std::fs::read_to_string(&manifest)
        .into_diagnostic()
        .wrap_err_with(|| format!("reading {}", manifest.display()))?;
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
/// A file named explicitly is read whatever its extension.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for path in paths {
        let meta =
            std::fs::metadata(path).into_diagnostic().wrap_err_with(|| format!("cannot read {}", path.display()))?;
        if meta.is_dir() {
            walk(path, &mut found)?;
        } else {
            found.push(path.clone());
        }
    }
    found.sort();
    found.dedup();
    Ok(found)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).into_diagnostic().wrap_err_with(|| format!("cannot list {}", dir.display()))?;
    for entry in entries {
        let path = entry.into_diagnostic()?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if path.is_dir() {
            walk(&path, found)?;
        } else if matches!(path.extension().and_then(|e| e.to_str()), Some("rules" | "cards")) {
            found.push(path);
        }
    }
    Ok(())
}

/// A path as shown in diagnostics: relative to the current folder when under it.
pub fn display_name(path: &Path) -> String {
    let cwd = std::env::current_dir().ok();
    let shown = cwd.as_deref().and_then(|c| path.strip_prefix(c).ok()).unwrap_or(path);
    shown.to_string_lossy().replace('\\', "/")
}
