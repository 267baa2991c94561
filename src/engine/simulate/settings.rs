//! What a simulation plays: the settings a report records (so that shards
//! of one run are known to be of one run), each game's seed, and which
//! games a shard plays.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Everything that decides a run's games.  Two shards merge only when all
/// but `shard` are equal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Settings {
    /// The ruleset id of the game played.
    pub game: String,
    /// A fingerprint of the engine data document (FNV-1a, 64 bits, of its
    /// JSON text), so that shards played on different data do not merge.
    pub data: String,
    /// Games asked for; with a matrix, games per pair of decks.
    pub games: u64,
    pub seed: u64,
    /// Each seat's bot, as written on the command line (`random`,
    /// `greedy:ID`, `search:PLAYOUTS`).
    pub bots: Vec<String>,
    /// Each seat's deck, when one was chosen (none with a matrix).
    pub decks: Vec<Option<String>>,
    /// The decks of a matrix, in the order given (empty: no matrix).
    pub matrix: Vec<String>,
    /// The decks chosen for the set-up's steps on shared zones (`--supply`);
    /// absent when none was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supply: Vec<String>,
    /// The shards of the games this report holds; `None`: every game.
    pub shard: Option<Shards>,
}

/// Some of the `count` shards of a run, numbered from 1, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Shards {
    pub count: u64,
    pub parts: Vec<u64>,
}

/// A bot as the command line names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotChoice {
    Random,
    /// A bot the ruleset declares, by id (`None`: the first it declares).
    Greedy(Option<String>),
    /// Playouts per decision (`None`: [`DEFAULT_PLAYOUTS`]).
    Search(Option<u32>),
}

/// Playouts of `search` when none are given.
pub const DEFAULT_PLAYOUTS: u32 = 100;

impl BotChoice {
    /// `random`, `greedy`, `greedy:ID`, `search` or `search:PLAYOUTS`.
    pub fn parse(text: &str) -> Option<BotChoice> {
        let (kind, argument) = match text.split_once(':') {
            Some((kind, argument)) => (kind, Some(argument)),
            None => (text, None),
        };
        match (kind, argument) {
            ("random", None) => Some(BotChoice::Random),
            ("greedy", None) => Some(BotChoice::Greedy(None)),
            ("greedy", Some(id)) if !id.is_empty() => Some(BotChoice::Greedy(Some(id.to_string()))),
            ("search", None) => Some(BotChoice::Search(None)),
            ("search", Some(n)) => n.parse().ok().filter(|n| *n > 0).map(|n| BotChoice::Search(Some(n))),
            _ => None,
        }
    }
}

impl std::fmt::Display for BotChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotChoice::Random => write!(f, "random"),
            BotChoice::Greedy(None) => write!(f, "greedy"),
            BotChoice::Greedy(Some(id)) => write!(f, "greedy:{id}"),
            BotChoice::Search(None) => write!(f, "search"),
            BotChoice::Search(Some(n)) => write!(f, "search:{n}"),
        }
    }
}

/// The `i`-th output (from 0) of a SplitMix64 generator seeded with
/// `seed`: `mix(seed + (i + 1) · 0x9E3779B97F4A7C15)`, all wrapping.  Game
/// `i` of a run is played with it, so a game's seed depends only on the
/// run's seed and its number, never on the shard or thread that plays it.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `K/N`: the K-th of N shards (1 ≤ K ≤ N).
pub fn parse_shard(text: &str) -> Option<(u64, u64)> {
    let (k, n) = text.split_once('/')?;
    let (k, n): (u64, u64) = (k.trim().parse().ok()?, n.trim().parse().ok()?);
    (k >= 1 && k <= n).then_some((k, n))
}

/// FNV-1a, 64 bits, as 16 hex digits after `fnv1a64:`.
pub fn fingerprint(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64:{hash:016x}")
}

/// One game as the engine is asked to play it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSetup {
    /// The game's number in the run, from 0.
    pub index: u64,
    pub seed: u64,
    /// Each seat's bot.
    pub bots: Vec<BotChoice>,
    /// Each seat's deck, when chosen.
    pub decks: Vec<Option<String>>,
    /// The decks chosen for the shared zones.
    pub supply: Vec<String>,
    /// For a game of a matrix: the two decks' indexes in the matrix and
    /// the seat each sits at.
    pub pairing: Option<[(usize, usize); 2]>,
}

