//! How a game is set up, as data: the players, the numbers each player
//! tracks from the start (HP, resources), the zones cards lie in (draw deck,
//! hand, a face-up market row) and the steps that fill them, in order.  An
//! engine sets a game up from the engine data's `setup` alone.
//!
//! ```text
//! setup {
//!   players 2..4
//!   counter hp "HP" 24
//!   zone draw-deck "Draw Deck" { owner each; visibility hidden; ordered }
//!   zone hand "Hand" { owner each; visibility private; limit 7 }
//!   decks draw to draw-deck
//!   shuffle draw-deck
//!   when players 2 { deal 6 from draw-deck to hand }
//!   when players 3..4 { limit hand 5; deal 5 from draw-deck to hand }
//! }
//! ```
//!
//! The steps and zone limits in a `when players` block hold only for those
//! numbers of players; a `decks` step ending in `random` has an engine draw
//! one deck of each type for each game.
//!
//! Lines are read where they stand; the names they use (zones, kinds, deck
//! types) are checked once the whole ruleset is read ([`check`]).

use super::codes;
use super::model::play::Ref;
use super::model::setup::*;
use super::model::Ruleset;
use super::names::{ident_at, string_at, suggest};
use crate::diagnostics::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{Node, Value, ValueKind};

/// Opens a `setup { … }` block, or `None` (reported) when the ruleset has
/// one already in the same file; an extension's replaces its base's.
pub(super) fn open(node: &Node, ruleset: &Ruleset, out: &mut Vec<Diagnostic>) -> Option<Setup> {
    if let Some(first) = ruleset.setup.as_ref().filter(|s| s.span.file == node.span.file) {
        out.push(
            Diagnostic::error(&codes::DUPLICATE_DECLARATION, "`setup` is declared twice")
                .primary(node.head_span(), "declared again here")
                .secondary(first.span, "first declared here")
                .help("a game has one set-up: merge the two blocks"),
        );
        return None;
    }
    if let Some(extra) = node.values.first() {
        out.push(bad(extra.span, "`setup` takes no values", "write its lines in its block: `setup { players 2 }`"));
    }
    Some(Setup {
        doc: None,
        markers: Vec::new(),
        players: Players::default(),
        counters: Vec::new(),
        zones: Vec::new(),
        steps: Vec::new(),
        limits: Vec::new(),
        uses: Vec::new(),
        step_spans: Vec::new(),
        limit_spans: Vec::new(),
        when_spans: Vec::new(),
        span: node.head_span(),
    })
}

/// `players 2` or `players 2..4`.
pub(super) fn players(line: &Node, setup: &mut Setup, out: &mut Vec<Diagnostic>) {
    if let Some(players) = players_at(line, 0, out) {
        setup.players = players;
    }
}

/// The number of players (`2`, `2..4`) a line writes from position `at`,
/// its last value; `None` when reported.
fn players_at(line: &Node, at: usize, out: &mut Vec<Diagnostic>) -> Option<Players> {
    let help = if at == 0 {
        "write `players 2` or `players 2..4`"
    } else {
        "write `when players 2 { … }` or `when players 3..4 { … }`"
    };
    match &line.values[at.min(line.values.len())..] {
        [v] => match v.kind {
            ValueKind::Int(n) if n >= 1 => Some(Players { min: n, max: n }),
            ValueKind::Range { low, high: Some(high) } if low >= 1 && high >= low => {
                Some(Players { min: low, max: high })
            }
            _ => {
                out.push(bad(v.span, "expected a number of players", help));
                None
            }
        },
        _ => {
            out.push(bad(line.head_span(), "`players` takes one number", help));
            None
        }
    }
}

/// The players of a `when players 3..4 { … }` block, noted to be checked
/// against the game's once the set-up is read; `None` when reported.
pub(super) fn when_players(line: &Node, setup: &mut Setup, out: &mut Vec<Diagnostic>) -> Option<Players> {
    if ident_at(line, 0) != Some("players") {
        let at = line.values.first().map_or(line.head_span(), |v| v.span);
        out.push(bad(
            at,
            "a set-up's `when` names a number of players",
            "write `when players 3..4 { deal 5 from draw-deck to hand }`",
        ));
        return None;
    }
    let players = players_at(line, 1, out)?;
    let span = line.values.first().zip(line.values.last()).and_then(|(a, b)| a.span.to(b.span));
    let span = span.unwrap_or(line.head_span());
    setup.when_spans.push((players, span));
    Some(players)
}

