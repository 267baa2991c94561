//! `cardsmith simulate`: many games of a game played by bots, and what they
//! show.  It reads engine data (a document written by `cardsmith build`, or
//! the same JSON built in memory), has the play engine play each game
//! through [`play_game`], adds the records up on every core
//! (`cardsmith::engine::simulate::run`) and prints the report as text, JSON
//! or an HTML page.  `simulate merge` adds up the JSON reports of shards.

use super::engine_data;
use super::{atomic, read};
use cardsmith::engine::data::Document;
use cardsmith::engine::play::{self, BotKind, Seating, Table};
use cardsmith::engine::record::GameRecord;
use cardsmith::engine::simulate::report::{self, Report};
use cardsmith::engine::simulate::settings::{self, Shards, DEFAULT_PLAYOUTS};
use cardsmith::engine::simulate::{html, run, text, BotChoice, GameSetup, Settings};
use miette::{miette, Result};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

#[derive(clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "SEAT is a seat number from 1.  A seat without --bot plays `random`; `greedy` plays the first bot the \
                  ruleset declares, `greedy:ID` the one named; `search` plays 100 random playouts per decision.\n\
                  Game i (from 0) is played with the seed splitmix64(S, i): the i-th output of a SplitMix64 generator \
                  seeded with S.  --shard K/N plays the games whose number modulo N is K − 1; `simulate merge` adds \
                  the JSON reports of the N shards up into exactly the report of the whole run.  With --matrix, \
                  --games is the number of games of each pair of decks, each deck in seat 1 in half of them.\n\n\
                  Examples:\n  \
                  cardsmith simulate cards/my-game --games 1000 --seed 7 --bot 2=greedy\n  \
                  cardsmith simulate --data out/my-game.json --games 200 --seed 1 --matrix Red Blue Green --format html -o matrix.html\n  \
                  cardsmith simulate cards/my-game --games 100000 --seed 7 --shard 2/4 --format json -o part2.json\n  \
                  cardsmith simulate merge part1.json part2.json part3.json part4.json\n\n\
                  Exit status: 0 when reported, 1 when the input has errors, 2 on usage, I/O or play problems."
)]
pub struct Args {
    #[command(subcommand)]
    merge: Option<Merge>,
    /// Files or folders to build the engine data from in memory (default: the project)
    paths: Vec<PathBuf>,
    /// Read this engine data document (written by `cardsmith build`) instead of building
    #[arg(long, value_name = "FILE", conflicts_with = "paths")]
    data: Option<PathBuf>,
    /// The game to play when the engine data holds several
    #[arg(long, value_name = "RULESET")]
    game: Option<String>,
    /// How many games to play (with --matrix: per pair of decks)
    #[arg(long, value_name = "N", required_unless_present = "schema")]
    games: Option<u64>,
    /// The seed the games' seeds are derived from
    #[arg(long, value_name = "S", required_unless_present = "schema")]
    seed: Option<u64>,
    /// A seat's bot: `random`, `greedy`, `greedy:ID`, `search` or `search:PLAYOUTS` (repeatable)
    #[arg(long = "bot", value_name = "SEAT=BOT")]
    bots: Vec<String>,
    /// A seat's deck, by name (repeatable)
    #[arg(long = "deck", value_name = "SEAT=DECK")]
    decks: Vec<String>,
    /// A deck for the set-up's steps on shared zones (a market, a supply), by name (repeatable)
    #[arg(long = "supply", value_name = "DECK")]
    supply: Vec<String>,
    /// How many play (default: the most seats --bot or --deck names, or the fewest players the game takes)
    #[arg(long, value_name = "N")]
    players: Option<usize>,
    /// Play every pair of these decks against each other (two seats) and report a matchup matrix
    #[arg(long, value_name = "DECK", num_args = 1.., conflicts_with = "decks")]
    matrix: Vec<String>,
    #[command(flatten)]
    report: ReportArgs,
    /// Write the readable logs of the first N games played to --log-file
    #[arg(long, value_name = "N", default_value_t = 0)]
    log: u64,
    /// Where --log writes the logs
    #[arg(long, value_name = "FILE", default_value = "simulate-log.txt")]
    log_file: PathBuf,
    /// Play only the K-th of N shards of the games (K from 1)
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Print the JSON Schema of the JSON report and stop
    #[arg(long, exclusive = true)]
    schema: bool,
    /// How to print diagnostics when building
    #[arg(long, value_enum, default_value = "human")]
    message_format: super::DiagnosticFormat,
}

