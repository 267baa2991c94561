//! Named definitions: `def at-most(n) count() <= n` names an expression,
//! and a rule calls it like a function (`at-most(4)`), or names it when it
//! takes no parameters (`def cheap cost <= 1`).
//!
//! A call is expanded before the rule is compiled: the definition's body
//! with each parameter replaced by the expression given for it.  So a
//! definition may stand for a number, a truth or a filter, and the expanded
//! rule is typed like any other.  A definition may use another, but not
//! itself, directly or through others, and expansions nest at most
//! [`MAX_NESTING`] deep, are at most [`MAX_EXPANSIONS`] in a rule, and
//! build at most [`MAX_EXPANDED_NODES`] nodes of expression in a rule
//! (a parameter used twice doubles its argument, so calls nested in
//! arguments would otherwise double a rule at each level), so a rule stays
//! bounded however its definitions are written.  Every walk here
//! recurses only as deep as one expression nests (bounded by the reader)
//! times that nesting.

use crate::check::codes;
use crate::diagnostics::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{Expr, Name};
use std::cell::RefCell;
use std::sync::Arc;

/// How deep definitions may use definitions.
pub const MAX_NESTING: usize = 8;

/// How many calls of definitions one rule may expand to.
pub const MAX_EXPANSIONS: usize = 10_000;

/// How many nodes of expression the expansions of one rule may build, its
/// arguments copied in as often as their parameters are used.
pub const MAX_EXPANDED_NODES: usize = 100_000;

/// The definitions of a ruleset by name, for the expansions of its rules.
pub type DefIndex<'d> = std::collections::HashMap<&'d str, usize>;

/// The index of `defs` by name.
pub fn index(defs: &[Def]) -> DefIndex<'_> {
    defs.iter().enumerate().map(|(i, def)| (def.name.text.as_str(), i)).collect()
}

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
    by_name: &'d DefIndex<'d>,
    /// Which definitions some rule calls, for the ones none does.
    used: &'d RefCell<Vec<bool>>,
    /// The definitions being expanded, outermost first.
    active: Vec<usize>,
    expansions: usize,
    /// The nodes the expansions built so far.
    nodes: usize,
}

impl<'d> Expansion<'d> {
    pub fn new(defs: &'d [Def], by_name: &'d DefIndex<'d>, used: &'d RefCell<Vec<bool>>) -> Self {
        Expansion { defs, by_name, used, active: Vec::new(), expansions: 0, nodes: 0 }
    }

    /// `expr` with every call of a definition expanded; `None` when a call
    /// is wrong, each reported.
    pub fn expand(&mut self, expr: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<Expr> {
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
        let recursion = "a definition may use others, never itself; write the repetition out";
        let problem = if self.active.contains(&index) {
            Some((format!("`{}` uses itself", def.name.text), recursion))
        } else if self.active.len() >= MAX_NESTING {
            Some((format!("definitions use definitions more than {MAX_NESTING} deep"), recursion))
        } else if self.expansions >= MAX_EXPANSIONS {
            Some((format!("the rule expands to more than {MAX_EXPANSIONS} calls of definitions"), recursion))
        } else if self.spend_nodes(def, args) {
            Some((
                format!("the rule expands to more than {MAX_EXPANDED_NODES} nodes of expression"),
                "a parameter used twice copies its argument twice, at every level of calls nested in arguments: nest fewer calls, or use each parameter once",
            ))
        } else {
            None
        };
        if let Some((message, help)) = problem {
            diagnostics.push(
                Diagnostic::error(&codes::RECURSIVE_DEFINITION, message)
                    .primary(name.span, "expanded here")
                    .secondary(def.span, "defined here")
                    .help(help),
            );
            return None;
        }
        self.expansions += 1;
        let body = substitute(&def.body, &def.params, args);
        self.active.push(index);
        let expanded = self.expand(&body, diagnostics);
        self.active.pop();
        expanded.map(grouped)
    }
}

impl Expansion<'_> {
    /// Adds what substituting `args` into `def` builds to the rule's nodes,
    /// counted before it is built; whether that passes the limit.
    fn spend_nodes(&mut self, def: &Def, args: &[Expr]) -> bool {
        let left = MAX_EXPANDED_NODES.saturating_sub(self.nodes);
        let sizes: Vec<usize> = args.iter().map(|arg| nodes_at_most(arg, left)).collect();
        let mut built = nodes_at_most(&def.body, left);
        for (param, size) in def.params.iter().zip(sizes) {
            let uses = uses_of(&def.body, &param.text);
            built = built.saturating_add(uses.saturating_mul(size));
        }
        self.nodes = self.nodes.saturating_add(built);
        self.nodes > MAX_EXPANDED_NODES
    }
}

/// The nodes of `expr`, counted up to just past `most`.
fn nodes_at_most(expr: &Expr, most: usize) -> usize {
    let mut count = 0;
    let mut work = vec![expr];
    while let Some(expr) = work.pop() {
        count += 1;
        if count > most {
            break;
        }
        push_children(expr, &mut work);
    }
    count
}

/// How often `body` names the parameter `param`.
fn uses_of(body: &Expr, param: &str) -> usize {
    let mut uses = 0;
    let mut work = vec![body];
    while let Some(expr) = work.pop() {
        if let Expr::Name(name) = expr {
            uses += usize::from(name.text == param);
        }
        push_children(expr, &mut work);
    }
    uses
}

/// Pushes the expressions `expr` holds onto `work`.
fn push_children<'e>(expr: &'e Expr, work: &mut Vec<&'e Expr>) {
    match expr {
        Expr::Int(..) | Expr::Str(..) | Expr::Name(..) => {}
        Expr::Not(inner, _) | Expr::Group(inner, _) => work.push(inner),
        Expr::Chain { first, rest, .. } => {
            work.push(first);
            work.extend(rest.iter().map(|(_, e)| e));
        }
        Expr::Call { args, .. } => work.extend(args),
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
