//! Once every declaration is read: each expression of play compiled where
//! it stands, each name a play line gives checked (a zone, a counter, a
//! role, a field, an action), and, when the ruleset declares `play`, what
//! its declarations lack for play reported (W0503).

use super::bad_line;
use super::expr::{Compiler, Place, Ty};
use crate::diagnostics::Diagnostic;
use crate::ruleset::codes;
use crate::ruleset::model::play::{Action, Bot, Expression, Meaning, Op, Pending, PhasePlay, Pick, Play, Ref};
use crate::ruleset::model::{Ruleset, StateDef};
use crate::ruleset::names::suggest;
use crate::ruleset::rules::Def;

/// The parts of the ruleset that hold play, taken out while they are
/// compiled against the rest.
struct Parts {
    does: Vec<Vec<Meaning>>,
    conditions: Vec<Option<Expression>>,
    quantities: Vec<Option<Expression>>,
    phases: Vec<PhasePlay>,
    play: Option<Play>,
    bots: Vec<Bot>,
}

/// Compiles and checks the play of a ruleset.  Returns the definitions
/// play expressions use, which no rule need call.
pub(in crate::ruleset) fn resolve(
    ruleset: &mut Ruleset,
    defs: &[Def],
    play_written: bool,
    out: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let mut parts = Parts {
        does: ruleset.symbols.iter_mut().map(|s| std::mem::take(&mut s.does)).collect(),
        conditions: ruleset.conditions.iter_mut().map(|c| c.means.take()).collect(),
        quantities: ruleset.quantities.iter_mut().map(|q| q.means.take()).collect(),
        phases: ruleset.phases.iter_mut().map(|p| std::mem::take(&mut p.play)).collect(),
        play: ruleset.play.take(),
        bots: std::mem::take(&mut ruleset.bots),
    };
    let used = {
        let does_roles = ruleset
            .symbols
            .iter()
            .zip(&parts.does)
            .flat_map(|(s, does)| does.iter().map(|m| (s.id.clone(), m.role.name.clone())))
            .collect();
        let resolver =
            Resolver { compiler: Compiler::new(ruleset, defs), play_written, does_roles, responds: Vec::new(), out };
        resolver.all(&mut parts)
    };
    for (symbol, does) in ruleset.symbols.iter_mut().zip(parts.does) {
        symbol.does = does;
    }
    for (condition, means) in ruleset.conditions.iter_mut().zip(parts.conditions) {
        condition.means = means;
    }
    for (quantity, means) in ruleset.quantities.iter_mut().zip(parts.quantities) {
        quantity.means = means;
    }
    for (phase, play) in ruleset.phases.iter_mut().zip(parts.phases) {
        phase.play = play;
    }
    ruleset.play = parts.play;
    ruleset.bots = parts.bots;
    super::sides::others_counters(ruleset, out);
    used
}

struct Resolver<'r, 'o> {
    compiler: Compiler<'r>,
    /// Whether a `play` block is written, even one with a mistake.
    play_written: bool,
    /// Each symbol and role a `does` gives a meaning, for `run`.
    does_roles: Vec<(String, String)>,
    /// Where each `respond` opens a window.
    responds: Vec<crate::source::Span>,
    out: &'o mut Vec<Diagnostic>,
}

impl Resolver<'_, '_> {
    fn all(mut self, parts: &mut Parts) -> Vec<String> {
        let ruleset = self.compiler.ruleset;
        let card = Place { params: &[], card: true };
        for does in &mut parts.does {
            for meaning in does.iter_mut() {
                self.role(&meaning.role);
                self.ops(&mut meaning.ops, card);
            }
        }
        self.meanings(&ruleset.conditions, &mut parts.conditions, Ty::Truth);
        self.meanings(&ruleset.quantities, &mut parts.quantities, Ty::Number);
        for phase in &mut parts.phases {
            self.phase(phase);
        }
        // Meanings and procedures (`does`, `means`, a phase's `start`) may be
        // given before players can act: a game played on a map plays its
        // cards' effects while its movement waits.  Actions are a game to end.
        let declares_play = parts.phases.iter().any(|p| !p.actions.is_empty());
        if !self.play_written && declares_play {
            self.out.push(
                Diagnostic::warning(
                    &codes::MISSING_FOR_PLAY,
                    "players act in the ruleset's phases, but nothing says how its game ends",
                )
                .primary(ruleset.span, "no `play` block")
                .help(
                    "add `play { ends-when …; round-limit N; score-by … }` so that the game can be played to its end",
                ),
            );
        }
        if let Some(play) = &mut parts.play {
            let table = Place::default();
            self.expression(&mut play.ends_when, Ty::Truth, table);
            self.expression(&mut play.score, Ty::Number, table);
            self.ops(&mut play.refresh, table);
            self.undecided(&play.refresh);
            self.missing_for_play(parts);
        }
        self.windows(parts);
        let actions: Vec<&str> = parts.phases.iter().flat_map(|p| &p.actions).map(|a| a.id.as_str()).collect();
        for bot in &mut parts.bots {
            self.bot(bot, &actions);
        }
        self.compiler.used.into_inner().into_iter().collect()
    }