impl Settings {
    /// Whether the seats play different bots or decks: a seat's advantage
    /// is then theirs as much as the seat's.
    pub fn seats_differ(&self) -> bool {
        self.bots.windows(2).any(|pair| pair[0] != pair[1]) || self.decks.windows(2).any(|pair| pair[0] != pair[1])
    }

    /// The games of the whole run: `games`, or `games` per pair of decks
    /// of the matrix.
    pub fn total_games(&self) -> u64 {
        let decks = self.matrix.len() as u64;
        let pairs = decks * decks.saturating_sub(1) / 2;
        if self.matrix.is_empty() {
            self.games
        } else {
            self.games.saturating_mul(pairs)
        }
    }

    /// Game `index` of the run: its seed, and, in a matrix, its decks.
    /// The games of a pair of decks come one after another, the first
    /// deck in seat 1 in even games and in seat 2 in odd ones, so each
    /// deck goes first half the time.
    pub fn game(&self, index: u64, bots: &[BotChoice]) -> GameSetup {
        let mut setup = GameSetup {
            index,
            seed: game_seed(self.seed, index),
            bots: bots.to_vec(),
            decks: self.decks.clone(),
            supply: self.supply.clone(),
            pairing: None,
        };
        if self.matrix.len() >= 2 && self.games > 0 {
            let (a, b) = pair(self.matrix.len(), index / self.games);
            let [first, second] = if (index % self.games).is_multiple_of(2) { [a, b] } else { [b, a] };
            setup.decks = vec![Some(self.matrix[first].clone()), Some(self.matrix[second].clone())];
            setup.pairing = Some([(first, 0), (second, 1)]);
        }
        setup
    }

    /// The games this run plays: all of them, or, for the shard K/N, those
    /// whose number modulo N is K − 1.  The `p`-th (from 0) is game
    /// `first + p · step`; there are `count`.
    pub fn schedule(&self) -> Schedule {
        let (k, n) = match &self.shard {
            Some(Shards { count, parts }) if parts.len() == 1 => (parts[0].max(1), (*count).max(1)),
            _ => (1, 1),
        };
        let (first, total) = (k - 1, self.total_games());
        Schedule { first, step: n, count: total.saturating_sub(first).div_ceil(n) }
    }
}

/// Which games a run plays: `count` games, numbered `first`, `first + step` …
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub first: u64,
    pub step: u64,
    pub count: u64,
}

impl Schedule {
    /// The number of the `p`-th game played.
    pub fn game(&self, p: u64) -> u64 {
        self.first + p * self.step
    }
}

/// The `p`-th pair (from 0) of `decks` decks, in the order (0,1), (0,2) …
/// (0,d−1), (1,2) …; the last pair past the end.
fn pair(decks: usize, p: u64) -> (usize, usize) {
    let mut p = p;
    for a in 0..decks {
        let after = (decks - a - 1) as u64;
        if p < after {
            return (a, a + 1 + p as usize);
        }
        p -= after;
    }
    (decks.saturating_sub(2), decks.saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_splitmix64_outputs() {
        // The first outputs of SplitMix64 seeded with 1234567, as published
        // with the reference implementation.
        assert_eq!(game_seed(1_234_567, 0), 6_457_827_717_110_365_317);
        assert_eq!(game_seed(1_234_567, 1), 3_203_168_211_198_807_973);
        assert_ne!(game_seed(0, 1), game_seed(1, 0));
    }

    #[test]
    fn bots_parse_and_print_alike() {
        for text in ["random", "greedy", "greedy:rush", "search", "search:40"] {
            assert_eq!(BotChoice::parse(text).expect(text).to_string(), text);
        }
        for text in ["", "greedy:", "search:0", "search:x", "random:1", "clever"] {
            assert_eq!(BotChoice::parse(text), None, "{text}");
        }
    }

    #[test]
    fn shards_and_pairs() {
        assert_eq!(parse_shard("2/3"), Some((2, 3)));
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert_eq!(parse_shard(bad), None, "{bad}");
        }
        let pairs: Vec<_> = (0..6).map(|p| pair(4, p)).collect();
        assert_eq!(pairs, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
    }
}
