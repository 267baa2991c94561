//! Compiling an expression of play to its typed tree ([`PlayExpr`]): every
//! name resolved to the zone, counter, quantity, condition, field, kind or
//! tag it means, every node typed, each mistake reported at the name or
//! argument that makes it (E0501).
//!
//! The recursion is as deep as brackets, calls and `not` nest, which the
//! reader bounds (`E0014`), and as definitions call definitions, which
//! [`MAX_DEF_DEPTH`] bounds.

use crate::diagnostics::Diagnostic;
use crate::ruleset::codes;
use crate::ruleset::model::play::{ArithOp, CmpOp, PlayArg, PlayExpr, Whose};
use crate::ruleset::model::setup::Owner;
use crate::ruleset::model::{Ruleset, Schema, StateDef, Type};
use crate::ruleset::names::suggest;
use crate::ruleset::rules::Def;
use crate::source::Span;
use crate::syntax::ast::{BinOp, Expr, Name, Value, ValueKind};
use std::cell::RefCell;
use std::collections::BTreeSet;

/// How deeply definitions may call definitions in one expression.
const MAX_DEF_DEPTH: usize = 8;

/// The type of a node of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::ruleset) enum Ty {
    Number,
    /// A truth; about a card when it reads one (a filter).
    Truth,
    /// A name compared with a card's field.
    Name,
    /// A field whose type a mistake left unknown: it is taken as whatever
    /// is expected, so that the one mistake is reported once.
    Unknown,
}

impl Ty {
    fn describe(self) -> &'static str {
        match self {
            Ty::Number => "a number",
            Ty::Truth => "a truth (a comparison, a condition, a kind or tag)",
            Ty::Name => "a name",
            Ty::Unknown => "a value of unknown type",
        }
    }
}

/// What an expression may read where it is written.
#[derive(Clone, Copy, Default)]
pub(in crate::ruleset) struct Place<'r> {
    /// The parameters of the condition or quantity it means.
    pub(in crate::ruleset) params: &'r [crate::ruleset::model::Param],
    /// Whether a card is at hand (one being resolved, taken or tested):
    /// a field name reads its value.
    pub(in crate::ruleset) card: bool,
}

/// The names of one ruleset that play expressions use.
pub(in crate::ruleset) struct Compiler<'r> {
    pub(in crate::ruleset) ruleset: &'r Ruleset,
    pub(in crate::ruleset) defs: &'r [Def],
    /// The definitions expressions expanded, which no rule need call.
    pub(in crate::ruleset) used: RefCell<BTreeSet<String>>,
}

/// Which functions play expressions call, and their forms.
const FUNCTIONS: &[(&str, &str)] = &[
    ("count", "count(ZONE, FILTER…)"),
    ("played", "played(FILTER…)"),
    ("opponent-count", "opponent-count(ZONE, FILTER…)"),
    ("sum", "sum(ZONE, FIELD, FILTER…)"),
    ("opponent", "opponent(COUNTER)"),
    ("param", "param(NAME)"),
    ("if", "if(TRUTH, NUMBER, NUMBER)"),
];

fn error(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(&codes::PLAY_EXPRESSION, message).primary(span, "here")
}

