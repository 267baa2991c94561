//! Exact answers from synthetic records whose statistics are known.

use super::figures::Figures;
use super::interval::{wilson, Rate, Z95};
use super::report::{MergeError, Report};
use super::run::{run, PlayFn};
use super::settings::{game_seed, BotChoice, GameSetup, Settings, Shards};
use super::summary::Summary;
use crate::engine::record::{CardUse, Ended, GameRecord};

fn card(name: &str, acquired: u32, played: u32) -> CardUse {
    CardUse { card: name.to_string(), acquired, played }
}

/// Game `i` of a made-up two-seat game: seat 1 wins games 0–5 of every
/// ten, seat 2 games 6–8, game 9 is a draw; game i lasts 2 + i % 4 rounds,
/// seat s scoring s + 1 points a round; seat 1 acquires "Spark" (2 copies)
/// in the games it wins, and seat 2 plays "Ward" once in every game.
fn record(i: u64) -> GameRecord {
    let winner = match i % 10 {
        0..=5 => Some(0),
        6..=8 => Some(1),
        _ => None,
    };
    let rounds = 2 + (i % 4) as u32;
    let curve: Vec<Vec<i64>> = (1..=i64::from(rounds)).map(|r| vec![r, 2 * r]).collect();
    let spark = if winner == Some(0) { vec![card("Spark", 2, 1)] } else { vec![card("Spark", 0, 0)] };
    GameRecord {
        seed: i,
        winner,
        rounds,
        ended: if rounds == 5 { Ended::RoundLimit } else { Ended::Condition },
        scores: curve.last().cloned().unwrap_or_default(),
        curve,
        cards: vec![spark, vec![card("Ward", 0, 1)]],
        in_play: Vec::new(),
        decisions: 7,
        sided: Vec::new(),
    }
}

fn summary_of(games: impl Iterator<Item = u64>) -> Summary {
    let mut summary = Summary::default();
    for i in games {
        summary.add(&record(i), None);
    }
    summary
}

fn settings() -> Settings {
    Settings {
        game: "made-up".into(),
        data: "fnv1a64:0000000000000000".into(),
        games: 100,
        seed: 42,
        bots: vec!["random".into(), "greedy:first".into()],
        decks: vec![None, None],
        matrix: Vec::new(),
        supply: Vec::new(),
        shard: None,
    }
}

fn json(summary: Summary) -> String {
    Report::new(settings(), summary).to_json()
}

#[test]
fn six_wins_of_ten_give_the_wilson_interval() {
    let figures = Figures::of(&summary_of(0..10), &[]);
    let seat = &figures.seats[0].wins;
    assert_eq!((seat.successes, seat.trials, seat.rate), (6, 10, Some(0.6)));
    // Worked out here from the formula, not through `wilson`.
    let (n, p, z) = (10.0_f64, 0.6_f64, Z95);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let [low, high] = seat.interval.expect("an interval");
    assert!((low - (centre - half)).abs() < 1e-12 && (high - (centre + half)).abs() < 1e-12);
    assert_eq!(figures.seats[1].wins, Rate::new(3, 10));
    assert_eq!(figures.draws, Rate::new(1, 10));
    // First player: 6 of the 9 decided games, against a fair 1/2.
    let first = figures.first_player.expect("two seats");
    assert_eq!((first.share.successes, first.share.trials), (6, 9));
    assert!((first.advantage.expect("decided games") - (6.0 / 9.0 - 0.5)).abs() < 1e-12);
    let [a, b] = first.interval.expect("an interval");
    let [l, h] = wilson(6, 9, Z95).expect("trials");
    assert!((a - (l - 0.5)).abs() < 1e-12 && (b - (h - 0.5)).abs() < 1e-12);
}

