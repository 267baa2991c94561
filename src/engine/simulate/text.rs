//! The report for a terminal: plain aligned tables, every rate with its
//! sample size and interval, and a last line on what a simulation cannot
//! say.

use super::figures::{CardFigures, Figures};
use super::interval::Rate;
use super::report::Report;
use std::fmt::Write;

/// The report's last line.
pub const CAVEAT: &str = "What this does not tell you: how people would play (the bots play by their own rules, \
no better), what hidden information or bluffing changes, or anything the rules as data do not model.";

/// Rows of the score table beyond which rounds are sampled evenly.
const CURVE_ROWS: usize = 25;

/// The report as text, ending with a newline.
/// Said under the first-player advantage when the seats are not alike.
pub const SEATS_DIFFER: &str =
    "(The seats play different bots or decks: the advantage above is theirs as much as the seat's.)";

pub fn render(report: &Report) -> String {
    let figures = &report.figures;
    let settings = &report.settings;
    let mut out = String::new();
    let bots: Vec<String> = settings.bots.iter().enumerate().map(|(s, b)| format!("seat {} {b}", s + 1)).collect();
    let _ =
        writeln!(out, "{}: {} games, seed {}; bots: {}", settings.game, figures.games, settings.seed, bots.join(", "));
    let decks: Vec<String> = (settings.decks.iter().enumerate())
        .filter_map(|(s, d)| d.as_ref().map(|d| format!("seat {} {d}", s + 1)))
        .collect();
    if !decks.is_empty() {
        let _ = writeln!(out, "decks: {}", decks.join(", "));
    }
    if !settings.supply.is_empty() {
        let _ = writeln!(out, "supply: {}", settings.supply.join(", "));
    }
    if let Some(shard) = &settings.shard {
        let parts: Vec<String> = shard.parts.iter().map(|p| format!("{p}/{}", shard.count)).collect();
        let _ = writeln!(out, "shards: {} (not the whole run)", parts.join(", "));
    }
    out.push('\n');
    wins(&mut out, figures);
    let same = |list: &[String]| list.windows(2).all(|pair| pair[0] == pair[1]);
    let same_decks = settings.decks.windows(2).all(|pair| pair[0] == pair[1]);
    if figures.first_player.is_some() && (!same(&settings.bots) || !same_decks) {
        out.push_str(
            "(The seats play different bots or decks: the advantage above is theirs as much as the seat's.)\n\n",
        );
    }
    length(&mut out, figures);
    curve(&mut out, figures);
    cards(&mut out, figures);
    matrix(&mut out, figures);
    out.push_str(CAVEAT);
    out.push('\n');
    out
}

fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{:.1}%", v * 100.0))
}

fn interval(rate: &Rate) -> String {
    rate.interval.map_or_else(|| "-".into(), |[low, high]| format!("{:.1}–{:.1}%", low * 100.0, high * 100.0))
}

fn number(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{v:.2}"))
}

fn points(value: f64) -> String {
    format!("{:+.1}", value * 100.0)
}

