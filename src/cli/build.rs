//! `cardsmith build [PATH...] [-o DIR]`: the engine data of a project, one
//! JSON document per ruleset plus `schema.json`, written atomically.

use super::{atomic, check, output, project, read};
use crate::backend::{self, json};
use crate::diagnostics::render::MessageFormat;
use crate::workspace::{Outcome, Workspace};
use miette::{miette, IntoDiagnostic, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The output folder when neither `-o` nor the manifest names one.
const DEFAULT_OUT: &str = "out";

pub fn run(paths: &[PathBuf], out: Option<&Path>, format: MessageFormat) -> Result<ExitCode> {
    let cwd = std::env::current_dir().into_diagnostic()?;
    let root = project::find_root(&cwd);
    let inputs = inputs(paths, &cwd)?;
    let out = match out {
        Some(out) => out.to_path_buf(),
        None => default_out(&cwd, root.as_deref())?,
    };
    output::refuse_overlap(&out, &inputs, root.as_deref())?;
    let outcome = load(&inputs, &cwd, root.as_deref())?;
    check::print(&outcome, format)?;
    if outcome.stats.errors > 0 {
        eprintln!("nothing written: fix the errors first");
        return Ok(ExitCode::from(1));
    }
    output::require_cards(&outcome, &inputs)?;
    let files = json::build(&outcome.files, &outcome.project)
        .map_err(|e| miette!(help = "ruleset ids name the files of a build", "{e}"))?;
    atomic::replace_folder(&out, &files)?;
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    eprintln!("wrote {} to {}", names.join(", "), out.display());
    Ok(ExitCode::SUCCESS)
}

/// The files and folders to read, absolute: those given, else the project's.
pub fn inputs(paths: &[PathBuf], cwd: &Path) -> Result<Vec<PathBuf>> {
    let paths = if paths.is_empty() { project::default_paths()? } else { paths.to_vec() };
    Ok(paths.iter().map(|p| cwd.join(p)).collect())
}

/// Reads and checks the given files and folders (absolute), naming every file
/// by a relative path that does not depend on where cardsmith runs: relative
/// to the project root when the file is in the project, else to the current
/// folder, else to the folder holding the path it was found under.
pub fn load(inputs: &[PathBuf], cwd: &Path, root: Option<&Path>) -> Result<Outcome> {
    let mut workspace = Workspace::new();
    for file in project::collect(inputs)? {
        let bytes = read::source(&file)?;
        workspace.add_bytes(&source_name(&file, inputs, cwd, root), bytes);
    }
    Ok(workspace.check())
}

fn source_name(file: &Path, given: &[PathBuf], cwd: &Path, root: Option<&Path>) -> String {
    let under_given = given.iter().filter_map(|g| g.parent()).find(|parent| file.starts_with(parent));
    let base = root.filter(|r| file.starts_with(r)).or(Some(cwd).filter(|c| file.starts_with(c))).or(under_given);
    let shown = base.and_then(|b| file.strip_prefix(b).ok()).unwrap_or(file);
    shown.to_string_lossy().replace('\\', "/")
}

/// `[build] out` of the manifest, relative to the project root; else `out`
/// in the project root, or in the current folder outside a project.
fn default_out(cwd: &Path, root: Option<&Path>) -> Result<PathBuf> {
    let Some(root) = root else { return Ok(cwd.join(DEFAULT_OUT)) };
    let manifest = project::manifest(root)?;
    match manifest.get("build").and_then(|b| b.get("out")) {
        None => Ok(root.join(DEFAULT_OUT)),
        Some(toml::Value::String(out)) => Ok(root.join(out)),
        Some(_) => Err(miette!(
            help = "write `[build]` then `out = \"out\"`",
            "`build.out` in {} must be a folder name in quotes",
            root.join(project::MANIFEST).display()
        )),
    }
}

/// The engine data of checked paths, in memory, exactly as `build` would
/// write it: for commands that consume the engine data without a build.
pub fn in_memory(outcome: &Outcome) -> Result<Vec<backend::OutputFile>> {
    json::build(&outcome.files, &outcome.project).map_err(|e| miette!("{e}"))
}