#[derive(clap::Subcommand)]
enum Merge {
    /// Add up the JSON reports of a run's shards into the report of all their games
    #[command(
        after_help = "The reports must be of one run (same engine data, game, games, seed, bots, decks and number of \
                      shards) and hold different shards.  The figures are worked out again from the reports' totals."
    )]
    Merge {
        /// JSON reports written by `cardsmith simulate --shard K/N --format json`
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        report: ReportArgs,
    },
}

#[derive(clap::Args)]
struct ReportArgs {
    /// How to write the report
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the report to this file (atomically) instead of standard output
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Text,
    Json,
    Html,
}

/// The most seats a simulation plays.
const MAX_SEATS: usize = 64;

/// The play engine's table of each seating a run plays (each seat's deck),
/// built once and shared by every game of that seating.
#[derive(Default)]
struct Tables {
    built: Mutex<HashMap<Vec<Option<String>>, Arc<Table>>>,
}

impl Tables {
    fn for_game(&self, document: &Document, game: &GameSetup) -> Result<Arc<Table>, String> {
        let mut built = self.built.lock().map_err(|_| "a thread playing games failed".to_string())?;
        if let Some(table) = built.get(&game.decks) {
            return Ok(table.clone());
        }
        let decks = game.decks.iter().map(|deck| deck.iter().cloned().collect()).collect();
        let seating = Seating { seats: game.bots.len(), decks, supply: game.supply.clone() };
        let table = Arc::new(Table::new(document, &seating).map_err(|e| e.to_string())?);
        built.insert(game.decks.clone(), table.clone());
        Ok(table)
    }
}

/// Plays one game with the play engine: the one place this command meets
/// it.  Everything around it — the seeds, the shards, the threads, the
/// totals and the reports — is the engine's `simulate` module.  (`plan`
/// has already made every `greedy` name its bot and every `search` its
/// playouts.)
fn play_game(
    tables: &Tables,
    document: &Document,
    game: &GameSetup,
    log: Option<&mut dyn Write>,
) -> Result<GameRecord, String> {
    let table = tables.for_game(document, game)?;
    let mut bots = Vec::with_capacity(game.bots.len());
    for bot in &game.bots {
        bots.push(match bot {
            BotChoice::Random => BotKind::Random,
            BotChoice::Greedy(id) => {
                let id = id.as_deref().unwrap_or_default();
                BotKind::Greedy(table.bot(id).ok_or_else(|| format!("the ruleset declares no bot `{id}`"))?)
            }
            BotChoice::Search(playouts) => BotKind::Search { playouts: playouts.unwrap_or(DEFAULT_PLAYOUTS) },
        });
    }
    play::play_game(&table, &bots, game.seed, log).map_err(|e| e.to_string())
}

pub fn run(args: &Args) -> Result<ExitCode> {
    if args.schema {
        super::stdout(&report::schema())?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(Merge::Merge { files, report }) = &args.merge {
        return merge(files, report);
    }
    let Some(documents) = engine_data::documents(&args.paths, args.data.as_deref(), args.message_format)? else {
        return Ok(ExitCode::from(1));
    };
    let parsed = engine_data::parsed(&documents)?;
    let at = engine_data::playable(&parsed, args.game.as_deref())?;
    let (document, text) = (&parsed[at], documents[at].1.as_str());
    let (settings, bots) = plan(args, document, text)?;
    refuse_overwriting_inputs(args)?;
    let bar = progress_bar(settings.schedule().count);
    let tables = Tables::default();
    // What keeps the game from being played at all is said before any game
    // is: the seatings of the run's first games (its one seating, or both
    // orders of a matrix's first pairing) are built here.
    let schedule = settings.schedule();
    let firsts = (0..schedule.count.min(2)).map(|p| settings.game(schedule.game(p), &bots));
    for game in firsts {
        tables.for_game(document, &game).map_err(|e| miette!("`{}` cannot be played: {e}", document.ruleset.id))?;
    }
    let play = |game: &GameSetup, log: Option<&mut dyn Write>| play_game(&tables, document, game, log);
    let outcome = run::run(&settings, &bots, &play, args.log, &|| bar.inc(1));
    bar.finish_and_clear();
    let outcome = outcome.map_err(|failed| miette!("{failed}"))?;
    if args.log > 0 {
        atomic::write_whole_file(&args.log_file, &outcome.logs)?;
    }
    emit(&Report::new(settings, outcome.summary), &args.report)?;
    Ok(ExitCode::SUCCESS)
}

/// `SEAT=VALUE`, the seat from 1.
fn seat_value<'a>(text: &'a str, option: &str) -> Result<(usize, &'a str)> {
    let parsed = text.split_once('=').and_then(|(seat, value)| Some((seat.trim().parse::<usize>().ok()?, value)));
    match parsed {
        Some((seat, value)) if seat >= 1 && !value.is_empty() => Ok((seat, value)),
        _ => Err(miette!(help = format!("write `{option} 1=…`, seats numbered from 1"), "`{text}` names no seat")),
    }
}