/// Rows aligned in columns: the first to the left, the others to the right.
fn table(out: &mut String, rows: &[Vec<String>]) {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().filter_map(|r| r.get(c)).map(|t| t.chars().count()).max().unwrap_or(0))
        .collect();
    for row in rows {
        let mut line = String::from("  ");
        for (c, cell) in row.iter().enumerate() {
            let pad = " ".repeat(widths[c].saturating_sub(cell.chars().count()));
            if c == 0 {
                line.push_str(&format!("{cell}{pad}"));
            } else {
                line.push_str(&format!("  {pad}{cell}"));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
}

fn wins(out: &mut String, figures: &Figures) {
    out.push_str("Wins\n");
    let mut rows = vec![vec!["".into(), "wins".into(), "games".into(), "rate".into(), "95% interval".into()]];
    for seat in &figures.seats {
        rows.push(rate_row(format!("seat {}", seat.seat), &seat.wins));
    }
    rows.push(rate_row("draws".into(), &figures.draws));
    table(out, &rows);
    if let Some(first) = &figures.first_player {
        let _ = writeln!(
            out,
            "First-player advantage: seat 1 won {} of {} decided games (fair: {}): {} points, 95% interval {} to {}\n",
            percent(first.share.rate),
            first.share.trials,
            percent(Some(first.fair)),
            first.advantage.map_or_else(|| "-".into(), points),
            first.interval.map_or_else(|| "-".into(), |[low, _]| points(low)),
            first.interval.map_or_else(|| "-".into(), |[_, high]| points(high)),
        );
    }
}

fn rate_row(label: String, rate: &Rate) -> Vec<String> {
    vec![label, rate.successes.to_string(), rate.trials.to_string(), percent(rate.rate), interval(rate)]
}

fn length(out: &mut String, figures: &Figures) {
    let length = &figures.length;
    let show = |v: Option<u32>| v.map_or_else(|| "-".into(), |v| v.to_string());
    let percentiles: Vec<String> = length
        .percentiles
        .iter()
        .map(|p| if p.percent == 50 { format!("median {}", p.rounds) } else { format!("p{} {}", p.percent, p.rounds) })
        .collect();
    let _ = writeln!(
        out,
        "Game length in rounds: mean {}, {}, min {}, max {}\n  {} ended by the game's end condition, {} at the round limit\n",
        number(length.mean),
        percentiles.join(", "),
        show(length.min),
        show(length.max),
        length.ended_by_condition,
        length.ended_by_round_limit,
    );
}

fn curve(out: &mut String, figures: &Figures) {
    let rounds = figures.score_curve.len();
    if rounds == 0 {
        return;
    }
    out.push_str("Mean score at the end of each round (a game that ended earlier counts its final score)\n");
    let mut rows = vec![std::iter::once("round".to_string())
        .chain(figures.seats.iter().map(|s| format!("seat {}", s.seat)))
        .collect::<Vec<_>>()];
    let step = rounds.div_ceil(CURVE_ROWS).max(1);
    for (r, row) in figures.score_curve.iter().enumerate() {
        if r % step != 0 && r + 1 != rounds {
            continue;
        }
        rows.push(std::iter::once((r + 1).to_string()).chain(row.iter().map(|v| format!("{v:.2}"))).collect());
    }
    table(out, &rows);
}

fn cards(out: &mut String, figures: &Figures) {
    if figures.cards.is_empty() {
        return;
    }
    out.push_str("Cards (win rates are the seat's, per seat-game: with the card, then without it)\n");
    let mut rows = vec![[
        "card",
        "acquired in",
        "copies",
        "win% acquired",
        "n",
        "not",
        "n",
        "played in",
        "times",
        "win% played",
        "n",
        "not",
        "n",
    ]
    .map(String::from)
    .to_vec()];
    for card in &figures.cards {
        rows.push(card_row(card));
    }
    table(out, &rows);
}

fn card_row(card: &CardFigures) -> Vec<String> {
    vec![
        card.card.clone(),
        format!("{} games", card.games_acquired),
        number(card.mean_copies_acquired),
        percent(card.win_rate_acquired.rate),
        card.win_rate_acquired.trials.to_string(),
        percent(card.win_rate_not_acquired.rate),
        card.win_rate_not_acquired.trials.to_string(),
        format!("{} games", card.games_played),
        number(card.mean_times_played),
        percent(card.win_rate_played.rate),
        card.win_rate_played.trials.to_string(),
        percent(card.win_rate_not_played.rate),
        card.win_rate_not_played.trials.to_string(),
    ]
}

fn matrix(out: &mut String, figures: &Figures) {
    let Some(matrix) = &figures.matrix else { return };
    out.push_str("Matchups: the row deck's wins against the column deck (games)\n");
    let mut rows = vec![std::iter::once(String::new()).chain(matrix.decks.iter().cloned()).collect::<Vec<_>>()];
    for (deck, cells) in matrix.decks.iter().zip(&matrix.cells) {
        let shown = cells.iter().map(|cell| match cell {
            Some(rate) => format!("{} ({})", percent(rate.rate), rate.trials),
            None => "-".into(),
        });
        rows.push(std::iter::once(deck.clone()).chain(shown).collect());
    }
    table(out, &rows);
}