#[test]
fn game_length_and_the_score_curve_carry_final_scores_forward() {
    // Games 0..4 last 2, 3, 4 and 5 rounds.
    let figures = Figures::of(&summary_of(0..4), &[]);
    let length = &figures.length;
    let bins: Vec<(u32, u64)> = length.histogram.iter().map(|b| (b.rounds, b.games)).collect();
    assert_eq!(bins, [(2, 1), (3, 1), (4, 1), (5, 1)]);
    assert_eq!(length.mean, Some(3.5));
    let percentiles: Vec<(u32, u32)> = length.percentiles.iter().map(|p| (p.percent, p.rounds)).collect();
    // Nearest rank of 4 games: ⌈0.1·4⌉ = 1st, ⌈1⌉ = 1st, 2nd, 3rd, ⌈3.6⌉ = 4th.
    assert_eq!(percentiles, [(10, 2), (25, 2), (50, 3), (75, 4), (90, 5)]);
    assert_eq!(
        (length.min, length.max, length.ended_by_round_limit, length.ended_by_condition),
        (Some(2), Some(5), 1, 3)
    );
    // Seat 1 scores r in round r; a game over after k rounds stays at k.
    // Round 3: (2 + 3 + 3 + 3) / 4; round 5: (2 + 3 + 4 + 5) / 4.
    let seat1: Vec<f64> = figures.score_curve.iter().map(|row| row[0]).collect();
    assert_eq!(seat1, [1.0, 2.0, 11.0 / 4.0, 13.0 / 4.0, 14.0 / 4.0]);
    assert_eq!(figures.score_curve[4][1], 7.0);
    assert_eq!(figures.seats[0].mean_final_score, Some(3.5));
    assert_eq!(figures.mean_decisions, Some(7.0));
}

#[test]
fn cards_are_counted_per_seat_game_with_and_without() {
    let figures = Figures::of(&summary_of(0..10), &[]);
    let spark = figures.cards.iter().find(|c| c.card == "Spark").expect("Spark");
    // Acquired by seat 1 in its 6 wins, 2 copies each: won every time;
    // the other 14 seat-games won 3 of 14 (seat 2's wins).
    assert_eq!((spark.games_acquired, spark.games_played), (6, 6));
    assert_eq!(spark.mean_copies_acquired, Some(2.0));
    assert_eq!(spark.win_rate_acquired, Rate::new(6, 6));
    assert_eq!(spark.win_rate_not_acquired, Rate::new(3, 14));
    let ward = figures.cards.iter().find(|c| c.card == "Ward").expect("Ward");
    assert_eq!((ward.games_acquired, ward.games_played), (0, 10));
    assert_eq!(ward.win_rate_played, Rate::new(3, 10));
    assert_eq!(ward.win_rate_not_played, Rate::new(6, 10));
    assert_eq!(ward.win_rate_acquired, Rate::new(0, 0));
    assert_eq!(ward.mean_copies_acquired, None);
}

/// In an asymmetric game, a card of one side could only ever be held by
/// that side's seat: without it, its rate counts that seat's other
/// seat-games, not the other side's.
#[test]
fn a_card_of_one_side_is_counted_without_it_in_that_sides_seat_games_only() {
    let mut summary = Summary::default();
    for i in 0..10 {
        let mut game = record(i);
        // Seat 2 plays Ward in the first 6 games only; Ward is seat 2's.
        if i >= 6 {
            game.cards[1].clear();
        }
        game.sided = vec![("Ward".to_string(), 1)];
        summary.add(&game, None);
    }
    let figures = Figures::of(&summary, &[]);
    let ward = figures.cards.iter().find(|c| c.card == "Ward").expect("Ward");
    // Seat 2 won games 6, 7 and 8 (i % 10 in 6..=8), none with Ward.
    assert_eq!(ward.win_rate_played, Rate::new(0, 6));
    assert_eq!(ward.win_rate_not_played, Rate::new(3, 4));
    // A card any seat holds is counted against every other seat-game.
    let spark = figures.cards.iter().find(|c| c.card == "Spark").expect("Spark");
    assert_eq!(spark.win_rate_not_acquired, Rate::new(3, 14));
    // The tallies merge as the rest do.
    let mut halves = Summary::default();
    for part in [0..5u64, 5..10] {
        let mut half = Summary::default();
        for i in part {
            let mut game = record(i);
            if i >= 6 {
                game.cards[1].clear();
            }
            game.sided = vec![("Ward".to_string(), 1)];
            half.add(&game, None);
        }
        halves.merge(&half);
    }
    assert_eq!(halves, summary);
}