pub(super) fn counter(line: &Node, setup: &mut Setup, out: &mut Vec<Diagnostic>) {
    let example = "write `counter hp \"HP\" 24`: an id, a printed name and the starting value";
    let (Some(id), Some(display)) = (ident_at(line, 0), string_at(line, 1)) else {
        out.push(bad(line.head_span(), "a counter needs an id and a printed name", example));
        return;
    };
    let start = match line.values.get(2).map(|v| &v.kind) {
        Some(ValueKind::Int(n)) => *n,
        Some(ValueKind::Signed(n)) => *n,
        _ => {
            let at = line.values.get(2).map(|v| v.span).unwrap_or(line.head_span());
            out.push(bad(at, format!("counter `{id}` needs its starting value"), example));
            return;
        }
    };
    if let Some(extra) = line.values.get(3) {
        out.push(bad(extra.span, "too many values for `counter`", example));
    }
    if setup.counters.iter().any(|c| c.id == id) {
        out.push(bad(line.head_span(), format!("counter `{id}` is declared twice"), "remove one of them"));
        return;
    }
    setup.counters.push(Counter {
        id: id.to_string(),
        display: display.to_string(),
        start,
        min: 0,
        max: None,
        owner: Owner::Each,
        side: None,
        reset_each_round: false,
        doc: None,
    });
}

/// `marker ID "NAME"`: a number kept on each card in play.
pub(super) fn marker(line: &Node, setup: &mut Setup, out: &mut Vec<Diagnostic>) -> Option<usize> {
    let example = "write `marker damage \"Damage\"`: an id and a printed name";
    let Some(id) = ident_at(line, 0) else {
        out.push(bad(line.head_span(), "a marker needs an id and a printed name", example));
        return None;
    };
    if let Some(extra) = line.values.get(2) {
        out.push(bad(extra.span, "too many values for `marker`", example));
    }
    let taken = setup.markers.iter().any(|m| m.id == id) || setup.counters.iter().any(|c| c.id == id);
    if taken {
        out.push(bad(line.head_span(), format!("`{id}` is declared twice"), "give each counter and marker its own id"));
        return None;
    }
    let display = string_at(line, 1).unwrap_or(id).to_string();
    setup.markers.push(Marker { id: id.to_string(), display, doc: None });
    Some(setup.markers.len() - 1)
}

/// A zone while its block is read, with the names its lines use.
pub struct ZoneLines {
    zone: Zone,
    uses: Vec<NameUse>,
}

/// Opens a `zone ID "NAME" { … }` line, or `None` (reported) when it has
/// no id or the set-up has a zone of its id.
pub(super) fn open_zone(line: &Node, setup: &Setup, out: &mut Vec<Diagnostic>) -> Option<ZoneLines> {
    let Some(id) = ident_at(line, 0) else {
        out.push(bad(line.head_span(), "a zone needs an id", "write `zone hand \"Hand\" { owner each }`"));
        return None;
    };
    if setup.zones.iter().any(|z| z.id == id) {
        out.push(bad(line.head_span(), format!("zone `{id}` is declared twice"), "remove one of them"));
        return None;
    }
    if let Some(extra) = line.values.get(2).or(line.values.get(1).filter(|_| string_at(line, 1).is_none())) {
        out.push(bad(extra.span, "a zone takes an id and a printed name", "write `zone hand \"Hand\" { owner each }`"));
    }
    let display = string_at(line, 1).unwrap_or(id).to_string();
    let zone = Zone {
        id: id.to_string(),
        display,
        owner: Owner::Each,
        side: None,
        visibility: Visibility::Hidden,
        ordered: false,
        limit: None,
        holds: Vec::new(),
        reshuffle: None,
        restock: None,
        fallback: None,
        doc: None,
    };
    Some(ZoneLines { zone, uses: Vec::new() })
}

/// A counter or zone both `owner shared` and of one side.
pub(super) fn shared_of_a_side(line: &Node, what: &str, id: &str) -> Diagnostic {
    bad(
        line.head_span(),
        format!("{what} `{id}` is shared by the table and belongs to one side"),
        format!("a {what} of one side is that side's player's own: remove `owner shared` or `side`"),
    )
}

impl ZoneLines {
    /// The zone's id.
    pub(super) fn id(&self) -> &str {
        &self.zone.id
    }

    /// `side runner`: only that side's player has the zone.
    pub(super) fn set_side(&mut self, side: Option<String>) {
        self.zone.side = side;
    }

