//! The timing part of the ruleset language: the initiative scale, the sides
//! of the table, the turn's phases and steps, and the tie-break list.
//!
//! Each declaration is read on its own here; the names it uses (sides,
//! fields, deck types, the enum that names steps) are noted and checked by
//! [`resolve`] once every declaration of the ruleset is known, so that a
//! declaration may name something declared further down.

use super::codes;
use super::model::{Phase, Ruleset, Scale, ScaleOrder, Side, Step, TieBreak};
use super::names::{ident_at, string_at, suggest};
use crate::diagnostics::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{Node, ValueKind};

/// Names the timing declarations use, checked once all are declared.
#[derive(Default)]
pub(super) struct Pending {
    sides: Vec<(String, Span)>,
    kinds: Vec<(String, Span)>,
    fields: Vec<(String, Span)>,
    deck_types: Vec<(String, Span)>,
    steps: Vec<(String, Span)>,
    step_names: Option<Span>,
    initiative_phases: Vec<Span>,
    /// Where phases are declared, for a turn whose phases leave the scale out.
    phases: Vec<Span>,
    /// Declarations a ruleset makes once (`initiative`, `tie-break`,
    /// `step-names`), where each was first made.
    singles: Vec<(String, Span)>,
}

impl Pending {
    /// Reports a declaration made once already in the same file; one in a
    /// file the ruleset extends is replaced, as a house rule.
    pub(super) fn once(&mut self, node: &Node, diagnostics: &mut Vec<Diagnostic>) {
        let what = node.name.text.as_str();
        let span = node.head_span();
        match self.singles.iter().position(|(w, _)| w == what) {
            Some(i) if self.singles[i].1.file == span.file => {
                diagnostics.push(
                    Diagnostic::error(&codes::DUPLICATE_DECLARATION, format!("`{what}` is declared twice"))
                        .primary(span, "declared again here")
                        .secondary(self.singles[i].1, "first declared here")
                        .help(format!("a ruleset has one `{what}`; keep one of the two")),
                );
            }
            Some(i) => self.singles[i].1 = span,
            None => self.singles.push((what.to_string(), span)),
        }
    }
}

fn bad(diagnostics: &mut Vec<Diagnostic>, span: Span, message: impl Into<String>, help: &str) {
    diagnostics.push(
        Diagnostic::error(&codes::BAD_TIMING, message).primary(span, "in this declaration").help(help.to_string()),
    );
}

fn is_word(node: &Node, i: usize, word: &str) -> bool {
    ident_at(node, i) == Some(word)
}

