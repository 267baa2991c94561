//! Named definitions: `def at-most(n) count() <= n` names an expression,
//! and a rule calls it like a function (`at-most(4)`), or names it when it
//! takes no parameters (`def cheap cost <= 1`).
//!
//! A call is expanded before the rule is compiled: the definition's body
//! with each parameter replaced by the expression given for it.  So a
//! definition may stand for a number, a truth or a filter, and the expanded
//! rule is typed like any other.  A definition may use another, but not
//! itself, directly or through others, and expansions nest at most
//! [`MAX_NESTING`] deep and are at most [`MAX_EXPANSIONS`] in a rule.  A
//! parameter used twice copies its argument twice, so calls nested in
//! arguments (`f(f(f(1)))`) could double the rule at each level with few
//! calls: the size of every expansion is counted before it is built, and a
//! rule may grow to at most [`MAX_NODES`] parts, so a rule stays bounded
//! however its definitions are written.  Every walk here
//! recurses only as deep as one expression nests (bounded by the reader)
//! times that nesting.

use crate::diagnostics::Diagnostic;
use crate::ruleset::codes;
use crate::ruleset::names::thousands;
use crate::source::Span;
use crate::syntax::ast::{Expr, Name};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// How deep definitions may use definitions.
pub const MAX_NESTING: usize = 8;

/// How many calls of definitions one rule may expand to.
pub const MAX_EXPANSIONS: usize = 10_000;

/// How many parts (numbers, names, calls, operands) one rule may hold once
/// its definitions are expanded: as many as a long rule written out.
pub const MAX_NODES: usize = 100_000;

/// `def NAME(PARAM, …) EXPRESSION`.
#[derive(Debug)]
pub struct Def {
    pub name: Name,
    pub params: Vec<Name>,
    pub body: Arc<Expr>,
    /// The whole line, for "defined here".
    pub span: Span,
}

/// The state of one rule's expansion.
pub(super) struct Expansion<'d> {
    defs: &'d [Def],
    /// Each definition by its name.
    by_name: &'d HashMap<&'d str, usize>,
    /// Which definitions some rule calls, for the ones none does.
    used: &'d RefCell<Vec<bool>>,
    /// The definitions being expanded, outermost first.
    active: Vec<usize>,
    expansions: usize,
    /// The parts the expansions so far have put into the rule.
    nodes: usize,
    /// Whether a call went too deep, too far or grew the rule past
    /// [`MAX_NODES`]: the others would repeat it, so it is reported once
    /// and nothing more is expanded.
    stopped: bool,
}

impl<'d> Expansion<'d> {
    pub fn new(defs: &'d [Def], by_name: &'d HashMap<&'d str, usize>, used: &'d RefCell<Vec<bool>>) -> Self {
        Expansion { defs, by_name, used, active: Vec::new(), expansions: 0, nodes: 0, stopped: false }
    }