/// Both seats of one game acquiring the same card: their copies add up.
#[test]
fn copies_of_both_seats_of_a_game_add_up() {
    let mut game = record(0);
    game.cards = vec![vec![card("Ember", 2, 1)], vec![card("Ember", 3, 2)]];
    let mut summary = Summary::default();
    summary.add(&game, None);
    let figures = Figures::of(&summary, &[]);
    let ember = figures.cards.iter().find(|c| c.card == "Ember").expect("Ember");
    assert_eq!(ember.mean_copies_acquired, Some(2.5), "5 copies over 2 seat-games");
    assert_eq!(ember.mean_times_played, Some(1.5), "3 plays over 2 seat-games");
}

#[test]
fn merging_is_adding_up_in_any_order() {
    let whole = json(summary_of(0..37));
    for split in [0, 1, 10, 20, 36, 37] {
        let (mut a, b) = (summary_of(0..split), summary_of(split..37));
        let mut b_first = b.clone();
        b_first.merge(&a);
        a.merge(&b);
        assert_eq!(json(a), whole, "split at {split}");
        assert_eq!(json(b_first), whole, "split at {split}, the other way round");
    }
    // Grouped differently: (x + y) + z = x + (y + z).
    let (x, y, z) = (summary_of(0..5), summary_of(5..9), summary_of(9..37));
    let mut left = x.clone();
    left.merge(&y);
    left.merge(&z);
    let mut right = y;
    right.merge(&z);
    let mut grouped = x;
    grouped.merge(&right);
    assert_eq!(left, grouped);
    // Interleaved games, added in reverse order.
    assert_eq!(json(summary_of((0..37).rev())), whole);
}

/// A stand-in for the engine in these tests only: the made-up game
/// numbered by the game's index, checking that it was given its seed.
fn made_up(
    settings: &Settings,
) -> impl Fn(&GameSetup, Option<&mut dyn std::io::Write>) -> Result<GameRecord, String> + Sync + '_ {
    move |game: &GameSetup, log: Option<&mut dyn std::io::Write>| {
        assert_eq!(game.seed, game_seed(settings.seed, game.index));
        if let Some(log) = log {
            let _ = writeln!(log, "game {} played", game.index);
        }
        Ok(record(game.index))
    }
}

fn bots() -> Vec<BotChoice> {
    vec![BotChoice::Random, BotChoice::Greedy(Some("first".into()))]
}

#[test]
fn shards_merge_into_the_whole_run_byte_for_byte() {
    let whole_settings = settings();
    let play = made_up(&whole_settings);
    let whole = run(&whole_settings, &bots(), &play as &PlayFn, 0, &|| {}).expect("played");
    assert_eq!(whole.summary, summary_of(0..100));
    let whole = Report::new(whole_settings.clone(), whole.summary).to_json();
    let shards: Vec<Report> = (1..=3)
        .map(|k| {
            let mut settings = whole_settings.clone();
            settings.shard = Some(Shards { count: 3, parts: vec![k] });
            let outcome = run(&settings, &bots(), &play as &PlayFn, 0, &|| {}).expect("played");
            assert_eq!(outcome.summary.games, if k == 1 { 34 } else { 33 });
            // Through JSON, as `simulate merge` reads them.
            Report::from_json(&Report::new(settings, outcome.summary).to_json()).expect("a report")
        })
        .collect();
    let merged = Report::merge(&[shards[2].clone(), shards[0].clone(), shards[1].clone()]).expect("merged");
    assert_eq!(merged.to_json(), whole);
    // Two of three shards are not the whole run, and say so.
    let partial = Report::merge(&shards[..2]).expect("merged");
    assert_eq!(partial.settings.shard, Some(Shards { count: 3, parts: vec![1, 2] }));
    assert_eq!(Report::merge(&[partial, shards[2].clone()]).expect("merged").to_json(), whole);
}