/// `initiative X from 5.9 to 0.0 by 0.1 whole-steps`; `from 0 to 5 by 1`
/// counts up; `from 5 to 0 by 1 priority-digit` reads `3.4` in step 3;
/// `printed "Initiative {}"` says how the game prints a step.
pub(super) fn scale(node: &Node, diagnostics: &mut Vec<Diagnostic>) -> Option<Scale> {
    let has_x = is_word(node, 0, "X");
    let word = |w: &str| node.values.iter().any(|v| v.kind == ValueKind::Ident(w.into()));
    let (whole_steps, priority_digit) = (word("whole-steps"), word("priority-digit"));
    let printed = printed_form(node, diagnostics);
    let mut numbers = [None; 3];
    let mut slot = None;
    for value in &node.values {
        match &value.kind {
            ValueKind::Ident(word) if word == "from" => slot = Some(0),
            ValueKind::Ident(word) if word == "to" => slot = Some(1),
            ValueKind::Ident(word) if word == "by" => slot = Some(2),
            ValueKind::Decimal(d) => {
                if let Some(i) = slot.take() {
                    numbers[i] = d.tenths();
                }
            }
            ValueKind::Int(n) => {
                if let Some(i) = slot.take() {
                    numbers[i] = n.checked_mul(10);
                }
            }
            _ => {}
        }
    }
    match numbers {
        [Some(from_tenths), Some(to_tenths), Some(step_tenths)] if step_tenths > 0 && from_tenths != to_tenths => {
            let scale = Scale { has_x, whole_steps, priority_digit, from_tenths, to_tenths, step_tenths, printed };
            let whole_steps_at = node.values.iter().find(|v| v.kind == ValueKind::Ident("whole-steps".into()));
            if let (Some(word), true) = (whole_steps_at, scale.whole()) {
                diagnostics.push(
                    Diagnostic::warning(
                        &codes::IDLE_SCALE_WORD,
                        "`whole-steps` changes nothing on a scale of whole numbers",
                    )
                    .primary(word.span, "this scale takes `3` already")
                    .help("leave `whole-steps` out; write `priority-digit` if a tenth orders values within a step"),
                );
            }
            if priority_digit && !scale.whole() {
                bad(
                    diagnostics,
                    node.head_span(),
                    "`priority-digit` needs a scale of whole numbers: its tenths are already steps",
                    "write `initiative X from 5 to 0 by 1 priority-digit`, or leave `priority-digit` out",
                );
            }
            Some(scale)
        }
        _ => {
            bad(
                diagnostics,
                node.head_span(),
                "an initiative scale needs distinct `from` and `to` values and a positive `by` step",
                "write `initiative X from 5.9 to 0.0 by 0.1` (counting down, X first and optional) or \
                 `initiative from 1 to 6 by 1` (counting up); at most one decimal place",
            );
            None
        }
    }
}

/// The `printed "Initiative {}"` of a scale, if it has one; a malformed
/// one is reported, and the scale prints its values alone.
fn printed_form(node: &Node, diagnostics: &mut Vec<Diagnostic>) -> Option<String> {
    let at = node.values.iter().position(|v| v.kind == ValueKind::Ident("printed".into()))?;
    let help = "write `printed \"Initiative {}\"`: the words the game prints, `{}` where the value goes";
    match string_at(node, at + 1) {
        Some(form) if form.matches("{}").count() == 1 => Some(form.to_string()),
        Some(_) => {
            bad(diagnostics, node.values[at + 1].span, "a printed form holds `{}` once, where the value goes", help);
            None
        }
        None => {
            bad(diagnostics, node.values[at].span, "`printed` is followed by how the game prints a step", help);
            None
        }
    }
}

/// `side north "North" player 1`.
pub(super) fn side(node: &Node, diagnostics: &mut Vec<Diagnostic>) -> Option<Side> {
    let help = "write `side north \"North\" player 1`: an id, an optional printed name, the player";
    let Some(id) = ident_at(node, 0) else {
        bad(diagnostics, node.head_span(), "a side needs an id", help);
        return None;
    };
    let display = string_at(node, 1).map(str::to_string).unwrap_or_else(|| id.to_string());
    let Some(at) = node.values.iter().position(|v| v.kind == ValueKind::Ident("player".into())) else {
        bad(diagnostics, node.head_span(), format!("side `{id}` does not say which player plays it"), help);
        return None;
    };
    let player = match node.values.get(at + 1).map(|v| &v.kind) {
        Some(ValueKind::Int(n)) => u32::try_from(*n).ok().filter(|n| *n >= 1),
        _ => None,
    };
    let Some(player) = player else {
        let span = node.values.get(at + 1).map_or(node.values[at].span, |v| v.span);
        bad(diagnostics, span, "a player is a number from 1", help);
        return None;
    };
    Some(Side { id: id.to_string(), display, player })
}

/// `step-names timing`: the enum whose values name steps on cards.
pub(super) fn step_names(node: &Node, pending: &mut Pending, diagnostics: &mut Vec<Diagnostic>) -> Option<String> {
    match ident_at(node, 0) {
        Some(name) if node.values.len() == 1 => {
            pending.step_names = Some(node.values[0].span);
            Some(name.to_string())
        }
        _ => {
            bad(
                diagnostics,
                node.head_span(),
                "`step-names` takes the one enum whose values name steps",
                "write `step-names timing`, with `enum timing ...` declared",
            );
            None
        }
    }
}

