//! Statistics of many games played by bots: what `cardsmith simulate`
//! reports.  A game is played by the engine and leaves a
//! [`GameRecord`](crate::engine::record::GameRecord); this module adds
//! records up and says what they show.
//!
//! - [`summary`]: the running totals, whole numbers only, merged exactly;
//! - [`interval`]: rates with their 95% Wilson intervals;
//! - [`figures`]: what the totals show (win rates, first-player advantage,
//!   game length, score curves, cards, the matchup matrix);
//! - [`settings`]: what a run plays, each game's seed, shards;
//! - [`run`]: the games played on every core and summed deterministically;
//! - [`report`]: the JSON report, its schema and the merge of shards;
//! - [`text`] and [`html`]: the report for a terminal and as a page.

pub mod figures;
pub mod html;
pub mod interval;
pub mod report;
pub mod run;
pub mod settings;
pub mod summary;
pub mod text;

pub use report::Report;
pub use settings::{BotChoice, GameSetup, Settings};
pub use summary::Summary;

#[cfg(test)]
mod tests;
