//! The report as one offline page: the figures as inline SVG charts (win
//! rates with their interval bars, a histogram of game length, each seat's
//! mean score round by round, a heat map of the matchups) and tables, with
//! no script and nothing loaded from anywhere.

use super::figures::{Figures, Matrix};
use super::report::Report;
use super::text::CAVEAT;
use crate::markup::escape;
use std::fmt::Write;

/// The seats' colours, in turn (colour-blind safe, after Okabe and Ito).
const COLOURS: [&str; 8] = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#7a7a00", "#333333"];

const STYLE: &str = "body { margin: 0; padding: 16px 24px; font: 14px/1.4 system-ui, sans-serif; color: #1b1b1b; background: #f6f6f4; }\n\
h1 { font-size: 20px; margin: 0 0 4px; }\n\
h2 { font-size: 16px; margin: 22px 0 6px; }\n\
.settings { color: #444; margin: 0 0 8px; }\n\
svg.chart { display: block; background: #fff; border: 1px solid #ccc; border-radius: 4px; }\n\
svg text { font: 12px system-ui, sans-serif; fill: #1b1b1b; }\n\
svg path, svg line { fill: none; }\n\
svg .axis { stroke: #999; stroke-width: 1; }\n\
svg .grid { stroke: #e2e2e2; stroke-width: 1; }\n\
svg .interval { stroke: #1b1b1b; stroke-width: 1.5; }\n\
svg .fair { stroke: #1b1b1b; stroke-dasharray: 4 3; }\n\
svg .bin { fill: #0072b2; }\n\
svg polyline.seat { fill: none; stroke-width: 2; }\n\
table { border-collapse: collapse; background: #fff; }\n\
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }\n\
th:first-child, td:first-child { text-align: left; }\n\
.caveat { margin-top: 22px; font-style: italic; color: #444; }\n";

fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{:.1}%", v * 100.0))
}

/// The page.
pub fn page(report: &Report) -> String {
    let figures = &report.figures;
    let settings = &report.settings;
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(
        out,
        "<title>{} — simulation</title>\n<style>\n{STYLE}</style>\n</head>\n<body>",
        escape(&settings.game)
    );
    let _ = writeln!(out, "<h1>{} — {} games</h1>", escape(&settings.game), figures.games);
    let bots: Vec<String> = settings.bots.iter().enumerate().map(|(s, b)| format!("seat {} {b}", s + 1)).collect();
    let _ = writeln!(out, "<p class=\"settings\">seed {}; bots: {}</p>", settings.seed, escape(&bots.join(", ")));
    if !settings.supply.is_empty() {
        let _ = writeln!(out, "<p class=\"settings\">supply: {}</p>", escape(&settings.supply.join(", ")));
    }
    if let Some(shard) = &settings.shard {
        let parts: Vec<String> = shard.parts.iter().map(|p| format!("{p}/{}", shard.count)).collect();
        let _ = writeln!(out, "<p class=\"settings\">shards {} only: not the whole run</p>", parts.join(", "));
    }
    out.push_str("<h2>Wins, with 95% intervals</h2>\n");
    out.push_str(&wins_chart(figures));
    if let Some(first) = &figures.first_player {
        let _ = writeln!(
            out,
            "<p>First-player advantage: seat 1 won {} of {} decided games, against {} for a fair seating: {} points \
             (95% interval {} to {}).</p>",
            percent(first.share.rate),
            first.share.trials,
            percent(Some(first.fair)),
            first.advantage.map_or_else(|| "-".into(), |a| format!("{:+.1}", a * 100.0)),
            first.interval.map_or_else(|| "-".into(), |i| format!("{:+.1}", i[0] * 100.0)),
            first.interval.map_or_else(|| "-".into(), |i| format!("{:+.1}", i[1] * 100.0)),
        );
        if report.settings.seats_differ() {
            let _ = writeln!(out, "<p>{}</p>", escape(super::text::SEATS_DIFFER));
        }
    }
    out.push_str("<h2>Game length</h2>\n");
    out.push_str(&length_chart(figures));
    let length = &figures.length;
    let _ = writeln!(
        out,
        "<p>{} ended by the game's end condition, {} at the round limit.</p>",
        length.ended_by_condition, length.ended_by_round_limit
    );
    out.push_str("<h2>Mean score by round</h2>\n<p>A game that ended earlier counts its final score for the rounds after its end.</p>\n");
    out.push_str(&curve_chart(figures));
    if let Some(matrix) = &figures.matrix {
        out.push_str("<h2>Matchups: the row deck's wins against the column deck</h2>\n");
        out.push_str(&heat_map(matrix));
    }
    cards_table(&mut out, figures);
    let _ = writeln!(out, "<p class=\"caveat\">{}</p>\n</body>\n</html>", escape(CAVEAT));
    out
}