/// Opens `phase resolve "Resolve" { initiative }` or `phase action
/// "Action" { alternate; step ac "Action" }`; its lines are read next.
pub(super) fn open_phase(node: &Node, pending: &mut Pending, diagnostics: &mut Vec<Diagnostic>) -> Option<Phase> {
    let Some(id) = ident_at(node, 0) else {
        bad(diagnostics, node.head_span(), "a phase needs an id", "write `phase draw \"Draw Phase\"`");
        return None;
    };
    let display = string_at(node, 1).map(str::to_string).unwrap_or_else(|| id.to_string());
    pending.phases.push(node.head_span());
    Some(Phase {
        id: id.to_string(),
        display,
        steps: Vec::new(),
        initiative: false,
        order: None,
        tie_break: Vec::new(),
        alternate: false,
        plays: Vec::new(),
        side: None,
        play: Default::default(),
        doc: None,
        span: node.head_span(),
    })
}

/// Checks a phase once its lines are read.
pub(super) fn close_phase(node: &Node, phase: &Phase, diagnostics: &mut Vec<Diagnostic>) {
    if phase.initiative && !phase.steps.is_empty() {
        let help = "a phase's steps are either the initiative scale's or its own `step` lines";
        bad(diagnostics, node.head_span(), format!("phase `{}` has both `initiative` and steps", phase.id), help);
    }
}

/// `step cast "Cast"` in a phase.
/// `step cast "Cast" [side SIDE]`; returns the value naming the step's
/// side, for the reader to check once the sides are known.
pub(super) fn step<'n>(
    node: &'n Node,
    phase: &mut Phase,
    pending: &mut Pending,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<&'n crate::syntax::ast::Value> {
    let help = "write `step cast \"Cast\"`, or `step mulligan \"Mulligan\" side runner` for one side's step";
    let Some(step) = ident_at(node, 0) else {
        bad(diagnostics, node.head_span(), "a step needs an id", help);
        return None;
    };
    let display = string_at(node, 1).map(str::to_string);
    let rest = if display.is_some() { 2 } else { 1 };
    let side = match &node.values[rest..] {
        [] => None,
        [_, side] if ident_at(node, rest) == Some("side") && matches!(side.kind, ValueKind::Ident(_)) => Some(side),
        [extra, ..] => {
            bad(diagnostics, extra.span, "a step takes an id, a printed name and `side SIDE`", help);
            None
        }
    };
    pending.steps.push((step.to_string(), node.values[0].span));
    let display = display.unwrap_or_else(|| step.to_string());
    phase.steps.push(Step { id: step.to_string(), display, side: None });
    side
}

/// `initiative` in a phase: its steps are the scale's, in the scale's order
/// or the one it names (`initiative highest-first`).
pub(super) fn initiative_phase(
    node: &Node,
    phase: &mut Phase,
    pending: &mut Pending,
    diagnostics: &mut Vec<Diagnostic>,
) {
    phase.initiative = true;
    pending.initiative_phases.push(node.name.span);
    let words: Vec<&str> = ScaleOrder::WORDS.iter().map(|(w, _)| *w).collect();
    for (i, value) in node.values.iter().enumerate() {
        let order = ident_at(node, i).and_then(|w| ScaleOrder::WORDS.iter().find(|(word, _)| *word == w));
        match order {
            Some((_, order)) if i == 0 => phase.order = Some(*order),
            _ => diagnostics.push(
                Diagnostic::error(&codes::BAD_TIMING, "a phase follows the scale `lowest-first` or `highest-first`")
                    .primary(value.span, "not an order of the scale")
                    .help("write `initiative`, `initiative lowest-first` or `initiative highest-first`")
                    .suggest(ident_at(node, i).and_then(|w| suggest(w, words.iter().copied()))),
            ),
        }
    }
}