    /// `refresh` is done after every decision: an operation of its own
    /// that asks one would ask it again each time.
    fn undecided(&mut self, ops: &[Op]) {
        for op in ops {
            let asks = match op {
                Op::Target { zones, .. } => zones.first().map(|z| (z.span, "`target`")),
                Op::Move { from, pick: Pick::Chosen, .. } => Some((from.span, "a `chosen` move")),
                Op::Respond { span, .. } => Some((*span, "`respond`")),
                Op::May { span, .. } => Some((*span, "`may`")),
                _ => None,
            };
            if let Some((span, what)) = asks {
                self.out.push(bad_line(
                    span,
                    format!("{what} asks a player to decide, and `refresh` is done after every decision"),
                    "set continuous effects without choices: `for-each`, `if`, `mark`, `raise`",
                ));
            }
            match op {
                Op::Repeat { ops, .. } | Op::ForEach { ops, .. } | Op::May { ops, .. } => self.undecided(ops),
                Op::If { then, otherwise, .. } => {
                    self.undecided(then);
                    self.undecided(otherwise);
                }
                _ => {}
            }
        }
    }

    /// Reactions with no window to be taken in, and windows no reaction
    /// can answer.
    fn windows(&mut self, parts: &Parts) {
        let reactions: Vec<&Action> = parts.phases.iter().flat_map(|p| &p.actions).filter(|a| a.reaction).collect();
        if self.responds.is_empty() {
            for reaction in reactions {
                self.out.push(
                    Diagnostic::warning(
                        &codes::MISSING_FOR_PLAY,
                        format!("reaction `{}` is never offered: no `respond` opens a window for it", reaction.id),
                    )
                    .primary(reaction.span, "offered only in a window")
                    .help("write `respond opponent` where the other player may answer: in an attack's `do`, or a symbol's `does`"),
                );
            }
        } else if reactions.is_empty() {
            for &span in &self.responds {
                self.out.push(
                    Diagnostic::warning(&codes::MISSING_FOR_PLAY, "`respond` opens a window no reaction can answer")
                        .primary(span, "no phase declares a `reaction`")
                        .help("declare one in the phase: `reaction shield \"Raise a shield\" { take hand; resolve reaction }`"),
                );
            }
        }
    }

    fn meanings(&mut self, declared: &[StateDef], means: &mut [Option<Expression>], want: Ty) {
        for (declared, means) in declared.iter().zip(means) {
            if let Some(expression) = means {
                let place = Place { params: &declared.params, card: true };
                self.expression(expression, want, place);
            }
        }
    }

    fn phase(&mut self, phase: &mut PhasePlay) {
        let table = Place::default();
        self.ops(&mut phase.start, table);
        self.ops(&mut phase.end, table);
        if let Some(order) = &mut phase.order_by {
            self.expression(order, Ty::Number, table);
        }
        for action in &mut phase.actions {
            self.action(action);
        }
    }