    /// The zone's id, when it is both shared and of one side.
    pub(super) fn shared_of_a_side(&self) -> Option<String> {
        (self.zone.side.is_some() && self.zone.owner == Owner::Shared).then(|| self.zone.id.clone())
    }
}

/// Adds a zone whose block is read to the set-up.
pub(super) fn close_zone(lines: ZoneLines, setup: &mut Setup) {
    setup.uses.extend(lines.uses);
    setup.zones.push(lines.zone);
}

/// Reports the values after the first `takes` of a zone's line.
fn at_most(item: &Node, takes: usize, out: &mut Vec<Diagnostic>) {
    if let Some(extra) = item.values.get(takes) {
        out.push(bad(extra.span, format!("too many values for `{}`", item.name.text), "write one line per setting"));
    }
}

pub(super) fn owner(item: &Node, lines: &mut ZoneLines, out: &mut Vec<Diagnostic>) {
    at_most(item, 1, out);
    match ident_at(item, 0) {
        Some("each") => lines.zone.owner = Owner::Each,
        Some("shared") => lines.zone.owner = Owner::Shared,
        _ => out.push(bad(item.head_span(), "`owner` is `each` or `shared`", "write `owner each`")),
    }
}

pub(super) fn visibility(item: &Node, lines: &mut ZoneLines, out: &mut Vec<Diagnostic>) {
    at_most(item, 1, out);
    match ident_at(item, 0) {
        Some("hidden") => lines.zone.visibility = Visibility::Hidden,
        Some("private") => lines.zone.visibility = Visibility::Private,
        Some("public") => lines.zone.visibility = Visibility::Public,
        _ => out.push(bad(
            item.head_span(),
            "`visibility` is `hidden`, `private` or `public`",
            "write `visibility public` for face-up cards",
        )),
    }
}

pub(super) fn ordered(item: &Node, lines: &mut ZoneLines, out: &mut Vec<Diagnostic>) {
    at_most(item, 0, out);
    lines.zone.ordered = true;
}

pub(super) fn limit(item: &Node, lines: &mut ZoneLines, out: &mut Vec<Diagnostic>) {
    at_most(item, 1, out);
    match item.values.first().map(|v| &v.kind) {
        Some(ValueKind::Int(n)) if *n >= 1 => lines.zone.limit = Some(*n),
        _ => out.push(bad(item.head_span(), "`limit` takes a number of cards, at least 1", "write `limit 7`")),
    }
}

pub(super) fn holds(item: &Node, lines: &mut ZoneLines, out: &mut Vec<Diagnostic>) {
    for value in &item.values {
        match &value.kind {
            ValueKind::Ident(kind) => {
                lines.zone.holds.push(kind.clone());
                lines.uses.push(NameUse { what: Wanted::Kind, name: kind.clone(), span: value.span });
            }
            _ => out.push(bad(value.span, "`holds` lists card kinds", "write `holds caster`")),
        }
    }
}

/// `doc "…"` of a zone.
pub(super) fn zone_doc(doc: Option<String>, lines: &mut ZoneLines) {
    lines.zone.doc = doc;
}

/// `reshuffle ZONE`, `restock ZONE` or `fallback ZONE`: the zone play
/// refills this one from, or takes from in its stead.
pub(super) fn refill(item: &Node, lines: &mut ZoneLines, out: &mut Vec<Diagnostic>) {
    let word = item.name.text.as_str();
    let from = match item.values.as_slice() {
        [Value { kind: ValueKind::Ident(name), span }] => Some(Ref { name: name.clone(), span: *span }),
        _ => None,
    };
    let Some(from) = from else {
        out.push(bad(item.head_span(), format!("`{word}` names one zone"), format!("write `{word} discard`")));
        return;
    };
    lines.uses.push(NameUse { what: Wanted::Zone, name: from.name.clone(), span: from.span });
    match word {
        "reshuffle" => lines.zone.reshuffle = Some(from),
        "restock" => lines.zone.restock = Some(from),
        _ => lines.zone.fallback = Some(from),
    }
}