/// `plays squad` in a phase.
pub(super) fn plays(node: &Node, phase: &mut Phase, pending: &mut Pending, diagnostics: &mut Vec<Diagnostic>) {
    for (i, value) in node.values.iter().enumerate() {
        if let Some(deck_type) = ident_at(node, i) {
            pending.deck_types.push((deck_type.to_string(), value.span));
            phase.plays.push(deck_type.to_string());
        }
    }
    if phase.plays.is_empty() {
        let help = "write `plays squad`: the deck types whose decks are played";
        bad(diagnostics, node.head_span(), "`plays` names deck types", help);
    }
}

/// A `tie-break` block's rules while it is read, and where its outcome is.
#[derive(Default)]
pub struct TieBreaks {
    rules: Vec<TieBreak>,
    outcome: Option<Span>,
}

/// How one line of a `tie-break` block reads.
pub(super) type TieRule = fn(&Node, &mut Pending, &mut Vec<Diagnostic>) -> Option<TieBreak>;

/// Adds a line's rule to the list; nothing may follow the outcome.
pub(super) fn tie_rule(
    node: &Node,
    list: &mut TieBreaks,
    rule: TieRule,
    pending: &mut Pending,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let Some(rule) = rule(node, pending, diagnostics) else { return };
    if let Some(first) = list.outcome {
        diagnostics.push(
            Diagnostic::error(&codes::TIE_BREAK_OUTCOME, "a tie-break rule after the list's outcome is never used")
                .primary(node.head_span(), "never reached")
                .secondary(first, "every tie left is decided here")
                .help("put the outcome (`simultaneous` or `roll`) last"),
        );
        return;
    }
    if rule.is_outcome() {
        list.outcome = Some(node.head_span());
    }
    list.rules.push(rule);
}

/// The rules of a `tie-break` block, in order, once it is read: the last
/// must be an outcome.
pub(super) fn close_tie_break(node: &Node, list: TieBreaks, diagnostics: &mut Vec<Diagnostic>) -> Vec<TieBreak> {
    if list.outcome.is_none() {
        diagnostics.push(
            Diagnostic::error(&codes::TIE_BREAK_OUTCOME, "the tie-break list does not say what happens to a tie left")
                .primary(node.head_span(), "no outcome at the end of this list")
                .help("end the list with `simultaneous` (they resolve at the same time) or `roll \"D6\"`"),
        );
    }
    if let (Some(TieBreak::PlayerChooses), Some(at)) = (list.rules.last(), list.outcome) {
        let separates_players = list.rules.iter().any(|rule| {
            matches!(rule, TieBreak::HasInitiative | TieBreak::Side { if_needed: false, .. } | TieBreak::Choice { .. })
        });
        if !separates_players {
            diagnostics.push(
                Diagnostic::error(
                    &codes::TIE_BREAK_OUTCOME,
                    "`player-chooses` leaves plays of two players tied with no one to order them",
                )
                .primary(at, "only one player's plays can be ordered by their player")
                .help("put `has-initiative` or `side A B` before it, so that ties left are one player's"),
            );
        }
    }
    list.rules
}

/// The field a `higher`, `lower` or `choose` rule compares, at position `i`.
fn compared(node: &Node, i: usize, pending: &mut Pending, diagnostics: &mut Vec<Diagnostic>) -> Option<String> {
    match ident_at(node, i) {
        Some(field) => {
            pending.fields.push((field.to_string(), node.values[i].span));
            Some(field.to_string())
        }
        None => {
            let help = format!("write `{} power`, naming the field compared", node.name.text);
            bad(diagnostics, node.head_span(), format!("`{}` needs a field", node.name.text), &help);
            None
        }
    }
}

