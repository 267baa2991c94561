//! A side's own turn changing another side's counter as its own: in play
//! the player of that side has no such counter, so the change would do
//! nothing (W0505).

use crate::diagnostics::Diagnostic;
use crate::ruleset::codes;
use crate::ruleset::model::play::{Op, Ref, Whose};
use crate::ruleset::model::Ruleset;

/// Each `add`, `remove`, `set` or `pay` of a phase of one side, its
/// actions included, on a counter of another side without `opponent`.
pub(in crate::ruleset) fn others_counters(ruleset: &Ruleset, out: &mut Vec<Diagnostic>) {
    let Some(setup) = &ruleset.setup else { return };
    let side_of = |counter: &Ref| setup.counters.iter().find(|c| c.id == counter.name).and_then(|c| c.side.as_deref());
    for phase in &ruleset.phases {
        let Some(turn) = phase.side.as_deref() else { continue };
        let actions = phase.play.actions.iter().flat_map(|a| &a.ops);
        let mut pending: Vec<&Op> = phase.play.start.iter().chain(&phase.play.end).chain(actions).collect();
        while let Some(op) = pending.pop() {
            let changed = match op {
                Op::Add { counter, of: Whose::You, .. }
                | Op::Remove { counter, of: Whose::You, .. }
                | Op::Set { counter, of: Whose::You, .. } => Some(counter),
                Op::Pay { counter, marking, .. } if marking.is_empty() => Some(counter),
                _ => None,
            };
            if let Some((counter, owner)) = changed.and_then(|c| Some((c, side_of(c)?))).filter(|(_, o)| *o != turn) {
                out.push(
                    Diagnostic::warning(
                        &codes::OTHER_SIDES_COUNTER,
                        format!("`{}` is side `{owner}`'s, and this is side `{turn}`'s turn", counter.name),
                    )
                    .primary(counter.span, format!("side `{turn}` has no `{}`: this changes nothing", counter.name))
                    .help(format!("write `opponent` after the amount to change side `{owner}`'s `{}`", counter.name)),
                );
            }
            pending.extend(inner(op));
        }
    }
}

/// The operations inside an operation's blocks.
fn inner(op: &Op) -> Vec<&Op> {
    match op {
        Op::May { ops, .. } | Op::Repeat { ops, .. } | Op::ForEach { ops, .. } | Op::Target { ops, .. } => {
            ops.iter().collect()
        }
        Op::If { then, otherwise, .. } => then.iter().chain(otherwise).collect(),
        _ => Vec::new(),
    }
}
