//! `gen-corpus`: writes a large, realistic project for a bundled game, and
//! the same cards as engine data, for benchmarks and profiling.  A development
//! tool, not a user command.
//!
//! ```sh
//! cargo run --release --example gen-corpus -- dreadnaught-2e 100000 /tmp/corpus-100k
//! cardsmith check /tmp/corpus-100k/cards      # or: cd /tmp/corpus-100k && cardsmith check
//! ```
//!
//! It writes `OUT/cardsmith.toml`, `OUT/cards/…` (the cards, copies of the
//! game's sample cards, see `corpus.rs`) and `OUT/engine-data/GAME.json`
//! (what `cardsmith build` writes for them).  OUT must not exist yet.

mod corpus;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str =
    "usage: gen-corpus GAME CARDS OUT [--copies-per-file N]\n  e.g. gen-corpus dreadnaught-2e 10000 /tmp/corpus-10k";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("gen-corpus: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Vec<String>) -> Result<(), String> {
    let [game, cards, out, rest @ ..] = args.as_slice() else { return Err(USAGE.into()) };
    let cards: usize = cards.replace('_', "").parse().map_err(|_| format!("`{cards}` is not a number\n{USAGE}"))?;
    let copies_per_file = match rest {
        [] => 4,
        [flag, n] if flag == "--copies-per-file" => n.parse().map_err(|_| USAGE.to_string())?,
        _ => return Err(USAGE.into()),
    };
    let out = PathBuf::from(out);
    if out.exists() {
        return Err(format!("{} exists; give a new folder", out.display()));
    }
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"));
    let samples =
        corpus::sample_files(repository, game).map_err(|e| format!("cannot read the samples of `{game}`: {e}"))?;
    let template = corpus::Template::new(game, samples)?;
    let project = template.project(cards, copies_per_file);

    let mut workspace = cardsmith::workspace::Workspace::new();
    let mut bytes = 0;
    for file in &project.files {
        let path = out.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, &file.text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        if file.path.ends_with(".cards") {
            bytes += file.text.len();
            workspace.add_text(&file.path, &file.text);
        }
    }
    let outcome = workspace.check();
    if outcome.stats.errors + outcome.stats.warnings > 0 {
        let shown = &outcome.diagnostics[..outcome.diagnostics.len().min(5)];
        let rendered = cardsmith::diagnostics::render::human_string(&outcome.files, shown);
        return Err(format!(
            "the generated cards do not check clean ({} problems):\n{rendered}",
            outcome.diagnostics.len()
        ));
    }
    let engine = cardsmith::backend::json::build(&outcome.files, &outcome.project).map_err(|e| e.to_string())?;
    let data = out.join("engine-data");
    std::fs::create_dir_all(&data).map_err(|e| format!("cannot create {}: {e}", data.display()))?;
    for file in engine {
        std::fs::write(data.join(&file.name), &file.contents)
            .map_err(|e| format!("cannot write {}: {e}", file.name))?;
    }
    eprintln!(
        "wrote {}: {} cards and {} decks of {game} in {} files ({:.1} MB), and their engine data",
        out.display(),
        project.cards,
        project.decks,
        project.files.len() - 1,
        bytes as f64 / 1e6
    );
    Ok(())
}