/// `side attacker defender if-needed`: the ultimate tiebreaker.
pub(super) fn side_rule(node: &Node, pending: &mut Pending, diagnostics: &mut Vec<Diagnostic>) -> Option<TieBreak> {
    let if_needed = node.values.last().is_some_and(|v| v.kind == ValueKind::Ident(IF_NEEDED.into()));
    let sides = &node.values[..node.values.len() - usize::from(if_needed)];
    Some(TieBreak::Side { order: side_order(node, sides, pending, diagnostics)?, if_needed })
}

/// `higher power`.
pub(super) fn higher_rule(node: &Node, pending: &mut Pending, diagnostics: &mut Vec<Diagnostic>) -> Option<TieBreak> {
    Some(TieBreak::Value { field: compared(node, 0, pending, diagnostics)?, highest: true })
}

/// `lower power`.
pub(super) fn lower_rule(node: &Node, pending: &mut Pending, diagnostics: &mut Vec<Diagnostic>) -> Option<TieBreak> {
    Some(TieBreak::Value { field: compared(node, 0, pending, diagnostics)?, highest: false })
}

/// `choose lower rating`: the side whose play has the lower value chooses.
pub(super) fn choose_rule(node: &Node, pending: &mut Pending, diagnostics: &mut Vec<Diagnostic>) -> Option<TieBreak> {
    let highest = match ident_at(node, 0) {
        Some("higher") => true,
        Some("lower") => false,
        _ => {
            let help = "write `choose lower rating`: the side whose play has the lower value chooses";
            bad(diagnostics, node.head_span(), "`choose` says `higher` or `lower`, then a field", help);
            return None;
        }
    };
    Some(TieBreak::Choice { field: compared(node, 1, pending, diagnostics)?, highest })
}

/// `has-initiative`: the player who has initiative goes first.
pub(super) fn has_initiative_rule(_: &Node, _: &mut Pending, _: &mut Vec<Diagnostic>) -> Option<TieBreak> {
    Some(TieBreak::HasInitiative)
}

/// `player-chooses`: a player plays their own plays still tied in the
/// order they choose.
pub(super) fn player_chooses_rule(_: &Node, _: &mut Pending, _: &mut Vec<Diagnostic>) -> Option<TieBreak> {
    Some(TieBreak::PlayerChooses)
}

/// `simultaneous`: the plays still tied resolve at the same time.
pub(super) fn simultaneous_rule(_: &Node, _: &mut Pending, _: &mut Vec<Diagnostic>) -> Option<TieBreak> {
    Some(TieBreak::Simultaneous)
}

/// `roll "each rolls a D6; the higher chooses"`.
pub(super) fn roll_rule(node: &Node, _: &mut Pending, diagnostics: &mut Vec<Diagnostic>) -> Option<TieBreak> {
    match string_at(node, 0) {
        Some(text) => Some(TieBreak::Roll { text: text.to_string() }),
        None => {
            let help = "write `roll \"each rolls a D6; the higher chooses\"`";
            bad(diagnostics, node.head_span(), "`roll` says how the roll is made", help);
            None
        }
    }
}

/// The word after a `side` rule's sides that makes it the ultimate
/// tiebreaker: the plays stay tied unless an effect needs an order.
const IF_NEEDED: &str = "if-needed";