/// `limit ZONE N` in a `when players …` block; its players are the
/// block's, given once the block is read.
pub(super) fn zone_limit(line: &Node, setup: &mut Setup, out: &mut Vec<Diagnostic>) {
    let help = "write `limit market-row 4`: a zone and the most cards it holds";
    match line.values.as_slice() {
        [Value { kind: ValueKind::Ident(zone), span }, Value { kind: ValueKind::Int(limit), .. }] if *limit >= 1 => {
            setup.uses.push(NameUse { what: Wanted::Zone, name: zone.clone(), span: *span });
            let players = Players { min: 0, max: 0 };
            setup.limits.push(ZoneLimit { zone: zone.clone(), limit: *limit, players });
            setup.limit_spans.push(line.span);
        }
        _ => out.push(bad(line.head_span(), "`limit` takes a zone and a number of cards, at least 1", help)),
    }
}

/// How one step line reads its words.
pub(super) type StepForm = fn(&mut StepReader<'_>) -> Option<Step>;

pub(super) const DECKS: StepForm = |reader| reader.decks();
pub(super) const PLACE: StepForm = |reader| reader.place();
pub(super) const DEAL: StepForm = |reader| reader.deal();
pub(super) const ADD: StepForm = |reader| reader.add();
pub(super) const SHUFFLE: StepForm = |reader| reader.only_zone().map(|zone| Step::Shuffle { zone });
pub(super) const MULLIGAN: StepForm = |reader| reader.only_zone().map(|zone| Step::Mulligan { zone });

/// One step line, reported when it is not written as its form says.  The
/// names it uses are noted to be checked once the ruleset is read.
pub(super) fn step(line: &Node, form: StepForm, written: &str, setup: &mut Setup, out: &mut Vec<Diagnostic>) {
    let mut reader = StepReader { line, uses: &mut setup.uses };
    match form(&mut reader) {
        Some(step) => {
            setup.steps.push(SetupStep { step, players: None, side: None });
            setup.step_spans.push(line.span);
        }
        None => out.push(bad(
            line.head_span(),
            format!("`{}` is not written as the set-up language expects", line.name.text),
            format!("write `{} {written}`", line.name.text),
        )),
    }
}

/// Reads the words of one step line by position, noting each name it reads.
pub(super) struct StepReader<'a> {
    line: &'a Node,
    uses: &'a mut Vec<NameUse>,
}

impl StepReader<'_> {
    /// The name at position `i`, noted as a use of `what`.
    fn name(&mut self, i: usize, what: Wanted) -> Option<String> {
        let name = ident_at(self.line, i)?;
        self.uses.push(NameUse { what, name: name.to_string(), span: self.line.values[i].span });
        Some(name.to_string())
    }

    /// Whether position `i` holds the word `word`.
    fn word(&self, i: usize, word: &str) -> bool {
        ident_at(self.line, i) == Some(word)
    }

    fn position(&self, word: &str) -> Option<usize> {
        (0..self.line.values.len()).find(|&i| self.word(i, word))
    }

    /// Names from position 0 up to `end`, at least one.
    fn names(&mut self, end: usize, what: Wanted) -> Option<Vec<String>> {
        let names = (0..end).map(|i| self.name(i, what)).collect::<Option<Vec<_>>>()?;
        (!names.is_empty()).then_some(names)
    }

    fn len(&self) -> usize {
        self.line.values.len()
    }

    fn only_zone(&mut self) -> Option<String> {
        (self.len() == 1).then(|| self.name(0, Wanted::Zone)).flatten()
    }

    /// `decks TYPE… to ZONE [set-aside ZONE] [random]`
    fn decks(&mut self) -> Option<Step> {
        let to = self.position("to")?;
        let random = self.len() > to + 2 && self.word(self.len() - 1, "random");
        let set_aside = match self.len() - to - usize::from(random) {
            2 => None,
            4 if self.word(to + 2, "set-aside") => Some(self.name(to + 3, Wanted::Zone)?),
            _ => return None,
        };
        let deck_types = self.names(to, Wanted::DeckType)?;
        Some(Step::Decks { deck_types, to: self.name(to + 1, Wanted::Zone)?, set_aside, random })
    }

    /// `place KIND… from ZONE to ZONE`
    fn place(&mut self) -> Option<Step> {
        let from = self.position("from")?;
        if !(self.word(from + 2, "to") && self.len() == from + 4) {
            return None;
        }
        let kinds = self.names(from, Wanted::Kind)?;
        Some(Step::Place { kinds, from: self.name(from + 1, Wanted::Zone)?, to: self.name(from + 3, Wanted::Zone)? })
    }

    /// `deal N from ZONE to ZONE` or `deal FIELD of ZONE from ZONE to ZONE`
    fn deal(&mut self) -> Option<Step> {
        let number = match self.line.values.first().map(|v| &v.kind) {
            Some(ValueKind::Int(n)) if *n >= 1 => Some(*n),
            Some(ValueKind::Ident(_)) if self.word(1, "of") => None,
            _ => return None,
        };
        let from = if number.is_some() { 1 } else { 3 };
        if !(self.word(from, "from") && self.word(from + 2, "to") && self.len() == from + 4) {
            return None;
        }
        let count = match number {
            Some(n) => Count::Cards(n),
            None => Count::Field { field: self.name(0, Wanted::Field)?, each_in: self.name(2, Wanted::Zone)? },
        };
        Some(Step::Deal { count, from: self.name(from + 1, Wanted::Zone)?, to: self.name(from + 3, Wanted::Zone)? })
    }

    /// `add FIELD to COUNTER from ZONE`
    fn add(&mut self) -> Option<Step> {
        if !(self.len() == 5 && self.word(1, "to") && self.word(3, "from")) {
            return None;
        }
        Some(Step::Add {
            field: self.name(0, Wanted::Field)?,
            counter: self.name(2, Wanted::Counter)?,
            from: self.name(4, Wanted::Zone)?,
        })
    }
}