    fn action(&mut self, action: &mut Action) {
        let card = Place { params: &[], card: action.from.is_some() };
        if let (Some(from), Some(to)) = (&action.from, &action.to) {
            if from.name == to.name {
                self.out.push(
                    Diagnostic::warning(
                        &codes::MISSING_FOR_PLAY,
                        format!("action `{}` takes a card from `{}` and puts it back there", action.id, to.name),
                    )
                    .primary(to.span, "the zone the card is already in")
                    .help("leave `to` out: the card stays where it is, and no limit of the zone refuses it"),
                );
            }
        }
        for zone in action.from.iter().chain(&action.to) {
            self.zone(zone);
        }
        if let Some(field) = &action.resolve {
            self.field(field);
        }
        if let Some(value) = &action.resolve_value {
            self.enum_value(value);
        }
        if let Some(filter) = &mut action.filter {
            self.expression(filter, Ty::Truth, card);
        }
        if let Some(cost) = &mut action.cost {
            self.paid_with(&cost.counter, &cost.marking);
            self.expression(&mut cost.amount, Ty::Number, card);
        }
        if let Some(test) = &mut action.only_if {
            self.expression(test, Ty::Truth, Place::default());
        }
        self.ops(&mut action.ops, card);
    }

    fn bot(&mut self, bot: &mut Bot, actions: &[&str]) {
        let card = Place { params: &[], card: true };
        for preference in &mut bot.prefer {
            if !actions.contains(&preference.action.name.as_str()) {
                self.unknown(&preference.action, "action of any phase", actions.iter().copied());
            }
            if let Some(filter) = &mut preference.filter {
                self.expression(filter, Ty::Truth, card);
            }
            if let Some(rank) = &mut preference.rank {
                self.expression(rank, Ty::Number, card);
            }
            if let Some(test) = &mut preference.test {
                self.expression(test, Ty::Truth, Place::default());
            }
        }
    }

    /// Checks and compiles a procedure; `place.card` says whether a card is
    /// at hand for `this` and field names.
    fn ops(&mut self, ops: &mut [Op], place: Place<'_>) {
        for op in ops {
            match op {
                Op::Add { counter, amount, .. }
                | Op::Remove { counter, amount, .. }
                | Op::Set { counter, amount, .. } => {
                    self.counter(counter);
                    self.expression(amount, Ty::Number, place);
                }
                Op::Pay { counter, amount, marking } => {
                    self.paid_with(counter, marking);
                    self.expression(amount, Ty::Number, place);
                }
                Op::Needs { test } => self.expression(test, Ty::Truth, place),
                Op::Run { .. } | Op::Raise { .. } => self.named_effect(op, place),
                Op::Target { zones, filter, with, ops, .. } => {
                    zones.iter().for_each(|zone| self.zone(zone));
                    if let Some(with) = with {
                        self.expression(with, Ty::Number, place);
                    }
                    let card = Place { card: true, ..place };
                    if let Some(filter) = filter {
                        self.expression(filter, Ty::Truth, card);
                    }
                    self.ops(ops, card);
                }
                Op::Move { count, from, to, filter, .. } => {
                    self.expression(count, Ty::Number, place);
                    self.zone(from);
                    self.zone(to);
                    if let Some(filter) = filter {
                        self.expression(filter, Ty::Truth, Place { card: true, ..place });
                    }
                }
                Op::ThisTo { zone } => {
                    self.zone(zone);
                    if !place.card {
                        self.out.push(bad_line(
                            zone.span,
                            "`this-to` moves the card at hand, and there is none here",
                            "write it in a `for-each` block, or in what an effect does",
                        ));
                    }
                }
                Op::Shuffle { zone, .. } => self.zone(zone),
                Op::Respond { span, .. } => self.responds.push(*span),
                Op::Reveal { count, zone, .. } => {
                    self.expression(count, Ty::Number, place);
                    self.zone(zone);
                }
                Op::May { ops, .. } => self.ops(ops, place),
                Op::Mark { marker, amount } => {
                    self.marker(marker, place);
                    self.expression(amount, Ty::Number, place);
                }
                Op::Clear { marker } => self.marker(marker, place),
                Op::Repeat { times, ops } => {
                    self.expression(times, Ty::Number, place);
                    self.ops(ops, place);
                }
                Op::If { test, then, otherwise } => {
                    self.expression(test, Ty::Truth, place);
                    self.ops(then, place);
                    self.ops(otherwise, place);
                }
                Op::ForEach { zone, filter, ops, .. } => {
                    self.zone(zone);
                    let card = Place { card: true, ..place };
                    if let Some(filter) = filter {
                        self.expression(filter, Ty::Truth, card);
                    }
                    self.ops(ops, card);
                }
            }
        }
    }