/// `kind spell by power highest`: kinds up to `by`.
pub(super) fn kind_rule(node: &Node, pending: &mut Pending, diagnostics: &mut Vec<Diagnostic>) -> Option<TieBreak> {
    let by = node.values.iter().position(|v| v.kind == ValueKind::Ident("by".into()));
    let mut kinds: Vec<String> = Vec::new();
    for i in 0..by.unwrap_or(node.values.len()) {
        if let Some(kind) = ident_at(node, i) {
            pending.kinds.push((kind.to_string(), node.values[i].span));
            kinds.push(kind.to_string());
        }
    }
    if kinds.is_empty() {
        let help = "write `kind trap spell` or `kind spell by power highest`";
        bad(diagnostics, node.head_span(), "a `kind` tie-break rule names its kinds", help);
        return None;
    }
    let field = by.and_then(|i| ident_at(node, i + 1).map(|f| (f, node.values[i + 1].span)));
    if let Some((name, span)) = field {
        pending.fields.push((name.to_string(), span));
    }
    let highest = !node.values.iter().any(|v| v.kind == ValueKind::Ident("lowest".into()));
    // `missing first`: a card without the value goes before those with it.
    let missing = node.values.iter().position(|v| v.kind == ValueKind::Ident("missing".into()));
    let missing_first = match missing.map(|i| (i, ident_at(node, i + 1))) {
        None | Some((_, Some("last"))) => false,
        Some((_, Some("first"))) => true,
        Some((i, _)) => {
            let help = "write `missing first` or `missing last`: where a card without the value goes";
            bad(diagnostics, node.values[i].span, "`missing` is followed by `first` or `last`", help);
            return None;
        }
    };
    Some(TieBreak::Kind { kinds, field: field.map(|(f, _)| f.to_string()), highest, missing_first })
}

/// `side north south` or `side 1 2`: declared sides or player numbers.
fn side_order(
    node: &Node,
    sides: &[crate::syntax::ast::Value],
    pending: &mut Pending,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<String>> {
    let mut order = Vec::new();
    for value in sides {
        match &value.kind {
            ValueKind::Ident(name) => {
                pending.sides.push((name.clone(), value.span));
                order.push(name.clone());
            }
            ValueKind::Int(n) if *n >= 1 => order.push(n.to_string()),
            _ => {
                let help = "write `side north south` or `side 1 2`";
                bad(diagnostics, value.span, "a side is a declared side or a player number from 1", help);
                return None;
            }
        }
    }
    if order.len() < 2 {
        let help = "write `side north south` or `side 1 2`: the side listed first goes first";
        bad(diagnostics, node.head_span(), "a `side` tie-break rule orders at least two sides", help);
        return None;
    }
    Some(order)
}

/// Checks every name the timing declarations use, now that all are declared.
pub(super) fn resolve(ruleset: &Ruleset, pending: Pending, diagnostics: &mut Vec<Diagnostic>) {
    let mut unknown = |name: &str, span: Span, what: &str, candidates: &[&str]| {
        diagnostics.push(
            Diagnostic::error(&codes::UNKNOWN_TIMING_NAME, format!("no {what} is named `{name}`"))
                .primary(span, format!("not a {what} of this ruleset"))
                .note(if candidates.is_empty() {
                    format!("this ruleset declares no {what}")
                } else {
                    format!("declared: {}", candidates.join(", "))
                })
                .suggest(suggest(name, candidates.iter().copied())),
        );
    };
    let sides: Vec<&str> = ruleset.sides.iter().map(|s| s.id.as_str()).collect();
    for (name, span) in &pending.sides {
        if !sides.contains(&name.as_str()) {
            unknown(name, *span, "side", &sides);
        }
    }
    let kinds: Vec<&str> = ruleset.kinds.iter().map(|k| k.id.as_str()).collect();
    for (name, span) in &pending.kinds {
        if !kinds.contains(&name.as_str()) {
            unknown(name, *span, "kind", &kinds);
        }
    }
    let fields = compared_names(ruleset);
    for (name, span) in &pending.fields {
        if !fields.contains(&name.as_str()) {
            unknown(name, *span, "field or computed value", &fields);
        }
    }
    let deck_types: Vec<&str> = ruleset.deck_types.iter().map(|d| d.id.as_str()).collect();
    for (name, span) in &pending.deck_types {
        if !deck_types.contains(&name.as_str()) {
            unknown(name, *span, "deck type", &deck_types);
        }
    }
    resolve_phases(ruleset, &pending, diagnostics);
    resolve_steps(ruleset, &pending, diagnostics);
    check_entries(ruleset, diagnostics);
}

/// A kind's `enters-at` names a step of the ruleset's initiative scale.
fn check_entries(ruleset: &Ruleset, diagnostics: &mut Vec<Diagnostic>) {
    for kind in &ruleset.kinds {
        let (Some(tenths), Some(span)) = (kind.enters_at, kind.enters_at_span) else { continue };
        let note = match &ruleset.initiative {
            Some(scale) if scale.contains(tenths) => continue,
            Some(scale) => format!("the scale is {}", scale.describe()),
            None => "this ruleset declares no initiative scale".to_string(),
        };
        diagnostics.push(
            Diagnostic::error(
                &codes::INITIATIVE_OFF_SCALE,
                format!("`{}` enters play at a step that is not on the initiative scale", kind.id),
            )
            .primary(span, "not a step of this game's initiative")
            .note(note),
        );
    }
}

/// A phase follows the scale when the turn has phases, and no step is
/// declared twice: a card naming it would resolve twice a turn.
fn resolve_phases(ruleset: &Ruleset, pending: &Pending, diagnostics: &mut Vec<Diagnostic>) {
    match (&ruleset.initiative, pending.initiative_phases.as_slice()) {
        (None, spans) => {
            for span in spans {
                let help = "declare the scale, such as `initiative X from 5.9 to 0.0 by 0.1`";
                bad(diagnostics, *span, "this phase follows the initiative scale, but the ruleset declares none", help);
            }
        }
        (Some(_), []) => {
            if let Some(first) = pending.phases.first() {
                let help = "add `initiative` to the block of the phase in which initiative values resolve";
                bad(diagnostics, *first, "the turn has phases and an initiative scale, but no phase follows it", help);
            }
        }
        (Some(_), _) => {}
    }
    for (i, (step, span)) in pending.steps.iter().enumerate() {
        if pending.steps[..i].iter().any(|(earlier, _)| earlier == step) {
            let help = "a step belongs to one phase; give the other step another name";
            bad(diagnostics, *span, format!("step `{step}` is declared twice"), help);
        }
    }
}

/// Fields of any kind (at any depth) and values computed for decks: what a
/// tie-break rule can compare.
fn compared_names(ruleset: &Ruleset) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    let mut schemas: Vec<&super::model::Schema> = ruleset.kinds.iter().map(|k| &k.schema).collect();
    while let Some(schema) = schemas.pop() {
        names.extend(schema.fields.iter().map(|f| f.name.as_str()));
        schemas.extend(schema.fields.iter().map(|f| &f.schema));
    }
    names.extend(ruleset.deck_types.iter().flat_map(|d| &d.computed).map(|c| c.message.as_str()));
    names.sort_unstable();
    names.dedup();
    names
}