    /// `expr` with every call of a definition expanded; `None` when a call
    /// is wrong, each reported.
    pub fn expand(&mut self, expr: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<Expr> {
        if self.stopped {
            return None;
        }
        match expr {
            Expr::Int(..) | Expr::Str(..) => Some(expr.clone()),
            Expr::Name(name) => match self.find(&name.text) {
                Some(def) => self.call(def, name, &[], name.span, diagnostics),
                None => Some(expr.clone()),
            },
            Expr::Not(inner, span) => Some(Expr::Not(Box::new(self.expand(inner, diagnostics)?), *span)),
            Expr::Group(inner, span) => Some(Expr::Group(Box::new(self.expand(inner, diagnostics)?), *span)),
            Expr::Chain { first, rest, span } => {
                let first = self.expand(first, diagnostics);
                let rest: Vec<Option<_>> =
                    rest.iter().map(|(op, e)| self.expand(e, diagnostics).map(|e| (*op, e))).collect();
                let rest = rest.into_iter().collect::<Option<Vec<_>>>()?;
                Some(Expr::Chain { first: Box::new(first?), rest, span: *span })
            }
            Expr::Call { name, args, span } => {
                // An argument is an operand of its own: no brackets needed.
                let args: Vec<Option<Expr>> = args
                    .iter()
                    .map(|a| {
                        let written_grouped = matches!(a, Expr::Group(..));
                        self.expand(a, diagnostics).map(|e| match e {
                            Expr::Group(inner, _) if !written_grouped => *inner,
                            other => other,
                        })
                    })
                    .collect();
                let args = args.into_iter().collect::<Option<Vec<_>>>()?;
                match self.find(&name.text) {
                    Some(def) => self.call(def, name, &args, *span, diagnostics),
                    None => Some(Expr::Call { name: name.clone(), args, span: *span }),
                }
            }
        }
    }

    fn find(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// A call of the definition at `index` with `args` (already expanded).
    fn call(
        &mut self,
        index: usize,
        name: &Name,
        args: &[Expr],
        at: Span,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Expr> {
        let defs: &'d [Def] = self.defs;
        let def = &defs[index];
        if let Some(used) = self.used.borrow_mut().get_mut(index) {
            *used = true;
        }
        if def.params.len() != args.len() {
            diagnostics.push(
                Diagnostic::error(
                    &codes::RULE_ARITY,
                    format!(
                        "`{}` takes {} argument{}, not {}",
                        def.name.text,
                        def.params.len(),
                        if def.params.len() == 1 { "" } else { "s" },
                        args.len()
                    ),
                )
                .primary(at, "wrong number of arguments")
                .secondary(def.span, "defined here"),
            );
            return None;
        }
        let problem = if self.active.contains(&index) {
            Some(format!("`{}` uses itself", def.name.text))
        } else if self.active.len() >= MAX_NESTING {
            Some(format!("definitions use definitions more than {MAX_NESTING} deep"))
        } else if self.expansions >= MAX_EXPANSIONS {
            Some(format!("the rule expands to more than {MAX_EXPANSIONS} calls of definitions"))
        } else {
            None
        };
        if let Some(message) = problem {
            self.stopped = true;
            self.mark_reachable(index);
            diagnostics.push(
                Diagnostic::error(&codes::RECURSIVE_DEFINITION, message)
                    .primary(name.span, "expanded here")
                    .secondary(def.span, "defined here")
                    .help("a definition may use others, never itself; write the repetition out"),
            );
            return None;
        }
        self.expansions += 1;
        self.nodes = self.nodes.saturating_add(substituted_size(&def.body, &def.params, args));
        if self.nodes > MAX_NODES {
            self.stopped = true;
            self.mark_reachable(index);
            diagnostics.push(
                Diagnostic::error(
                    &codes::RULE_TOO_LARGE,
                    format!("the rule grows past {} parts as its definitions are expanded", thousands(MAX_NODES as i64)),
                )
                .primary(name.span, "expanded here")
                .secondary(def.span, "defined here")
                .note("a definition is copied where it is called, with a copy of its argument for each use of a parameter")
                .help("call definitions fewer times inside each other's arguments, or write a shorter rule"),
            );
            return None;
        }
        let body = substitute(&def.body, &def.params, args);
        self.active.push(index);
        let expanded = self.expand(&body, diagnostics);
        self.active.pop();
        expanded.map(grouped)
    }
}

impl Expansion<'_> {
    /// Marks as used every definition the one at `index` uses, directly or
    /// through others: an expansion stopped at it does not reach them, and
    /// they are not unused.
    fn mark_reachable(&self, index: usize) {
        let mut used = self.used.borrow_mut();
        let mut pending = vec![index];
        while let Some(def) = pending.pop() {
            let mut stack = vec![&*self.defs[def].body];
            while let Some(expr) = stack.pop() {
                let name = match expr {
                    Expr::Name(name) | Expr::Call { name, .. } => Some(name.text.as_str()),
                    _ => None,
                };
                if let Some(&called) = name.and_then(|name| self.by_name.get(name)) {
                    if !std::mem::replace(&mut used[called], true) {
                        pending.push(called);
                    }
                }
                push_operands(expr, &mut stack);
            }
        }
    }
}

/// A run of operators in brackets, so that it stays one operand where it
/// is put, and a rule's echo shows it so: `not (a or b)`.
fn grouped(expr: Expr) -> Expr {
    match expr {
        Expr::Chain { span, .. } => Expr::Group(Box::new(expr), span),
        other => other,
    }
}

/// The parts `substitute` makes, counted without making them: each
/// argument counted at each use of its parameter, saturating.
fn substituted_size(body: &Expr, params: &[Name], args: &[Expr]) -> usize {
    let sizes: Vec<usize> = args.iter().map(size).collect();
    let mut total = 0usize;
    let mut stack = vec![body];
    while let Some(expr) = stack.pop() {
        total = total.saturating_add(match expr {
            // A parameter's argument, put in brackets.
            Expr::Name(name) => {
                params.iter().position(|p| p.text == name.text).map_or(1, |i| sizes[i].saturating_add(1))
            }
            _ => 1,
        });
        push_operands(expr, &mut stack);
    }
    total
}

/// The parts of an expression, counted with a stack of its own.
fn size(expr: &Expr) -> usize {
    let mut total = 0usize;
    let mut stack = vec![expr];
    while let Some(expr) = stack.pop() {
        total = total.saturating_add(1);
        push_operands(expr, &mut stack);
    }
    total
}

/// Puts the operands of `expr` on `stack`.
fn push_operands<'e>(expr: &'e Expr, stack: &mut Vec<&'e Expr>) {
    match expr {
        Expr::Int(..) | Expr::Str(..) | Expr::Name(..) => {}
        Expr::Not(inner, _) | Expr::Group(inner, _) => stack.push(inner),
        Expr::Chain { first, rest, .. } => {
            stack.push(first);
            stack.extend(rest.iter().map(|(_, e)| e));
        }
        Expr::Call { args, .. } => stack.extend(args),
    }
}

/// `body` with each parameter name replaced by its argument.
fn substitute(body: &Expr, params: &[Name], args: &[Expr]) -> Expr {
    match body {
        Expr::Name(name) => match params.iter().position(|p| p.text == name.text) {
            Some(i) => grouped(args[i].clone()),
            None => body.clone(),
        },
        Expr::Int(..) | Expr::Str(..) => body.clone(),
        Expr::Not(inner, span) => Expr::Not(Box::new(substitute(inner, params, args)), *span),
        Expr::Group(inner, span) => Expr::Group(Box::new(substitute(inner, params, args)), *span),
        Expr::Chain { first, rest, span } => Expr::Chain {
            first: Box::new(substitute(first, params, args)),
            rest: rest.iter().map(|(op, e)| (*op, substitute(e, params, args))).collect(),
            span: *span,
        },
        Expr::Call { name, args: inner, span } => Expr::Call {
            name: name.clone(),
            args: inner.iter().map(|e| substitute(e, params, args)).collect(),
            span: *span,
        },
    }
}

/// A definition no rule calls: its expression is never compiled, so a
/// mistake in it would go unseen.
pub fn unused(def: &Def) -> Diagnostic {
    Diagnostic::warning(&codes::UNUSED_DEFINITION, format!("no rule uses `{}`", def.name.text))
        .primary(def.name.span, "defined here, never called")
        .help("a definition is checked where a rule calls it; call it, or remove it")
}