/// Checks the names the set-up uses against the whole ruleset, and that a
/// deal fits the zone it fills.
pub(super) fn check(ruleset: &Ruleset, out: &mut Vec<Diagnostic>) {
    let Some(setup) = &ruleset.setup else { return };
    let zones: Vec<&str> = setup.zones.iter().map(|z| z.id.as_str()).collect();
    let kinds: Vec<&str> = ruleset.kinds.iter().map(|k| k.id.as_str()).collect();
    let deck_types: Vec<&str> = ruleset.deck_types.iter().map(|d| d.id.as_str()).collect();
    let counters: Vec<&str> = setup.counters.iter().map(|c| c.id.as_str()).collect();
    let mut fields: Vec<&str> = ruleset.kinds.iter().flat_map(|k| &k.schema.fields).map(|f| f.name.as_str()).collect();
    fields.sort_unstable();
    fields.dedup();
    for used in &setup.uses {
        let (declared, what) = match used.what {
            Wanted::Zone => (&zones, "zone of the set-up"),
            Wanted::Kind => (&kinds, "card kind"),
            Wanted::DeckType => (&deck_types, "deck type"),
            Wanted::Counter => (&counters, "counter of the set-up"),
            Wanted::Field => (&fields, "field of any card kind"),
        };
        if !declared.contains(&used.name.as_str()) {
            out.push(
                Diagnostic::error(&codes::BAD_SETUP, format!("`{}` is not a {what}", used.name))
                    .primary(used.span, "not declared in this ruleset")
                    .note(format!("declared: {}", declared.join(", ")))
                    .suggest(suggest(&used.name, declared.iter().copied())),
            );
        }
    }
    for &(players, span) in &setup.when_spans {
        if !(setup.players.holds(players.min) && setup.players.holds(players.max)) {
            let (min, max) = (setup.players.min, setup.players.max);
            let game = if min == max { format!("{min}") } else { format!("{min} to {max}") };
            out.push(
                Diagnostic::error(
                    &codes::BAD_SETUP,
                    format!("these steps are for {}, and the game takes {game} players", shown(players)),
                )
                .primary(span, "outside the set-up's `players`")
                .help(format!("name numbers of players within {min}..{max}, or widen the set-up's `players`")),
            );
        }
    }
    check_limits(setup, out);
    check_sides(setup, out);
    check_deck_sides(ruleset, setup, out);
    for (step, span) in setup.steps.iter().zip(&setup.step_spans) {
        let Step::Deal { count: Count::Cards(count), to, .. } = &step.step else { continue };
        // The tightest limit the zone has for a number of players the deal
        // is done for.
        let counts = step.players.unwrap_or(setup.players);
        let tightest = (counts.min.max(setup.players.min)..=counts.max.min(setup.players.max).min(counts.min + 64))
            .filter_map(|n| zone_limit_for(setup, to, n))
            .min();
        if let Some((limit, by_players)) = tightest.filter(|(limit, _)| count > limit) {
            let with = by_players.map_or(String::new(), |n| format!(" with {n} players"));
            let which = if by_players.is_some() { "its `limit` for that number" } else { "the zone's `limit`" };
            out.push(
                Diagnostic::error(&codes::BAD_SETUP, format!("dealing {count} cards overfills `{to}`"))
                    .primary(*span, format!("`{to}` holds at most {limit} cards{with}"))
                    .help(format!("deal at most {limit}, or raise {which}")),
            );
        }
    }
}

