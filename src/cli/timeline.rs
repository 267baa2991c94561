//! `cardsmith timeline`: the order in which the plays of a turn resolve, for
//! any game whose ruleset declares its timing.  It reads only engine data — a
//! document written by `cardsmith build`, or the same JSON built in memory —
//! through the engine's own types.  Sides are what the ruleset declares (or
//! player numbers); nothing here knows a game.

use super::engine_data;

use cardsmith::engine::data::Document;
use cardsmith::engine::timeline::{self, Play, TimelineError};
use miette::{miette, IntoDiagnostic, Result};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(
    after_help = "SIDE is a player number (1, 2 …) or a side the ruleset declares (`side NAME \"Name\" player N`); \
                  NAME is a card, or a deck that a phase of the turn plays whole.\n\nExamples:\n  \
                  cardsmith timeline cards/my-game --play \"1:Fireball\" --play \"2:Shield Wall\" --play \"1:Second Wind\"\n  \
                  cardsmith timeline --data out/my-game.json --play \"north:Fireball\" --play \"south:Shield Wall\" --format json"
)]
pub struct Args {
    /// Files or folders to build the engine data from in memory (default: the project)
    paths: Vec<PathBuf>,
    /// A card (or a deck that a phase plays whole) that a side plays this
    /// turn; repeat for several, each side's in the order it plays them
    #[arg(long = "play", value_name = "SIDE:NAME", required_unless_present = "decks")]
    plays: Vec<String>,
    /// A deck (a squad, a fleet) whose every card a side plays this turn:
    /// a whole round; repeat for several
    #[arg(long = "deck", value_name = "SIDE:DECK")]
    decks: Vec<String>,
    /// The side (or player number) who has initiative, for a tie-break
    /// `has-initiative` (default: player 1)
    #[arg(long, value_name = "SIDE")]
    initiative: Option<String>,
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
    let Some(documents) = engine_data::documents(&args.paths, args.data.as_deref(), args.message_format)? else {
        return Ok(ExitCode::from(1));
    };
    let parsed = engine_data::parsed(&documents)?;
    let parse = |text: &String, option: &str| {
        Play::parse(text).ok_or_else(|| {
            miette!(
                help = format!("write `--{option} 1:NAME` or `--{option} SIDE:NAME`"),
                "`{text}` does not say which side plays"
            )
        })
    };
    let mut plays = args.plays.iter().map(|text| parse(text, "play")).collect::<Result<Vec<Play>>>()?;
    let decks = args.decks.iter().map(|text| parse(text, "deck")).collect::<Result<Vec<Play>>>()?;
    let document = choose(&parsed, args.game.as_deref(), &plays)?;
    let game = &document.ruleset.id;
    for deck in &decks {
        plays.extend(timeline::deck_plays(document, &deck.side, &deck.card).map_err(|e| refused(&e, game))?);
    }
    let initiative = match &args.initiative {
        Some(side) => timeline::player_of(document, side).map_err(|e| refused(&e, game))?,
        None => 1,
    };
    let timeline = timeline::timeline_with_initiative(document, &plays, initiative).map_err(|e| refused(&e, game))?;
    match args.format {
        Format::Text => super::stdout(&cardsmith::engine::text::render(&timeline))?,
        Format::Json => super::stdout(&format!("{}\n", serde_json::to_string_pretty(&timeline).into_diagnostic()?))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// A timeline error as a diagnostic, with what would fix it.
fn refused(error: &TimelineError, game: &str) -> miette::Report {
    match error {
        TimelineError::UnknownCard { closest: Some(closest), .. }
        | TimelineError::UnknownDeck { closest: Some(closest), .. }
        | TimelineError::UnknownSide { closest: Some(closest), .. } => {
            miette!(help = format!("did you mean `{closest}`?"), "{error} in `{game}`")
        }
        TimelineError::UnknownSide { sides, .. } => {
            miette!(help = format!("sides of `{game}`: {}", sides.join(", ")), "{error} in `{game}`")
        }
        TimelineError::UnknownCard { .. } | TimelineError::UnknownDeck { .. } => miette!("{error} in `{game}`"),
        TimelineError::Untimed { .. } => miette!(
            help = "a card resolves in a phase when it carries an initiative value or names a step of a phase; \
                    a deck, when a phase plays its type (see the ruleset's `phase` declarations)",
            "{error}"
        ),
        TimelineError::TooLarge { .. } => {
            miette!(help = "play fewer cards, or cards with fewer initiatives", "{error}")
        }
        TimelineError::NoTiming(_) => {
            miette!(help = "the ruleset needs `phase` declarations or an `initiative` scale", "{error}")
        }
    }
}

/// The game named by `--game`, else the one game that has every card played.
fn choose<'d>(documents: &'d [Document], game: Option<&str>, plays: &[Play]) -> Result<&'d Document> {
    let ids = || documents.iter().map(|d| d.ruleset.id.as_str()).collect::<Vec<_>>().join(", ");
    if let Some(game) = game {
        return engine_data::named(documents, game);
    }
    if let [only] = documents {
        return Ok(only);
    }
    let fitting: Vec<&Document> = documents.iter().filter(|d| plays.iter().all(|p| d.has_play(&p.card))).collect();
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