    /// A `run` of a symbol's meaning, or a `raise` of a trigger.
    fn named_effect(&mut self, op: &mut Op, place: Place<'_>) {
        match op {
            Op::Run { role, symbol, amount } => {
                self.role(role);
                self.runs(role, symbol);
                if let Some(amount) = amount {
                    self.expression(amount, Ty::Number, place);
                }
            }
            Op::Raise { field, value, zones, .. } => {
                self.field(field);
                self.enum_value(value);
                zones.iter().for_each(|zone| self.zone(zone));
                if zones.is_empty() && !place.card {
                    self.out.push(bad_line(
                        field.span,
                        "`raise` without zones raises the card at hand, and there is none here",
                        "name the zones whose cards it raises: `raise ability breaks from field`",
                    ));
                }
            }
            _ => {}
        }
    }

    /// Compiles an expression where it stands, filling its tree.
    fn expression(&mut self, expression: &mut Expression, want: Ty, place: Place<'_>) {
        let span = expression.span;
        let compiled = match std::mem::take(&mut expression.pending) {
            Pending::Done => return,
            Pending::Ast(expr) => self.compiler.compile(&expr, want, place, self.out),
            Pending::Amount(text) => self.compiler.word(&text, span, want, place, self.out),
            Pending::Filter(text) => self.compiler.word(&text, span, want, Place { card: true, ..place }, self.out),
            // A test is a declared condition: a truth wherever it stands.
            Pending::Test { condition, args } => self.compiler.test(&condition, &args, span, self.out),
        };
        if let Some(tree) = compiled {
            expression.tree = tree;
        }
    }

    fn zone(&mut self, zone: &Ref) {
        let ruleset = self.compiler.ruleset;
        let zones: Vec<&str> = ruleset.setup.iter().flat_map(|s| &s.zones).map(|z| z.id.as_str()).collect();
        if !zones.contains(&zone.name.as_str()) {
            self.unknown(zone, "zone of the set-up", zones.into_iter());
        }
    }

    fn counter(&mut self, counter: &Ref) {
        if self.compiler.counter(&counter.name).is_none() {
            let ruleset = self.compiler.ruleset;
            let counters = ruleset.setup.iter().flat_map(|s| &s.counters).map(|c| c.id.as_str());
            self.unknown(counter, "counter of the set-up", counters);
        }
    }

    /// The symbol a `run` names, with a meaning for the role.
    fn runs(&mut self, role: &Ref, symbol: &Ref) {
        let ruleset = self.compiler.ruleset;
        let Some(declared) = ruleset.symbols.iter().find(|s| s.id == symbol.name) else {
            self.unknown(symbol, "symbol of the ruleset", ruleset.symbols.iter().map(|s| s.id.as_str()));
            return;
        };
        // The symbols' `does` are taken out while they are compiled: the
        // ones read are in `does_roles`.
        if !self.does_roles.iter().any(|(s, r)| *s == declared.id && *r == role.name) {
            self.out.push(bad_line(
                symbol.span,
                format!("symbol `{}` says nothing that `{}` does", symbol.name, role.name),
                format!("give it `does {} {{ … }}`", role.name),
            ));
        }
    }

    /// A value of some enum, which picks one of a card's fields.
    fn enum_value(&mut self, value: &Ref) {
        if !self.compiler.is_value_name(&value.name) {
            let ruleset = self.compiler.ruleset;
            let values = ruleset.enums.iter().flat_map(|e| &e.values).map(String::as_str);
            self.unknown(value, "value of any enum", values);
        }
    }

    /// What a `pay` pays with: a counter, or a marker set on cards of the
    /// zones.
    fn paid_with(&mut self, paid: &Ref, marking: &[Ref]) {
        if marking.is_empty() {
            self.counter(paid);
            return;
        }
        marking.iter().for_each(|zone| self.zone(zone));
        self.marker(paid, Place { params: &[], card: true });
    }

    /// A marker of the set-up, on the card at hand.
    fn marker(&mut self, marker: &Ref, place: Place<'_>) {
        let ruleset = self.compiler.ruleset;
        let markers: Vec<&str> = ruleset.setup.iter().flat_map(|s| &s.markers).map(|m| m.id.as_str()).collect();
        if !markers.contains(&marker.name.as_str()) {
            self.unknown(marker, "marker of the set-up", markers.into_iter());
        } else if !place.card {
            self.out.push(bad_line(
                marker.span,
                "a marker is on the card at hand, and there is none here",
                "write it in a `for-each` block, or in what an effect does",
            ));
        }
    }