/// Horizontal bars, one per seat and one for draws, each with its
/// interval, and a dashed line at a fair seat's share.
pub fn wins_chart(figures: &Figures) -> String {
    let (left, width) = (90.0, 480.0);
    let rows = figures.seats.len() + 1;
    let height = 40 + rows * 28;
    let mut svg = format!(
        "<svg class=\"chart wins\" xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"{height}\" \
         viewBox=\"0 0 640 {height}\" role=\"img\" aria-label=\"win rates\">\n"
    );
    for tick in 0..=4 {
        let x = left + width * f64::from(tick) / 4.0;
        let _ = writeln!(
            svg,
            "<line class=\"grid\" x1=\"{x}\" y1=\"10\" x2=\"{x}\" y2=\"{}\"/><text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}%</text>",
            height - 22,
            height - 8,
            tick * 25
        );
    }
    let draws = std::iter::once(("draws".to_string(), &figures.draws, "#888888"));
    let seats = figures.seats.iter().enumerate().map(|(i, s)| (format!("seat {}", s.seat), &s.wins, COLOURS[i % 8]));
    for (row, (label, rate, colour)) in seats.chain(draws).enumerate() {
        let y = 14 + row * 28;
        let bar = rate.rate.unwrap_or(0.0) * width;
        let _ = writeln!(
            svg,
            "<text x=\"4\" y=\"{}\">{}</text><rect class=\"bar\" x=\"{left}\" y=\"{y}\" width=\"{bar:.2}\" height=\"18\" \
             fill=\"{colour}\"><title>{}: {} of {} ({})</title></rect>",
            y + 13,
            escape(&label),
            escape(&label),
            rate.successes,
            rate.trials,
            percent(rate.rate)
        );
        if let Some([low, high]) = rate.interval {
            let (x1, x2, middle) = (left + low * width, left + high * width, y + 9);
            let _ = writeln!(
                svg,
                "<path class=\"interval\" d=\"M{x1:.2} {} V{} M{x1:.2} {middle} H{x2:.2} M{x2:.2} {} V{}\"/>",
                y + 3,
                y + 15,
                y + 3,
                y + 15
            );
        }
        let _ = writeln!(svg, "<text x=\"{}\" y=\"{}\">{}</text>", left + width + 8.0, y + 13, percent(rate.rate));
    }
    if let Some(first) = &figures.first_player {
        let x = left + first.fair * width;
        let _ = writeln!(
            svg,
            "<line class=\"fair\" x1=\"{x:.2}\" y1=\"8\" x2=\"{x:.2}\" y2=\"{}\"><title>a fair seat's share of the \
             decided games: {}</title></line>",
            height - 24,
            percent(Some(first.fair))
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// One bar per number of rounds some game lasted, placed on a scale from
/// the shortest game to the longest.
pub fn length_chart(figures: &Figures) -> String {
    let length = &figures.length;
    let (left, top, width, height) = (50.0, 12.0, 560.0, 180.0);
    let mut svg = String::from(
        "<svg class=\"chart length\" xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"230\" \
         viewBox=\"0 0 640 230\" role=\"img\" aria-label=\"game length\">\n",
    );
    let _ = writeln!(svg, "<path class=\"axis\" d=\"M{left} {top} V{} H{}\"/>", top + height, left + width);
    let (Some(min), Some(max)) = (length.min, length.max) else {
        svg.push_str("<text x=\"60\" y=\"100\">no games</text>\n</svg>\n");
        return svg;
    };
    let span = f64::from(max - min) + 1.0;
    let step = width / span;
    let most = length.histogram.iter().map(|b| b.games).max().unwrap_or(1).max(1) as f64;
    for bin in &length.histogram {
        let x = left + f64::from(bin.rounds - min) * step;
        let h = bin.games as f64 / most * height;
        let _ = writeln!(
            svg,
            "<rect class=\"bin\" x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{h:.2}\"><title>{} rounds: {} games</title></rect>",
            x + step * 0.05,
            top + height - h,
            (step * 0.9).max(1.0),
            bin.rounds,
            bin.games
        );
    }
    let label = |rounds: u32| left + (f64::from(rounds - min) + 0.5) * step;
    for rounds in [min, max] {
        let _ = writeln!(
            svg,
            "<text x=\"{:.2}\" y=\"{}\" text-anchor=\"middle\">{rounds}</text>",
            label(rounds),
            top + height + 16.0
        );
    }
    let _ = writeln!(svg, "<text x=\"4\" y=\"{}\">{}</text>", top + 10.0, most);
    let median = length.percentiles.iter().find(|p| p.percent == 50);
    if let Some(median) = median {
        let x = label(median.rounds);
        let _ = writeln!(
            svg,
            "<line class=\"fair median\" x1=\"{x:.2}\" y1=\"{top}\" x2=\"{x:.2}\" y2=\"{}\"/><text x=\"{x:.2}\" y=\"{}\" text-anchor=\"middle\">median {}</text>",
            top + height,
            top + height + 32.0,
            median.rounds
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// Each seat's mean score at the end of each round, one line per seat.
pub fn curve_chart(figures: &Figures) -> String {
    let (left, top, width, height) = (60.0, 12.0, 540.0, 200.0);
    let mut svg = String::from(
        "<svg class=\"chart curve\" xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"260\" \
         viewBox=\"0 0 640 260\" role=\"img\" aria-label=\"mean score by round\">\n",
    );
    let _ = writeln!(svg, "<path class=\"axis\" d=\"M{left} {top} V{} H{}\"/>", top + height, left + width);
    let rounds = figures.score_curve.len();
    let values = figures.score_curve.iter().flatten().copied();
    let low = values.clone().fold(0.0_f64, f64::min);
    let high = values.fold(0.0_f64, f64::max);
    let range = if high > low { high - low } else { 1.0 };
    let x = |r: usize| left + if rounds > 1 { r as f64 / (rounds - 1) as f64 * width } else { width / 2.0 };
    let y = |v: f64| top + height - (v - low) / range * height;
    for (value, at) in [(high, y(high)), (low, y(low))] {
        let _ = writeln!(svg, "<text x=\"4\" y=\"{:.2}\">{value:.1}</text>", at + 4.0);
    }
    let _ = writeln!(svg, "<text x=\"{left}\" y=\"{}\">round 1</text>", top + height + 16.0);
    if rounds > 1 {
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">round {rounds}</text>",
            left + width,
            top + height + 16.0
        );
    }
    for (s, seat) in figures.seats.iter().enumerate() {
        let colour = COLOURS[s % 8];
        let points: Vec<String> = (0..rounds)
            .map(|r| format!("{:.2},{:.2}", x(r), y(figures.score_curve[r].get(s).copied().unwrap_or(0.0))))
            .collect();
        let _ = writeln!(
            svg,
            "<polyline class=\"seat seat-{}\" stroke=\"{colour}\" points=\"{}\"><title>seat {}</title></polyline>",
            seat.seat,
            points.join(" "),
            seat.seat
        );
        let legend_x = left + 10.0 + (s % 6) as f64 * 90.0;
        let legend_y = top + height + 34.0 + (s / 6) as f64 * 14.0;
        let _ = writeln!(
            svg,
            "<rect x=\"{legend_x}\" y=\"{}\" width=\"12\" height=\"4\" fill=\"{colour}\"/><text x=\"{}\" y=\"{}\">seat {}</text>",
            legend_y - 4.0,
            legend_x + 16.0,
            legend_y,
            seat.seat
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// The row deck's win rate against each column deck, red (loses) through
/// white (even) to blue (wins).
pub fn heat_map(matrix: &Matrix) -> String {
    let (left, top, cell) = (130.0, 24.0, 84.0);
    let n = matrix.decks.len() as f64;
    let (width, height) = (left + n * cell + 10.0, top + n * cell + 10.0);
    let mut svg = format!(
        "<svg class=\"chart matrix\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"matchups\">\n"
    );
    for (i, deck) in matrix.decks.iter().enumerate() {
        let at = i as f64 * cell;
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"16\" text-anchor=\"middle\">{}</text><text x=\"4\" y=\"{:.1}\">{}</text>",
            left + at + cell / 2.0,
            escape(deck),
            top + at + cell / 2.0 + 4.0,
            escape(deck)
        );
    }
    for (r, row) in matrix.cells.iter().enumerate() {
        for (c, rate) in row.iter().enumerate() {
            let (x, y) = (left + c as f64 * cell, top + r as f64 * cell);
            let (fill, label, games) = match rate.as_ref().and_then(|rate| rate.rate.map(|v| (v, rate.trials))) {
                Some((v, games)) => (heat(v), percent(Some(v)), format!("{games} games")),
                None => ("#eeeeee".to_string(), "-".to_string(), String::new()),
            };
            let _ = writeln!(
                svg,
                "<rect class=\"cell\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{cell}\" height=\"{cell}\" fill=\"{fill}\" stroke=\"#fff\"/>\
                 <text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{label}</text>\
                 <text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{games}</text>",
                y + cell / 2.0,
                y + cell / 2.0 + 15.0,
                cx = x + cell / 2.0,
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// A win rate as a colour: red at 0, white at one half, blue at 1.
fn heat(rate: f64) -> String {
    let t = rate.clamp(0.0, 1.0);
    let (from, to, f) = if t < 0.5 {
        ((214, 96, 77), (255, 255, 255), t * 2.0)
    } else {
        ((255, 255, 255), (67, 147, 195), t * 2.0 - 1.0)
    };
    let mix = |a: i32, b: i32| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as i32;
    format!("#{:02x}{:02x}{:02x}", mix(from.0, to.0), mix(from.1, to.1), mix(from.2, to.2))
}

fn cards_table(out: &mut String, figures: &Figures) {
    if figures.cards.is_empty() {
        return;
    }
    out.push_str(
        "<h2>Cards</h2>\n<p>Win rates are the seat's, per seat-game, with the card and without it; n is the number of seat-games.</p>\n\
         <table class=\"cards\">\n<tr><th>card</th><th>acquired in (games)</th><th>mean copies</th><th>win% acquired</th>\
         <th>n</th><th>win% not</th><th>n</th><th>played in (games)</th><th>mean times</th><th>win% played</th><th>n</th>\
         <th>win% not</th><th>n</th></tr>\n",
    );
    let number = |v: Option<f64>| v.map_or_else(|| "-".into(), |v| format!("{v:.2}"));
    for card in &figures.cards {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&card.card),
            card.games_acquired,
            number(card.mean_copies_acquired),
            percent(card.win_rate_acquired.rate),
            card.win_rate_acquired.trials,
            percent(card.win_rate_not_acquired.rate),
            card.win_rate_not_acquired.trials,
            card.games_played,
            number(card.mean_times_played),
            percent(card.win_rate_played.rate),
            card.win_rate_played.trials,
            percent(card.win_rate_not_played.rate),
            card.win_rate_not_played.trials,
        );
    }
    out.push_str("</table>\n");
}
