//! `cardsmith build [PATH...] [-o DIR]`: the engine data of a project, one
//! JSON document per ruleset plus `schema.json`, written atomically.

use super::project::Project;
use super::{atomic, check, output, read};
use cardsmith::backend::{self, json};
use cardsmith::diagnostics::render::MessageFormat;
use cardsmith::workspace::Outcome;
use miette::{miette, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The output folder when neither `-o` nor the manifest names one.
pub(super) const DEFAULT_OUT: &str = "out";

pub fn run(paths: &[PathBuf], out: Option<&Path>, format: MessageFormat) -> Result<ExitCode> {
    let project = Project::for_paths(paths)?;
    let inputs = inputs(&project, paths)?;
    let out = match out {
        Some(out) => out.to_path_buf(),
        None => project.output_folder(project.manifest.build_out.as_ref(), "[build] out", DEFAULT_OUT)?,
    };
    output::refuse_overlap(&out, &inputs, Some(project.home()))?;
    let outcome = load(&project, &inputs)?;
    check::print(&outcome, format)?;
    if outcome.stats.errors > 0 {
        eprintln!("nothing written: fix the errors first");
        super::leave_for_exit(outcome);
        return Ok(ExitCode::from(1));
    }
    output::require_cards(&outcome, &inputs)?;
    let files =
        json::plan(&outcome.project).map_err(|e| miette!(help = "ruleset ids name the files of a build", "{e}"))?;
    let names: Vec<String> = files.iter().map(json::EngineFile::name).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    atomic::replace_folder_streamed(&out, &names, |i, handle| {
        files[i].write(&outcome.files, handle).map_err(|e| miette!("{e}"))
    })?;
    eprintln!("wrote {} to {}", names.join(", "), out.display());
    drop(files);
    super::leave_for_exit(outcome);
    Ok(ExitCode::SUCCESS)
}

/// The files and folders to read, absolute: those given, else the project's.
pub fn inputs(project: &Project, paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    Ok(project.paths(paths)?.iter().map(|p| project.cwd.join(p)).collect())
}

/// Reads and checks the given files and folders (absolute), naming every file
/// by a relative path that does not depend on where cardsmith runs: relative
/// to the project root when the file is in the project, else to the current
/// folder, else to the folder holding the path it was found under.
pub fn load(project: &Project, inputs: &[PathBuf]) -> Result<Outcome> {
    let (cwd, root) = (&project.cwd, project.root.as_deref());
    let mut workspace = project.workspace();
    let (listed, sheets) = project.sources(&given(project, inputs))?;
    for file in &listed.files {
        let bytes = read::source(file)?;
        workspace.add_bytes(&source_name(file, inputs, cwd, root), bytes);
    }
    for mut sheet in sheets {
        sheet.sheet.name = source_name(&project.cwd.join(&sheet.path), inputs, cwd, root);
        workspace.add_sheet(sheet.sheet, &sheet.bytes);
    }
    let mut outcome = workspace.check();
    project.add_exclude_warnings(&listed, &mut outcome);
    project.add_missing_art(&mut outcome);
    Ok(outcome)
}

/// The paths named on the command line, out of the inputs `inputs` made
/// of them: none when the inputs are the project's own.
fn given(project: &Project, inputs: &[PathBuf]) -> Vec<PathBuf> {
    let own: Vec<PathBuf> = project.paths(&[]).unwrap_or_default().iter().map(|p| project.cwd.join(p)).collect();
    if own == inputs {
        Vec::new()
    } else {
        inputs.to_vec()
    }
}

fn source_name(file: &Path, given: &[PathBuf], cwd: &Path, root: Option<&Path>) -> String {
    let under_given = given.iter().filter_map(|g| g.parent()).find(|parent| file.starts_with(parent));
    let base = root.filter(|r| file.starts_with(r)).or(Some(cwd).filter(|c| file.starts_with(c))).or(under_given);
    let shown = base.and_then(|b| file.strip_prefix(b).ok()).unwrap_or(file);
    shown.to_string_lossy().replace('\\', "/")
}

/// The engine data of checked paths, in memory, exactly as `build` would
/// write it: for commands that consume the engine data without a build.
pub fn in_memory(outcome: &Outcome) -> Result<Vec<backend::OutputFile>> {
    json::build(&outcome.files, &outcome.project).map_err(|e| miette!("{e}"))
}