    fn role(&mut self, role: &Ref) {
        let roles = self.compiler.ruleset.roles.iter().map(|r| r.id.as_str());
        if !self.compiler.ruleset.roles.iter().any(|r| r.id == role.name) {
            self.unknown(role, "role of the ruleset", roles);
        }
    }

    /// The field an action resolves: one whose block holds effect lines.
    fn field(&mut self, field: &Ref) {
        let ruleset = self.compiler.ruleset;
        let fields = || ruleset.kinds.iter().flat_map(|k| &k.schema.fields);
        let holds_effects = |f: &&crate::ruleset::model::FieldDef| {
            f.schema.effects
                || f.schema
                    .shape
                    .as_deref()
                    .is_some_and(|shape| ruleset.shapes.iter().any(|(id, schema)| id == shape && schema.effects))
        };
        if !fields().any(|f| f.name == field.name) {
            self.unknown(field, "field of any kind", fields().map(|f| f.name.as_str()));
        } else if !fields().filter(|f| f.name == field.name).any(|f| holds_effects(&f)) {
            let effects: Vec<&str> = fields().filter(holds_effects).map(|f| f.name.as_str()).collect();
            let help = match effects.as_slice() {
                [] => "no field of this ruleset holds effects: declare one with `body effects`".to_string(),
                some => format!("fields that hold effects: {}", some.join(", ")),
            };
            self.out.push(
                Diagnostic::error(&codes::BAD_PROCEDURE, format!("`{}` holds no effect lines to resolve", field.name))
                    .primary(field.span, "no effect block")
                    .help(help),
            );
        }
    }

    fn unknown<'a>(&mut self, name: &Ref, what: &str, candidates: impl Iterator<Item = &'a str>) {
        let candidates: Vec<&str> = candidates.collect();
        let mut diagnostic = Diagnostic::error(&codes::BAD_PROCEDURE, format!("`{}` is no {what}", name.name))
            .primary(name.span, "not declared");
        match suggest(&name.name, candidates.iter().copied()) {
            Some(meant) => diagnostic = diagnostic.suggest(Some(meant)),
            None => diagnostic = diagnostic.expected(&candidates, "none is declared"),
        }
        self.out.push(diagnostic);
    }

    /// What the ruleset's declarations lack for play.
    fn missing_for_play(&mut self, parts: &Parts) {
        let ruleset = self.compiler.ruleset;
        let play_span = parts.play.as_ref().map(|p| p.span).unwrap_or(ruleset.span);
        if ruleset.setup.is_none() || ruleset.phases.is_empty() {
            self.out.push(bad_line(
                play_span,
                "a game is played in phases, from a set-up: this ruleset lacks one",
                "declare `setup { … }` with the zones and counters play uses, and the turn's `phase` lines",
            ));
        }
        let conditions =
            ruleset.conditions.iter().zip(&parts.conditions).map(|s| (s, "a truth: `means count(hand) >= 1`"));
        let quantities = ruleset.quantities.iter().zip(&parts.quantities).map(|s| (s, "a number: `means count(hand)`"));
        for ((declared, means), example) in conditions.chain(quantities) {
            if means.is_none() {
                self.out.push(
                    Diagnostic::warning(&codes::MISSING_FOR_PLAY, format!("`{}` has no meaning in play", declared.id))
                        .primary(declared.span, "no `means` line")
                        .help(format!("say what it reads from the game state, {example}")),
                );
            }
        }
        for (phase, play) in ruleset.phases.iter().zip(&parts.phases) {
            if play.actions.is_empty() && play.start.is_empty() && play.end.is_empty() {
                self.out.push(
                    Diagnostic::warning(
                        &codes::MISSING_FOR_PLAY,
                        format!("in phase `{}` nothing happens in play", phase.id),
                    )
                    .primary(phase.span, "no `action`, `start` or `end`")
                    .help("give it an action players take (`action play \"Play\" { take hand; … }`) or what it does"),
                );
            }
        }
    }
}