#[test]
fn the_thread_count_does_not_change_a_byte() {
    let mut settings = settings();
    settings.games = 300;
    let play = made_up(&settings);
    let reports: Vec<(String, Vec<u8>)> = [1, 2, 3]
        .iter()
        .map(|&threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            let outcome = pool.install(|| run(&settings, &bots(), &play as &PlayFn, 70, &|| {})).expect("played");
            (Report::new(settings.clone(), outcome.summary).to_json(), outcome.logs)
        })
        .collect();
    assert_eq!(reports[0], reports[1]);
    assert_eq!(reports[0], reports[2]);
    let logs = String::from_utf8(reports[0].1.clone()).expect("text");
    assert_eq!(logs.matches("=== game ").count(), 70);
    assert!(logs.starts_with(&format!("=== game 0 (seed {}) ===\ngame 0 played\n", game_seed(42, 0))), "{logs}");
    assert!(logs.contains("=== game 69 ") && !logs.contains("=== game 70 "));
}

#[test]
fn a_game_that_fails_stops_the_run_at_the_first_in_order() {
    let settings = settings();
    let play = |game: &GameSetup, _: Option<&mut dyn std::io::Write>| {
        if game.index % 40 == 39 {
            Err("no legal move".to_string())
        } else {
            Ok(record(game.index))
        }
    };
    let failed = run(&settings, &bots(), &play as &PlayFn, 0, &|| {}).expect_err("fails");
    assert_eq!((failed.index, failed.message.as_str()), (39, "no legal move"));
    assert_eq!(failed.to_string(), format!("game 39 (seed {}) could not be played: no legal move", game_seed(42, 39)));
}

#[test]
fn a_matrix_pits_every_pair_with_each_deck_first_half_the_time() {
    let mut settings = settings();
    settings.games = 10;
    settings.matrix = vec!["A".into(), "B".into(), "C".into()];
    assert_eq!(settings.total_games(), 30);
    let seats: Vec<Vec<Option<String>>> = (0..4).map(|i| settings.game(i, &bots()).decks).collect();
    assert_eq!(seats[0], [Some("A".to_string()), Some("B".to_string())]);
    assert_eq!(seats[1], [Some("B".to_string()), Some("A".to_string())]);
    assert_eq!(settings.game(10, &bots()).pairing, Some([(0, 0), (2, 1)]));
    assert_eq!(settings.game(29, &bots()).pairing, Some([(2, 0), (1, 1)]));
    let play = made_up(&settings);
    let outcome = run(&settings, &bots(), &play as &PlayFn, 0, &|| {}).expect("played");
    let report = Report::new(settings.clone(), outcome.summary);
    let matrix = report.figures.matrix.expect("a matrix");
    // Games 0–9 (A v B): seat 1 wins 0–5, seat 2 6–8, 9 draws; A sits
    // first in the even ones: A wins 0, 2, 4 (seat 1) and 7 (seat 2).
    assert_eq!(matrix.cells[0][1], Some(Rate::new(4, 10)));
    // B wins 1, 3, 5 (seat 1) and 6, 8 (seat 2).
    assert_eq!(matrix.cells[1][0], Some(Rate::new(5, 10)));
    assert_eq!(matrix.cells[0][0], None);
    assert_eq!(report.summary.matchups["A"]["B"].draws, 1);
}