/// The enum of `step-names` exists, and every step is one of its values.
fn resolve_steps(ruleset: &Ruleset, pending: &Pending, diagnostics: &mut Vec<Diagnostic>) {
    let Some(name) = &ruleset.step_names else { return };
    let Some(enumeration) = ruleset.enums.iter().find(|e| &e.id == name) else {
        let enums: Vec<&str> = ruleset.enums.iter().map(|e| e.id.as_str()).collect();
        let span = pending.step_names.unwrap_or(ruleset.span);
        diagnostics.push(
            Diagnostic::error(&codes::UNKNOWN_TIMING_NAME, format!("no enum is named `{name}`"))
                .primary(span, "`step-names` names an enum")
                .suggest(suggest(name, enums.iter().copied())),
        );
        return;
    };
    let values: Vec<&str> = enumeration.values.iter().map(String::as_str).collect();
    for (step, span) in &pending.steps {
        if !values.contains(&step.as_str()) {
            diagnostics.push(
                Diagnostic::error(
                    &codes::UNKNOWN_TIMING_NAME,
                    format!("step `{step}` is not a value of enum `{name}`"),
                )
                .primary(*span, "cards could never name this step")
                .note(format!("`{name}` has: {}", values.join(", ")))
                .suggest(suggest(step, values.iter().copied())),
            );
        }
    }
}
