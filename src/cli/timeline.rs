//! `cardsmith timeline`: the order in which the effects of the cards each
//! side plays in a turn resolve.  It reads only engine data — a document
//! written by `cardsmith build`, or the same JSON built in memory — through
//! the engine's own types.

use super::{build, check, read};
use cardsmith::engine::data::Document;
use cardsmith::engine::timeline::{self, Play, TimelineError};
use miette::{miette, IntoDiagnostic, Result};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(
    group(clap::ArgGroup::new("cards").required(true).multiple(true).args(["attacker", "defender"])),
    after_help = "Examples:\n  cardsmith timeline cards/dreadnaught-2e --attacker \"Spinal Railcannon\" --attacker \"Follow-Through\" --defender \"Debris\"\n  cardsmith timeline --data out/dreadnaught-2e.json --attacker \"Kinetic Strike\" --format json"
)]
pub struct Args {
    /// Files or folders to build the engine data from in memory (default: the project)
    paths: Vec<PathBuf>,
    /// A card the attacker plays this turn, by name (repeat for several)
    #[arg(long, value_name = "CARD")]
    attacker: Vec<String>,
    /// A card the defender plays this turn, by name (repeat for several)
    #[arg(long, value_name = "CARD")]
    defender: Vec<String>,
    /// Read this engine data document (written by `cardsmith build`) instead of building
    #[arg(long, value_name = "FILE", conflicts_with = "paths")]
    data: Option<PathBuf>,
    /// The game to use when the paths hold several
    #[arg(long, value_name = "RULESET")]
    game: Option<String>,
    /// How to print the timeline
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// How to print diagnostics when building
    #[arg(long, value_enum, default_value = "human")]
    message_format: super::DiagnosticFormat,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let documents = match &args.data {
        Some(path) => {
            let text = read::text(path, &read::ENGINE_DATA)?;
            vec![(path.display().to_string(), text)]
        }
        None => {
            let project = super::project::Project::find()?;
            let outcome = build::load(&project, &build::inputs(&project, &args.paths)?)?;
            if outcome.stats.errors > 0 {
                check::print(&outcome, args.message_format.into())?;
                return Ok(ExitCode::from(1));
            }
            let files = build::in_memory(&outcome)?;
            files
                .into_iter()
                .filter(|f| f.name != cardsmith::backend::json::SCHEMA_FILE)
                .map(|f| (f.name, f.contents))
                .collect()
        }
    };
    let mut parsed = Vec::new();
    for (name, text) in &documents {
        parsed.push(Document::from_json(text).map_err(|e| miette!("{name}: {e}"))?);
    }
    let plays: Vec<Play> = [("attacker", &args.attacker), ("defender", &args.defender)]
        .into_iter()
        .flat_map(|(side, cards)| cards.iter().map(move |card| Play { side: side.to_string(), card: card.clone() }))
        .collect();
    let document = choose(&parsed, args.game.as_deref(), &plays)?;
    let timeline = timeline::timeline(document, &plays).map_err(|e| match &e {
        TimelineError::UnknownCard { closest: Some(closest), .. } => {
            miette!(help = format!("did you mean `{closest}`?"), "{e} in `{}`", document.ruleset.id)
        }
        TimelineError::UnknownCard { .. } => miette!("{e} in `{}`", document.ruleset.id),
        TimelineError::NoScale(_) => miette!(help = "the timeline needs a ruleset with an `initiative` scale", "{e}"),
    })?;
    match args.format {
        Format::Text => super::stdout(&cardsmith::engine::text::render(&timeline))?,
        Format::Json => super::stdout(&format!("{}\n", serde_json::to_string_pretty(&timeline).into_diagnostic()?))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The game named by `--game`, else the one game that has every card played.
fn choose<'d>(documents: &'d [Document], game: Option<&str>, plays: &[Play]) -> Result<&'d Document> {
    let ids = || documents.iter().map(|d| d.ruleset.id.as_str()).collect::<Vec<_>>().join(", ");
    if let Some(game) = game {
        return documents
            .iter()
            .find(|d| d.ruleset.id == game)
            .ok_or_else(|| miette!(help = format!("games here: {}", ids()), "no game `{game}` in the engine data"));
    }
    if let [only] = documents {
        return Ok(only);
    }
    let fitting: Vec<&Document> =
        documents.iter().filter(|d| plays.iter().all(|p| d.card(&p.card).is_some())).collect();
    match fitting.as_slice() {
        [one] => Ok(one),
        [] => {
            Err(miette!(help = format!("games here: {}; pick one with --game", ids()), "no game has every card played"))
        }
        _ => Err(miette!(
            help = format!("games here: {}; pick one with --game", ids()),
            "several games have these cards"
        )),
    }
}