#[test]
fn reports_of_other_runs_or_the_same_games_twice_do_not_merge() {
    let shard = |k: u64, change: &dyn Fn(&mut Settings)| {
        let mut settings = settings();
        settings.shard = Some(Shards { count: 2, parts: vec![k] });
        change(&mut settings);
        Report::new(settings, summary_of(0..3))
    };
    let first = shard(1, &|_| {});
    let other_seed = shard(2, &|s| s.seed = 7);
    assert_eq!(Report::merge(&[first.clone(), other_seed]), Err(MergeError::Settings(1, "seed")));
    let other_data = shard(2, &|s| s.data = "fnv1a64:1111111111111111".into());
    assert_eq!(
        Report::merge(&[first.clone(), other_data]).expect_err("refused").to_string(),
        "report 2 is not a shard of the same run as report 1: its engine data differs"
    );
    let again = Report::merge(&[first.clone(), first.clone()]).expect_err("refused");
    assert_eq!(again.to_string(), "report 2 holds shard 1/2 again: its games would be counted twice");
    let whole = Report::new(settings(), summary_of(0..3));
    assert!(matches!(Report::merge(&[first, whole]), Err(MergeError::Settings(1, "number of shards"))));
    assert_eq!(Report::merge(&[]), Err(MergeError::Nothing));
    assert!(Report::from_json("{\"format\": 99}").expect_err("refused").contains("format 99"));
}

#[test]
fn the_text_report_shows_sample_sizes_and_ends_with_its_limits() {
    let text = super::text::render(&Report::new(settings(), summary_of(0..10)));
    assert!(text.contains("\n          wins  games   rate  95% interval\n"), "{text}");
    assert!(text.contains("\n  seat 1     6     10  60.0%    31.3–83.2%\n"), "{text}");
    assert!(text.contains("\n  draws      1     10  10.0%     1.8–40.4%\n"), "{text}");
    assert!(text.contains("seat 1 won 66.7% of 9 decided games (fair: 50.0%): +16.7 points"), "{text}");
    assert!(text.contains("median 3"), "{text}");
    assert!(text.trim_end().ends_with(super::text::CAVEAT), "{text}");
}

#[test]
fn the_page_draws_a_chart_per_figure() {
    let mut settings = settings();
    settings.matrix = vec!["A".into(), "B".into()];
    let mut summary = summary_of(0..10);
    summary.add(&record(3), Some([("A", 0), ("B", 1)]));
    let page = super::html::page(&Report::new(settings, summary));
    let chart = |class: &str| {
        let start = page.find(&format!("<svg class=\"chart {class}\"")).unwrap_or_else(|| panic!("{class} chart"));
        &page[start..start + page[start..].find("</svg>").expect("closed")]
    };
    // Two seats and draws, each with a bar and an interval.
    assert_eq!(chart("wins").matches("<rect class=\"bar\"").count(), 3);
    assert_eq!(chart("wins").matches("<path class=\"interval\"").count(), 3);
    assert_eq!(chart("length").matches("<rect class=\"bin\"").count(), 4);
    let curve = chart("curve");
    assert_eq!(curve.matches("<polyline class=\"seat").count(), 2);
    // Five rounds, so five points a line.
    let points = &curve[curve.find("points=\"").expect("points") + 8..];
    assert_eq!(points[..points.find('"').expect("closed")].split(' ').count(), 5);
    assert_eq!(chart("matrix").matches("<rect class=\"cell\"").count(), 4);
    assert!(!page.contains("<script") && !page.contains("href=") && !page.contains("src="));
    assert_eq!(page.matches("http://").count(), page.matches("http://www.w3.org/2000/svg").count());
}

#[test]
fn a_report_claiming_a_huge_curve_is_refused_before_it_is_filled_in() {
    let mut wide = summary_of(0..1);
    wide.wins = vec![0; 2_000];
    let mut long = summary_of(0..1);
    long.curve = vec![Vec::new(); 3_000];
    let shard = |k: u64, summary: Summary| {
        let mut settings = settings();
        settings.shard = Some(Shards { count: 2, parts: vec![k] });
        Report { format: super::report::FORMAT, figures: Figures::of(&Summary::default(), &[]), settings, summary }
    };
    assert_eq!(Report::merge(&[shard(1, wide), shard(2, long.clone())]), Err(MergeError::TooLarge));
    let mut huge = long;
    huge.wins = vec![0; 2_000];
    let text = serde_json::to_string(&shard(1, huge)).expect("JSON");
    assert!(Report::from_json(&text).expect_err("refused").contains("more than 4000000 rounds × seats"));
}