/// The settings of the run and each seat's bot, every name checked against
/// the document.
fn plan(args: &Args, document: &Document, text: &str) -> Result<(Settings, Vec<BotChoice>)> {
    if args.games == Some(0) {
        return Err(miette!("--games 0 plays nothing: ask for one game or more"));
    }
    let mut chosen_bots = Vec::new();
    for given in &args.bots {
        let (seat, bot) = seat_value(given, "--bot")?;
        let bot = BotChoice::parse(bot).ok_or_else(|| {
            miette!(help = "bots: random, greedy, greedy:ID, search, search:PLAYOUTS", "`{bot}` is not a bot")
        })?;
        chosen_bots.push((seat, resolve_bot(bot, document)?));
    }
    let mut chosen_decks = Vec::new();
    for given in &args.decks {
        let (seat, deck) = seat_value(given, "--deck")?;
        chosen_decks.push((seat, known_deck(deck, document)?));
    }
    for deck in args.matrix.iter().chain(&args.supply) {
        known_deck(deck, document)?;
    }
    if args.matrix.len() == 1 || (1..args.matrix.len()).any(|i| args.matrix[..i].contains(&args.matrix[i])) {
        return Err(miette!("--matrix needs two decks or more, each named once"));
    }
    let named = chosen_bots.iter().map(|(seat, _)| *seat).chain(chosen_decks.iter().map(|(seat, _)| *seat)).max();
    let seats = seats(args, document, named)?;
    let mut bots = vec![BotChoice::Random; seats];
    for (seat, bot) in chosen_bots {
        bots[seat - 1] = bot;
    }
    let mut decks = vec![None; seats];
    for (seat, deck) in chosen_decks {
        decks[seat - 1] = Some(deck);
    }
    let shard = match &args.shard {
        None => None,
        Some(text) => {
            let (k, n) = settings::parse_shard(text)
                .ok_or_else(|| miette!(help = "write `--shard 2/4`: the second of four", "`{text}` is not a shard"))?;
            Some(Shards { count: n, parts: vec![k] })
        }
    };
    let settings = Settings {
        game: document.ruleset.id.clone(),
        data: settings::fingerprint(text.as_bytes()),
        games: args.games.unwrap_or(0),
        seed: args.seed.unwrap_or(0),
        bots: bots.iter().map(ToString::to_string).collect(),
        decks,
        matrix: args.matrix.clone(),
        supply: args.supply.clone(),
        shard,
    };
    Ok((settings, bots))
}

/// The number of seats: `--players`, else the most a `--bot` or `--deck`
/// names, or the fewest players the game takes; two with a matrix.
fn seats(args: &Args, document: &Document, named: Option<usize>) -> Result<usize> {
    let players = document.ruleset.setup.as_ref().map(|s| s.players);
    let (min, max) = players.map_or((2, 2), |p| (p.min.max(1), p.max.max(p.min).max(1)));
    let fewest = usize::try_from(min).unwrap_or(2);
    let most = usize::try_from(max).unwrap_or(usize::MAX);
    let seats = match args.players {
        _ if !args.matrix.is_empty() => 2,
        Some(players) => players,
        None => named.unwrap_or(0).max(fewest),
    };
    if let (Some(players), Some(named)) = (args.players, named.filter(|&n| n > seats)) {
        return Err(miette!("--bot or --deck names seat {named}, and --players is {players}"));
    }
    if !args.matrix.is_empty() && (named.is_some_and(|n| n > 2) || args.players.is_some_and(|p| p != 2)) {
        return Err(miette!(
            "a matrix plays two seats; --bot or --players asks for {}",
            named.max(args.players).unwrap_or(0)
        ));
    }
    if seats > MAX_SEATS {
        return Err(miette!("a simulation seats at most {MAX_SEATS} players, not {seats}"));
    }
    if seats < fewest || seats > most {
        return Err(miette!("`{}` is played by {min} to {max} players, not {seats}", document.ruleset.id));
    }
    Ok(seats)
}