impl<'r> Compiler<'r> {
    pub(in crate::ruleset) fn new(ruleset: &'r Ruleset, defs: &'r [Def]) -> Compiler<'r> {
        Compiler { ruleset, defs, used: RefCell::default() }
    }

    /// Compiles `expr` as a value of type `want`, or reports why not.
    pub(in crate::ruleset) fn compile(
        &self,
        expr: &Expr,
        want: Ty,
        place: Place<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<PlayExpr> {
        let (tree, ty) = self.node(expr, place, 0, out)?;
        self.expect(ty, want, expr.span(), out)?;
        Some(tree)
    }

    fn expect(&self, found: Ty, want: Ty, span: Span, out: &mut Vec<Diagnostic>) -> Option<()> {
        if found == want || found == Ty::Unknown {
            return Some(());
        }
        out.push(error(span, format!("expected {}, found {}", want.describe(), found.describe())));
        None
    }

    fn node(&self, expr: &Expr, place: Place<'_>, depth: usize, out: &mut Vec<Diagnostic>) -> Option<(PlayExpr, Ty)> {
        match expr {
            Expr::Int(value, _) => Some((PlayExpr::Int { value: *value }, Ty::Number)),
            // A card's name, to compare with the field `name`.
            Expr::Str(text, _) => Some((PlayExpr::Name { value: text.clone() }, Ty::Name)),
            Expr::Group(inner, _) => self.node(inner, place, depth, out),
            Expr::Not(inner, _) => {
                let (operand, ty) = self.node(inner, place, depth, out)?;
                self.expect(ty, Ty::Truth, inner.span(), out)?;
                Some((PlayExpr::Not { operand: Box::new(operand) }, Ty::Truth))
            }
            Expr::Name(name) => self.name(name, place, depth, out),
            Expr::Call { name, args, span } => self.call(name, args, *span, place, depth, out),
            Expr::Chain { first, rest, .. } => self.chain(first, rest, place, depth, out),
        }
    }

    fn chain(
        &self,
        first: &Expr,
        rest: &[(BinOp, Expr)],
        place: Place<'_>,
        depth: usize,
        out: &mut Vec<Diagnostic>,
    ) -> Option<(PlayExpr, Ty)> {
        let (head, head_ty) = self.node(first, place, depth, out)?;
        let mut tail = Vec::with_capacity(rest.len());
        for (op, operand) in rest {
            let (tree, ty) = self.node(operand, place, depth, out)?;
            tail.push((*op, tree, ty, operand.span()));
        }
        let Some(&(op, ..)) = tail.first() else { return Some((head, head_ty)) };
        match op {
            BinOp::And | BinOp::Or => {
                self.expect(head_ty, Ty::Truth, first.span(), out)?;
                for (_, _, ty, span) in &tail {
                    self.expect(*ty, Ty::Truth, *span, out)?;
                }
                let mut operands = vec![head];
                operands.extend(tail.into_iter().map(|(_, tree, ..)| tree));
                Some((if op == BinOp::And { PlayExpr::And { operands } } else { PlayExpr::Or { operands } }, Ty::Truth))
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                self.expect(head_ty, Ty::Number, first.span(), out)?;
                let mut rest = Vec::with_capacity(tail.len());
                for (op, tree, ty, span) in tail {
                    self.expect(ty, Ty::Number, span, out)?;
                    rest.push((arith(op), tree));
                }
                Some((PlayExpr::Arith { first: Box::new(head), rest }, Ty::Number))
            }
            _ => self.compare(head, head_ty, first.span(), tail, out),
        }
    }

    fn compare(
        &self,
        head: PlayExpr,
        head_ty: Ty,
        head_span: Span,
        tail: Vec<(BinOp, PlayExpr, Ty, Span)>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<(PlayExpr, Ty)> {
        let head_ty = if head_ty == Ty::Unknown { tail.first().map_or(Ty::Number, |t| t.2) } else { head_ty };
        if head_ty == Ty::Truth {
            out.push(error(head_span, "a comparison compares numbers or names, not truths"));
            return None;
        }
        let mut rest = Vec::with_capacity(tail.len());
        for (op, tree, ty, span) in tail {
            let cmp = compare(op);
            if ty != head_ty && ty != Ty::Unknown {
                out.push(error(span, format!("compared with {}, found {}", head_ty.describe(), ty.describe())));
                return None;
            }
            if ty == Ty::Name && !matches!(cmp, CmpOp::Eq | CmpOp::Ne) {
                out.push(error(span, "names compare only with `==` and `!=`"));
                return None;
            }
            rest.push((cmp, tree));
        }
        Some((PlayExpr::Compare { first: Box::new(head), rest }, Ty::Truth))
    }

    /// A bare name: what it names decides its node and type.
    fn name(&self, name: &Name, place: Place<'_>, depth: usize, out: &mut Vec<Diagnostic>) -> Option<(PlayExpr, Ty)> {
        let text = name.text.as_str();
        let r = self.ruleset;
        let found = match text {
            "amount" => Some((PlayExpr::Amount, Ty::Number)),
            "last" => Some((PlayExpr::Last, Ty::Number)),
            "round" => Some((PlayExpr::Round, Ty::Number)),
            "place" => Some((PlayExpr::Place, Ty::Number)),
            "this" if place.card => Some((PlayExpr::This, Ty::Truth)),
            _ => None,
        };
        if let Some(found) = found {
            return Some(found);
        }
        if self.counter(text).is_some() {
            return Some((PlayExpr::Counter { id: text.into(), of: Whose::You }, Ty::Number));
        }
        let markers = r.setup.iter().flat_map(|s| &s.markers);
        if place.card && markers.clone().any(|m| m.id == text) {
            return Some((PlayExpr::Marker { id: text.into() }, Ty::Number));
        }
        if let Some(q) = r.quantities.iter().find(|q| q.id == text) {
            return self.without_params(q, name, out).map(|_| (PlayExpr::Quantity { id: text.into() }, Ty::Number));
        }
        if let Some(c) = r.conditions.iter().find(|c| c.id == text) {
            self.without_params(c, name, out)?;
            return Some((PlayExpr::Condition { id: text.into(), args: Vec::new() }, Ty::Truth));
        }
        if r.kinds.iter().any(|k| k.id == text) {
            return Some((PlayExpr::Kind { id: text.into() }, Ty::Truth));
        }
        if r.tags.iter().any(|t| t.id == text) {
            return Some((PlayExpr::Tag { id: text.into() }, Ty::Truth));
        }
        if let Some(ty) = self.field_type(text).filter(|_| place.card) {
            return Some((PlayExpr::Field { name: text.into() }, ty));
        }
        // A card's printed name, unless a kind declares a field of that name.
        if text == "name" && place.card {
            return Some((PlayExpr::Field { name: text.into() }, Ty::Name));
        }
        if let Some(def) = self.defs.iter().find(|d| d.name.text == text && d.params.is_empty()) {
            return self.definition(def, name.span, place, depth, out);
        }
        if self.is_value_name(text) {
            return Some((PlayExpr::Name { value: text.into() }, Ty::Name));
        }
        out.push(self.unknown(name, place));
        None
    }

    fn unknown(&self, name: &Name, place: Place<'_>) -> Diagnostic {
        let r = self.ruleset;
        let mut candidates: Vec<&str> = vec!["amount", "last", "round", "place", "this"];
        if let Some(setup) = &r.setup {
            candidates.extend(setup.counters.iter().map(|c| c.id.as_str()));
            candidates.extend(setup.markers.iter().filter(|_| place.card).map(|m| m.id.as_str()));
        }
        candidates.extend(r.quantities.iter().chain(&r.conditions).map(|s| s.id.as_str()));
        candidates.extend(r.kinds.iter().map(|k| k.id.as_str()));
        candidates.extend(r.tags.iter().map(|t| t.id.as_str()));
        candidates.extend(self.defs.iter().map(|d| d.name.text.as_str()));
        if place.card {
            candidates.extend(r.kinds.iter().flat_map(|k| &k.schema.fields).map(|f| f.name.as_str()));
        }
        let mut diagnostic = error(name.span, format!("`{}` names nothing play can read", name.text))
            .suggest(suggest(&name.text, candidates));
        if place.params.iter().any(|p| p.name == name.text) {
            diagnostic = diagnostic.help(format!("a parameter is read with `param({})`", name.text));
        }
        if !place.card && (name.text == "this" || self.field_type(&name.text).is_some()) {
            diagnostic = diagnostic
                .help("no card is at hand here: `this` and fields are read in a filter, an effect or a `for-each`");
        }
        diagnostic.note(
            "a name is a counter, a quantity, a condition, a kind, a tag, a field of the cards, a `def`, \
             `amount`, `last`, `round`, `place` or `this`",
        )
    }

    fn without_params(&self, declared: &StateDef, name: &Name, out: &mut Vec<Diagnostic>) -> Option<()> {
        if declared.params.is_empty() {
            return Some(());
        }
        let params: Vec<&str> = declared.params.iter().map(|p| p.name.as_str()).collect();
        out.push(error(name.span, format!("`{}` takes {}", name.text, params.join(", "))).help(format!(
            "write `{}({})`",
            name.text,
            params.join(", ")
        )));
        None
    }

    fn definition(
        &self,
        def: &Def,
        at: Span,
        place: Place<'_>,
        depth: usize,
        out: &mut Vec<Diagnostic>,
    ) -> Option<(PlayExpr, Ty)> {
        if depth >= MAX_DEF_DEPTH {
            out.push(error(at, format!("definitions call each other more than {MAX_DEF_DEPTH} deep here")));
            return None;
        }
        self.used.borrow_mut().insert(def.name.text.clone());
        self.node(&def.body, place, depth + 1, out)
    }

    fn call(
        &self,
        name: &Name,
        args: &[Expr],
        span: Span,
        place: Place<'_>,
        depth: usize,
        out: &mut Vec<Diagnostic>,
    ) -> Option<(PlayExpr, Ty)> {
        match name.text.as_str() {
            "count" | "opponent-count" => {
                let of = if name.text == "count" { Whose::You } else { Whose::Opponent };
                let (zone, filters) = args.split_first().or_else(|| self.arity(name, span, out))?;
                let zone = self.zone(zone, out)?;
                let filter = self.filters(filters, place, depth, out)?;
                Some((PlayExpr::Count { zone, of, filter }, Ty::Number))
            }
            "played" => {
                let filter = self.filters(args, place, depth, out)?;
                Some((PlayExpr::Played { filter }, Ty::Number))
            }
            "sum" => {
                let [zone, field, filters @ ..] = args else { return self.arity(name, span, out) };
                let zone = self.zone(zone, out)?;
                let field = self.field_arg(field, out)?;
                let filter = self.filters(filters, place, depth, out)?;
                Some((PlayExpr::Sum { zone, of: Whose::You, field, filter }, Ty::Number))
            }
            "opponent" => {
                let [Expr::Name(counter)] = args else { return self.arity(name, span, out) };
                if self.counter(&counter.text).is_none() {
                    out.push(error(counter.span, format!("`{}` is no counter of the set-up", counter.text)));
                    return None;
                }
                Some((PlayExpr::Counter { id: counter.text.clone(), of: Whose::Opponent }, Ty::Number))
            }
            "param" => self.param(name, args, span, place, out),
            "if" => {
                let [test, then, otherwise] = args else { return self.arity(name, span, out) };
                let mut typed = |arg: &Expr, want: Ty| {
                    let (tree, ty) = self.node(arg, place, depth + 1, out)?;
                    self.expect(ty, want, arg.span(), out)?;
                    Some(Box::new(tree))
                };
                let (test, then, otherwise) =
                    (typed(test, Ty::Truth), typed(then, Ty::Number), typed(otherwise, Ty::Number));
                Some((PlayExpr::If { test: test?, then: then?, otherwise: otherwise? }, Ty::Number))
            }
            other => match self.ruleset.conditions.iter().find(|c| c.id == other) {
                Some(condition) => self.condition_call(condition, args, span, out),
                None => {
                    let names = FUNCTIONS.iter().map(|(n, _)| *n);
                    out.push(
                        error(name.span, format!("`{other}` is not a function of play"))
                            .suggest(suggest(other, names))
                            .note(format!(
                                "play's functions: {}; a condition with parameters is called with its arguments",
                                FUNCTIONS.iter().map(|(_, f)| format!("`{f}`")).collect::<Vec<_>>().join(", ")
                            )),
                    );
                    None
                }
            },
        }
    }

    fn arity<T>(&self, name: &Name, span: Span, out: &mut Vec<Diagnostic>) -> Option<T> {
        let form = FUNCTIONS.iter().find(|(n, _)| *n == name.text).map_or("", |(_, f)| *f);
        out.push(error(span, format!("`{}` is written `{form}`", name.text)));
        None
    }

    fn param(
        &self,
        name: &Name,
        args: &[Expr],
        span: Span,
        place: Place<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<(PlayExpr, Ty)> {
        let [Expr::Name(param)] = args else { return self.arity(name, span, out) };
        let Some(declared) = place.params.iter().find(|p| p.name == param.text) else {
            let names = place.params.iter().map(|p| p.name.as_str());
            out.push(
                error(param.span, format!("`{}` is no parameter here", param.text))
                    .suggest(suggest(&param.text, names))
                    .note("`param` reads a parameter of the condition or quantity whose meaning this is"),
            );
            return None;
        };
        let ty = if is_number(&declared.ty.ty) { Ty::Number } else { Ty::Name };
        Some((PlayExpr::Param { name: param.text.clone() }, ty))
    }

    /// `guild-ally(weavers)`: a condition with its arguments.
    fn condition_call(
        &self,
        condition: &StateDef,
        args: &[Expr],
        span: Span,
        out: &mut Vec<Diagnostic>,
    ) -> Option<(PlayExpr, Ty)> {
        if args.len() != condition.params.len() {
            out.push(error(span, format!("`{}` takes {} arguments", condition.id, condition.params.len())));
            return None;
        }
        let mut compiled = Vec::with_capacity(args.len());
        for (param, arg) in condition.params.iter().zip(args) {
            let value = match arg {
                Expr::Int(n, _) => PlayExpr::Int { value: *n },
                Expr::Name(n) => PlayExpr::Name { value: n.text.clone() },
                other => {
                    out.push(error(other.span(), "an argument is a number or a name"));
                    return None;
                }
            };
            compiled.push(PlayArg { param: param.name.clone(), value: Box::new(value) });
        }
        Some((PlayExpr::Condition { id: condition.id.clone(), args: compiled }, Ty::Truth))
    }

    /// The filters after a zone, all of which a card must match.
    fn filters(
        &self,
        filters: &[Expr],
        place: Place<'_>,
        depth: usize,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Option<Box<PlayExpr>>> {
        let card = Place { card: true, ..place };
        let mut operands = Vec::with_capacity(filters.len());
        for filter in filters {
            let (tree, ty) = self.node(filter, card, depth, out)?;
            self.expect(ty, Ty::Truth, filter.span(), out)?;
            operands.push(tree);
        }
        Some(match operands.len() {
            0 => None,
            1 => operands.pop().map(Box::new),
            _ => Some(Box::new(PlayExpr::And { operands })),
        })
    }

    fn zone(&self, expr: &Expr, out: &mut Vec<Diagnostic>) -> Option<String> {
        let zones = self.ruleset.setup.as_ref().map(|s| s.zones.as_slice()).unwrap_or_default();
        match expr {
            Expr::Name(name) if zones.iter().any(|z| z.id == name.text) => Some(name.text.clone()),
            _ => {
                let written = match expr {
                    Expr::Name(name) => name.text.as_str(),
                    _ => "",
                };
                let ids: Vec<&str> = zones.iter().map(|z| z.id.as_str()).collect();
                let diagnostic = error(expr.span(), format!("`{written}` is no zone of the set-up"));
                out.push(match suggest(written, ids.iter().copied()) {
                    Some(meant) => diagnostic.suggest(Some(meant)),
                    None => diagnostic.expected(&ids, "the set-up declares no zone"),
                });
                None
            }
        }
    }

    fn field_arg(&self, expr: &Expr, out: &mut Vec<Diagnostic>) -> Option<String> {
        match expr {
            Expr::Name(name) if matches!(self.field_type(&name.text), Some(Ty::Number | Ty::Unknown)) => {
                Some(name.text.clone())
            }
            _ => {
                out.push(error(expr.span(), "expected a field of the cards that holds a number"));
                None
            }
        }
    }

    /// A counter of the set-up, by id.
    pub(in crate::ruleset) fn counter(&self, id: &str) -> Option<Owner> {
        let setup = self.ruleset.setup.as_ref()?;
        setup.counters.iter().find(|c| c.id == id).map(|c| c.owner)
    }

    /// The type of a field some kind declares at its top level: a number
    /// when it holds one, else a name.
    pub(in crate::ruleset) fn field_type(&self, name: &str) -> Option<Ty> {
        let schemas = self.ruleset.kinds.iter().map(|k| &k.schema);
        let field = schemas.flat_map(|s: &Schema| &s.fields).find(|f| f.name == name)?;
        let Some(first) = field.schema.takes.first() else { return Some(Ty::Unknown) };
        Some(match &first.ty {
            ty if is_number(ty) => Ty::Number,
            Type::Enum(id) | Type::Set(id) if !self.ruleset.enums.iter().any(|e| &e.id == id) => Ty::Unknown,
            _ => Ty::Name,
        })
    }

    /// A value some field may hold: an enum value, a symbol.
    pub(in crate::ruleset) fn is_value_name(&self, text: &str) -> bool {
        let r = self.ruleset;
        r.enums.iter().any(|e| e.values.iter().any(|v| v == text)) || r.symbols.iter().any(|s| s.id == text)
    }

    /// An amount a play line writes as one word: a number, or a name.
    pub(in crate::ruleset) fn word(
        &self,
        text: &str,
        span: Span,
        want: Ty,
        place: Place<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<PlayExpr> {
        if let Ok(value) = text.parse::<i64>() {
            return self.expect(Ty::Number, want, span, out).map(|_| PlayExpr::Int { value });
        }
        let name = Name { text: text.to_string(), span };
        self.compile(&Expr::Name(name), want, place, out)
    }

    /// `if CONDITION ARG…`: a declared condition with the values given.
    pub(in crate::ruleset) fn test(
        &self,
        condition: &str,
        args: &[Value],
        span: Span,
        out: &mut Vec<Diagnostic>,
    ) -> Option<PlayExpr> {
        let Some(declared) = self.ruleset.conditions.iter().find(|c| c.id == condition) else {
            let names = self.ruleset.conditions.iter().map(|c| c.id.as_str());
            out.push(
                error(span, format!("`{condition}` is no condition of the ruleset"))
                    .suggest(suggest(condition, names))
                    .help("declare it: `condition has-oil \"if you have oil\" { means oil >= 1 }`"),
            );
            return None;
        };
        let exprs: Vec<Expr> = args
            .iter()
            .map(|v| match &v.kind {
                ValueKind::Int(n) => Expr::Int(*n, v.span),
                ValueKind::Ident(s) | ValueKind::Word(s) => Expr::Name(Name { text: s.clone(), span: v.span }),
                _ => Expr::Str(String::new(), v.span),
            })
            .collect();
        self.condition_call(declared, &exprs, span, out).map(|(tree, _)| tree)
    }
}

/// A type play reads as a number: a grade is one that orders as grades do
/// (`A` 2600, `A+` 2601, `B` 2500).
fn is_number(ty: &Type) -> bool {
    matches!(ty, Type::Int | Type::Signed | Type::Grade)
}

fn arith(op: BinOp) -> ArithOp {
    match op {
        BinOp::Sub => ArithOp::Sub,
        BinOp::Mul => ArithOp::Mul,
        BinOp::Div => ArithOp::Div,
        _ => ArithOp::Add,
    }
}

fn compare(op: BinOp) -> CmpOp {
    match op {
        BinOp::Ne => CmpOp::Ne,
        BinOp::Lt => CmpOp::Lt,
        BinOp::Le => CmpOp::Le,
        BinOp::Gt => CmpOp::Gt,
        BinOp::Ge => CmpOp::Ge,
        _ => CmpOp::Eq,
    }
}