/// Steps of one side on another side's zone, and steps of every player
/// that move cards between one side's zone and a zone every player has:
/// every player would take that side's cards.
fn check_sides(setup: &Setup, out: &mut Vec<Diagnostic>) {
    let zone = |id: &str| setup.zones.iter().find(|z| z.id == id);
    for (step, span) in setup.steps.iter().zip(&setup.step_spans) {
        let (from, to) = match &step.step {
            Step::Deal { from, to, .. } | Step::Place { from, to, .. } => (from, to),
            _ => continue,
        };
        let (Some(from), Some(to)) = (zone(from), zone(to)) else { continue };
        let sides = [&from, &to].map(|z| z.side.as_deref());
        if let Some(side) = &step.side {
            if let Some(other) = sides.into_iter().flatten().find(|s| *s != side) {
                out.push(bad(*span, format!("a step of side `{side}` uses a zone of side `{other}`"), {
                    format!("move it to a `when side {other}` block, or use zones of side `{side}`")
                }));
            }
            continue;
        }
        let every = |z: &Zone| z.side.is_none() && z.owner == Owner::Each;
        let one_side = [from, to].into_iter().find_map(|z| z.side.as_deref().map(|s| (s, &z.id)));
        if let Some((side, id)) = one_side.filter(|_| every(from) || every(to)) {
            out.push(bad(
                *span,
                format!("every player would take the cards of `{id}`, the zone of side `{side}`"),
                format!("write the step in `when side {side} {{ … }}`: only that side's player does it"),
            ));
        }
    }
}

/// Decks of one side's deck type put into a zone of another side: that
/// side's player would hold the other's cards.
fn check_deck_sides(ruleset: &Ruleset, setup: &Setup, out: &mut Vec<Diagnostic>) {
    for (step, span) in setup.steps.iter().zip(&setup.step_spans) {
        let Step::Decks { deck_types, to, .. } = &step.step else { continue };
        let Some(zone_side) = setup.zones.iter().find(|z| z.id == *to).and_then(|z| z.side.as_deref()) else {
            continue;
        };
        let sides =
            deck_types.iter().filter_map(|d| ruleset.deck_type(d)).filter_map(|d| Some((&d.id, d.side.as_deref()?)));
        for (deck_type, side) in sides.filter(|(_, side)| *side != zone_side) {
            out.push(bad(
                *span,
                format!("decks of `{deck_type}`, a deck type of side `{side}`, go into `{to}`, the zone of side `{zone_side}`"),
                format!("put them into a zone of side `{side}`, or of no side"),
            ));
        }
    }
}

/// The most cards a zone holds when `players` play, and whether a `limit`
/// for that number says so (`Some(players)`) or the zone's own.
fn zone_limit_for(setup: &Setup, zone: &str, players: i64) -> Option<(i64, Option<i64>)> {
    let by_players = setup.limits.iter().find(|l| l.zone == zone && l.players.holds(players));
    match by_players {
        Some(limit) => Some((limit.limit, Some(players))),
        None => setup.zones.iter().find(|z| z.id == zone).and_then(|z| z.limit).map(|l| (l, None)),
    }
}

/// Reports two limits of one zone for the same number of players.
fn check_limits(setup: &Setup, out: &mut Vec<Diagnostic>) {
    for (i, (limit, span)) in setup.limits.iter().zip(&setup.limit_spans).enumerate() {
        let earlier = setup.limits[..i].iter().zip(&setup.limit_spans).find(|(other, _)| {
            other.zone == limit.zone && other.players.min <= limit.players.max && limit.players.min <= other.players.max
        });
        if let Some((_, first)) = earlier {
            out.push(
                Diagnostic::error(
                    &codes::BAD_SETUP,
                    format!("`{}` is given two limits for one number of players", limit.zone),
                )
                .primary(*span, "limited again here")
                .secondary(*first, "first limited here")
                .help("give each number of players one `limit` of the zone"),
            );
        }
    }
}

/// `3 players` or `3 to 4 players`.
fn shown(players: Players) -> String {
    if players.min == players.max {
        format!("{} players", players.min)
    } else {
        format!("{} to {} players", players.min, players.max)
    }
}

fn bad(span: Span, message: impl Into<String>, help: impl Into<String>) -> Diagnostic {
    Diagnostic::error(&codes::BAD_SETUP, message).primary(span, "in this set-up line").help(help)
}