/// `greedy` as the first bot the ruleset declares, a named one checked,
/// `search` with its playouts.
fn resolve_bot(bot: BotChoice, document: &Document) -> Result<BotChoice> {
    let declared: Vec<&str> = document.ruleset.bots.iter().map(|b| b.id.as_str()).collect();
    match bot {
        BotChoice::Greedy(None) => match declared.first() {
            Some(first) => Ok(BotChoice::Greedy(Some(first.to_string()))),
            None => Err(miette!(
                help = "use `random` or `search`, or declare a bot in the ruleset",
                "`{}` declares no bot for `greedy` to play",
                document.ruleset.id
            )),
        },
        BotChoice::Greedy(Some(id)) if !declared.contains(&id.as_str()) => Err(miette!(
            help = format!("bots of `{}`: {}", document.ruleset.id, declared.join(", ")),
            "no bot `{id}` in `{}`",
            document.ruleset.id
        )),
        BotChoice::Search(None) => Ok(BotChoice::Search(Some(DEFAULT_PLAYOUTS))),
        bot => Ok(bot),
    }
}

fn known_deck(deck: &str, document: &Document) -> Result<String> {
    if document.decks.iter().any(|d| d.name == deck) {
        return Ok(deck.to_string());
    }
    let names = document.decks.iter().map(|d| d.name.as_str());
    let closest = names
        .clone()
        .min_by_key(|name| strsim::levenshtein(name, deck))
        .filter(|name| strsim::levenshtein(name, deck) <= deck.chars().count().div_ceil(3).max(1));
    match closest {
        Some(closest) => {
            Err(miette!(help = format!("did you mean `{closest}`?"), "no deck `{deck}` in `{}`", document.ruleset.id))
        }
        None => Err(miette!(
            help = format!("decks: {}", names.collect::<Vec<_>>().join(", ")),
            "no deck `{deck}` in `{}`",
            document.ruleset.id
        )),
    }
}

/// The report and the log are never written over the engine data read, or
/// over each other.
fn refuse_overwriting_inputs(args: &Args) -> Result<()> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    };
    let mut outputs: Vec<&Path> = args.report.out.iter().map(PathBuf::as_path).collect();
    if args.log > 0 {
        outputs.push(&args.log_file);
    }
    for out in &outputs {
        if args.data.as_deref().is_some_and(|data| same(out, data)) {
            return Err(miette!("refusing to write over the engine data read: {}", out.display()));
        }
        if out.extension().is_some_and(|e| e == "rules" || e == "cards") {
            return Err(miette!("refusing to write the report or the log to a source file: {}", out.display()));
        }
    }
    if let [report, log] = outputs.as_slice() {
        if same(report, log) {
            return Err(miette!("--out and --log-file name the same file: {}", report.display()));
        }
    }
    Ok(())
}

/// `simulate merge`: the shards' reports added up.
fn merge(files: &[PathBuf], args: &ReportArgs) -> Result<ExitCode> {
    let mut reports = Vec::new();
    for path in files {
        let text = read::text(path, &read::SIMULATE_REPORT)?;
        if !read::json_values_at_most(text.as_bytes(), read::SIMULATE_REPORT_VALUES) {
            return Err(miette!(
                "{} holds more than {} JSON values, the most a simulate report may hold",
                path.display(),
                read::SIMULATE_REPORT_VALUES
            ));
        }
        reports.push(Report::from_json(&text).map_err(|e| miette!("{}: {e}", path.display()))?);
    }
    let merged = Report::merge(&reports).map_err(|e| {
        let named = |i: usize| files.get(i).map_or_else(String::new, |p| p.display().to_string());
        match &e {
            report::MergeError::Settings(i, _)
            | report::MergeError::Overlap(i, _)
            | report::MergeError::Format(i, _) => {
                miette!(
                    help = format!("report {} is {}; report 1 is {}", i + 1, named(*i), named(0)),
                    "cannot merge: {e}"
                )
            }
            report::MergeError::Nothing | report::MergeError::TooLarge => miette!("cannot merge: {e}"),
        }
    })?;
    if args.out.as_ref().is_some_and(|out| files.iter().any(|f| f == out)) {
        return Err(miette!("refusing to write the merged report over one of the reports merged"));
    }
    emit(&merged, args)?;
    Ok(ExitCode::SUCCESS)
}

/// The report in its format, to `--out` or standard output.
fn emit(report: &Report, args: &ReportArgs) -> Result<()> {
    let text = match args.format {
        Format::Text => text::render(report),
        Format::Json => report.to_json(),
        Format::Html => html::page(report),
    };
    match &args.out {
        Some(out) => atomic::write_whole_file(out, text.as_bytes()),
        None => super::stdout(&text),
    }
}

fn progress_bar(games: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() || games < 50 {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(games);
    if let Ok(style) = indicatif::ProgressStyle::with_template("simulating {bar:40} {pos}/{len} games {elapsed}") {
        bar.set_style(style);
    }
    bar
}
