//! Compiling a rule: every function resolved to a [`Call`], every name to
//! the declaration it means, every node typed.  Each mistake is reported at
//! the name or argument that makes it, and all of a rule's mistakes are
//! reported, not only the first.
//!
//! The recursion is as deep as brackets, calls and `not` nest in the rule,
//! which the reader bounds (`E0014`).

use super::defs::{Def, Expansion};
use super::Scope;
use super::{
    ArgWanted, Arith, Call, CallNode, Cmp, Compiled, EffectFilter, Filter, Filters, Node, Op, Ty, Wanted, FUNCTIONS,
};
use crate::diagnostics::Diagnostic;
use crate::ruleset::codes;
use crate::ruleset::model::Plus;
use crate::ruleset::model::{DeckParam, Ruleset, Schema, Type};
use crate::ruleset::names::suggest;
use crate::source::Span;
use crate::syntax::ast::{BinOp, Expr, Name};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};

/// What a function's arguments are: some of fixed types, then any number
/// of one type (or none).
struct Signature {
    fixed: &'static [Ty],
    rest: Option<Ty>,
    result: Ty,
    /// The call written out, for a help line.
    example: &'static str,
}

/// The rule functions; [`FUNCTIONS`] holds their names in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Function {
    Count,
    Distinct,
    Groups,
    MaxCopies,
    MaxGroups,
    All,
    Any,
    Sum,
    SumRows,
    Subset,
    Values,
    OutOfRange,
    Decks,
    Every,
    Value,
    Numbers,
    Effects,
    Rows,
    EachRow,
    Args,
    EachArg,
    Some,
    Choices,
    Min,
    Max,
    Shared,
    Removed,
    Added,
    BeyondSource,
    Gap,
    EdgeGap,
    QuarterSpread,
    Inside,
    Unplaced,
    Reach,
    HexRepeats,
    HexUnreached,
    Speeds,
    Manoeuvres,
}

impl Function {
    const ALL: [Function; 39] = [
        Function::Count,
        Function::Distinct,
        Function::Groups,
        Function::MaxCopies,
        Function::MaxGroups,
        Function::All,
        Function::Any,
        Function::Sum,
        Function::SumRows,
        Function::Subset,
        Function::Values,
        Function::OutOfRange,
        Function::Decks,
        Function::Every,
        Function::Value,
        Function::Numbers,
        Function::Effects,
        Function::Rows,
        Function::EachRow,
        Function::Args,
        Function::EachArg,
        Function::Some,
        Function::Choices,
        Function::Min,
        Function::Max,
        Function::Shared,
        Function::Removed,
        Function::Added,
        Function::BeyondSource,
        Function::Gap,
        Function::EdgeGap,
        Function::QuarterSpread,
        Function::Inside,
        Function::Unplaced,
        Function::Reach,
        Function::HexRepeats,
        Function::HexUnreached,
        Function::Speeds,
        Function::Manoeuvres,
    ];

    fn named(name: &str) -> Option<Function> {
        let at = FUNCTIONS.iter().position(|f| *f == name)?;
        Function::ALL.get(at).copied()
    }

    fn signature(self) -> Signature {
        let filters = |result, example| Signature { fixed: &[], rest: Some(Ty::Filter), result, example };
        let field_then = |rest, result, example| Signature { fixed: &[Ty::Field], rest, result, example };
        let placed = |fixed, example| Signature { fixed, rest: Some(Ty::Filter), result: Ty::Number, example };
        match self {
            Function::Count => filters(Ty::Number, "count(offense)"),
            Function::Distinct => filters(Ty::Number, "distinct(offense)"),
            Function::Groups => filters(Ty::Number, "groups(tonnage == L)"),
            Function::MaxCopies => filters(Ty::Number, "max-copies()"),
            Function::MaxGroups => filters(Ty::Number, "max-groups(rare)"),
            Function::Shared => filters(Ty::Number, "shared(secondary-weapon)"),
            Function::Removed => filters(Ty::Number, "removed(offense and not secondary-weapon)"),
            Function::BeyondSource => filters(Ty::Number, "beyond-source(offense and symbol != deck)"),
            Function::Added => filters(Ty::Number, "added(command)"),
            Function::Gap => placed(&[Ty::Filter], "gap(obstacle, obstacle or station)"),
            Function::EdgeGap => filters(Ty::Number, "edge-gap(obstacle)"),
            Function::QuarterSpread => filters(Ty::Number, "quarter-spread(obstacle)"),
            Function::Inside => placed(&[Ty::Name], "inside(red-edge, obstacle)"),
            Function::Unplaced => filters(Ty::Number, "unplaced(obstacle)"),
            Function::Reach => Signature { fixed: &[Ty::Name], rest: None, result: Ty::Number, example: "reach(r1)" },
            Function::All => filters(Ty::Truth, "all(cost >= 1)"),
            Function::Any => filters(Ty::Truth, "any(extra)"),
            Function::Sum => field_then(Some(Ty::Filter), Ty::Number, "sum(points, ship)"),
            Function::Min => field_then(Some(Ty::Filter), Ty::Number, "min(points, ship)"),
            Function::Max => field_then(Some(Ty::Filter), Ty::Number, "max(points, ship)"),
            Function::SumRows => field_then(Some(Ty::Name), Ty::Number, "sum-rows(launch, fighters, bombers)"),
            Function::Values => field_then(Some(Ty::Filter), Ty::Number, "values(symbol, offense)"),
            Function::OutOfRange => field_then(Some(Ty::Filter), Ty::Number, "out-of-range(group)"),
            Function::Subset => Signature {
                fixed: &[Ty::Field, Ty::Field],
                rest: Some(Ty::Filter),
                result: Ty::Truth,
                example: "subset(needs, provides, caster)",
            },
            Function::Decks => {
                Signature { fixed: &[], rest: Some(Ty::DeckType), result: Ty::Number, example: "decks(offense)" }
            }
            // Deck types, then the rule: checked by `Compiler::quantifier`.
            Function::Every => {
                Signature { fixed: &[Ty::Truth], rest: None, result: Ty::Truth, example: "every(line, count() <= 3)" }
            }
            Function::Some => Signature {
                fixed: &[Ty::Truth],
                rest: None,
                result: Ty::Truth,
                example: "some(flag, any(dreadnought))",
            },
            Function::Value => Signature {
                fixed: &[Ty::Field, Ty::Position],
                rest: None,
                result: Ty::Number,
                example: "value(move, 1)",
            },
            Function::Numbers => field_then(None, Ty::Number, "numbers(armour)"),
            Function::HexRepeats => field_then(Some(Ty::Field), Ty::Number, "hex-repeats(green, blue)"),
            Function::HexUnreached => field_then(Some(Ty::Field), Ty::Number, "hex-unreached(green, blue)"),
            Function::Speeds => field_then(None, Ty::Number, "speeds(move)"),
            Function::Manoeuvres => field_then(Some(Ty::Name), Ty::Number, "manoeuvres(move, hard)"),
            Function::Choices => Signature { fixed: &[], rest: None, result: Ty::Number, example: "choices() <= 1" },
            Function::Effects => Signature {
                fixed: &[],
                rest: Some(Ty::EffectFilter),
                result: Ty::Number,
                example: "effects(role == cost)",
            },
            Function::Rows => field_then(Some(Ty::Filter), Ty::Number, "rows(weapon, attack >= 2)"),
            Function::EachRow => Signature {
                fixed: &[Ty::Field, Ty::Filter],
                rest: Some(Ty::Filter),
                result: Ty::Truth,
                example: "each-row(weapon, not (close-action and close-action-beam))",
            },
            Function::Args => {
                Signature { fixed: &[Ty::Keyword], rest: None, result: Ty::Number, example: "args(unstoppable)" }
            }
            Function::EachArg => Signature {
                fixed: &[Ty::Keyword, Ty::Truth],
                rest: None,
                result: Ty::Truth,
                example: "each-arg(unstoppable, effects(symbol == arg) >= 1)",
            },
        }
    }
}

/// The names of one ruleset that rules use, gathered once for all its
/// rules.
pub(crate) struct Names<'r> {
    ruleset: &'r Ruleset,
    /// The ruleset's definitions (`def`), expanded where rules call them.
    defs: &'r [Def],
    /// Each definition by its name.
    def_index: HashMap<&'r str, usize>,
    /// Which definitions some rule calls.
    used: RefCell<Vec<bool>>,
    /// Every field name the ruleset declares, at any depth.
    fields: Vec<&'r str>,
    /// The fields some declaration of which holds text.
    text_fields: Vec<&'r str>,
    /// The names each field may hold, where the ruleset declares them all
    /// (enum values, symbols, arcs…): a field test naming any other value
    /// could never hold.  Fields of free names or numbers are not listed.
    field_values: BTreeMap<&'r str, Vec<&'r str>>,
    /// The fields some declaration of which holds a number a rule compares.
    number_fields: Vec<&'r str>,
    /// The fields some declaration of which holds hex positions.
    coord_fields: Vec<&'r str>,
    /// The card names rules test (`name == "Scout"`), and where: a name no
    /// card has is found once the cards are read.
    tested: RefCell<Vec<(Box<str>, Span)>>,
}

impl<'r> Names<'r> {
    pub fn new(ruleset: &'r Ruleset, defs: &'r [Def]) -> Self {
        let used = RefCell::new(vec![false; defs.len()]);
        // `this`: a block's own values, in rules declared inside the block.
        let mut fields = field_names(ruleset, |_| true);
        fields.push("this");
        fields.sort_unstable();
        fields.dedup();
        let text_fields = field_names(ruleset, holds_text);
        let def_index = defs.iter().enumerate().map(|(i, def)| (def.name.text.as_str(), i)).collect();
        let (field_values, number_fields) = (field_values(ruleset), number_fields(ruleset));
        let coord_fields = fields_taking(ruleset, |ty| *ty == Type::Coord);
        let tested = RefCell::new(Vec::new());
        Names { ruleset, defs, def_index, used, fields, text_fields, field_values, number_fields, coord_fields, tested }
    }

    /// The card names the rules compiled test, and where.
    pub fn tested_names(&self) -> Vec<(Box<str>, Span)> {
        self.tested.take()
    }

    /// The definitions no rule compiled so far calls.
    pub fn unused(&self) -> impl Iterator<Item = &'r Def> + '_ {
        let used = self.used.borrow().clone();
        self.defs.iter().zip(used).filter(|(_, used)| !used).map(|(def, _)| def)
    }

    /// Whether `name` means something else in a rule (a function, or a
    /// name of the ruleset), so that a definition of that name would hide it.
    pub fn taken(&self, name: &str) -> bool {
        let ruleset = self.ruleset;
        FUNCTIONS.contains(&name)
            || self.fields.contains(&name)
            || ruleset.kinds.iter().any(|k| k.id == name)
            || ruleset.tags.iter().any(|t| t.id == name)
            || ruleset.keywords.iter().any(|k| k.id == name)
            || [ARG, "deck", "name", MENTIONS, SAME].contains(&name)
    }
}

/// Compiles the rules of one place of a ruleset: a deck type's rules may
/// use its parameters by name; other rules have none.
pub(crate) struct Compiler<'n, 'r> {
    ruleset: &'r Ruleset,
    defs: &'r [Def],
    def_index: &'n HashMap<&'r str, usize>,
    used: &'n RefCell<Vec<bool>>,
    fields: &'n [&'r str],
    text_fields: &'n [&'r str],
    field_values: &'n BTreeMap<&'r str, Vec<&'r str>>,
    number_fields: &'n [&'r str],
    coord_fields: &'n [&'r str],
    tested: &'n RefCell<Vec<(Box<str>, Span)>>,
    params: &'r [DeckParam],
    /// What the rule being compiled sees.
    scope: Cell<Scope>,
    /// The deck type whose rules these are, for the scope inside `every`.
    deck_type: Option<usize>,
    /// The keyword whose arguments `each-arg` goes through, where `arg`
    /// stands for one of them.
    arg_of: Cell<Option<usize>>,
    /// The computed values the rule being compiled is inside, by name, and
    /// whether one of them came back to itself.
    computing: RefCell<Vec<Box<str>>>,
    circular: Cell<bool>,
}

impl<'n, 'r> Compiler<'n, 'r> {
    /// A compiler for the rules of one scope; a deck type's may use its
    /// parameters.
    pub fn new(names: &'n Names<'r>, scope: Scope, deck_type: Option<usize>) -> Self {
        let params = deck_type.and_then(|d| names.ruleset.deck_types.get(d)).map(|d| d.params.as_slice());
        let params = params.unwrap_or_default();
        Compiler {
            ruleset: names.ruleset,
            defs: names.defs,
            def_index: &names.def_index,
            used: &names.used,
            fields: &names.fields,
            text_fields: &names.text_fields,
            field_values: &names.field_values,
            number_fields: &names.number_fields,
            coord_fields: &names.coord_fields,
            tested: &names.tested,
            params,
            scope: Cell::new(scope),
            deck_type,
            arg_of: Cell::new(None),
            computing: RefCell::new(Vec::new()),
            circular: Cell::new(false),
        }
    }

    /// Compiles a rule whose whole value must be of type `want` (a truth for
    /// `require`, a number for `compute`).  `None` when it has a mistake,
    /// each reported.
    pub fn compile(&self, expr: &Expr, want: Ty, diagnostics: &mut Vec<Diagnostic>) -> Option<Compiled> {
        let expanded;
        let expr = if self.defs.is_empty() {
            expr
        } else {
            expanded = Expansion::new(self.defs, self.def_index, self.used).expand(expr, diagnostics)?;
            &expanded
        };
        let root = self.value(expr, diagnostics)?;
        self.expect(root, want, diagnostics).map(|root| Compiled { root })
    }

    /// `node` if it is of type `want`; else a type error at it.
    fn expect(&self, node: Node, want: Ty, diagnostics: &mut Vec<Diagnostic>) -> Option<Node> {
        if node.ty == want {
            return Some(node);
        }
        let help = match (want, node.ty) {
            (Ty::Truth, Ty::Number) => "compare the number: `count(offense) >= 1`",
            (Ty::Number, Ty::Truth) => "a truth is no number; count cards with `count(...)`",
            _ => "see `cardsmith explain E0422` for the types of a rule",
        };
        diagnostics.push(
            Diagnostic::error(&codes::RULE_TYPE, format!("expected {}, found {}", want.describe(), node.ty.describe()))
                .primary(node.span, format!("this is {}", node.ty.describe()))
                .help(help),
        );
        None
    }

    /// A number or a truth, its type told by what it is.
    fn value(&self, expr: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<Node> {
        let span = expr.span();
        match expr {
            Expr::Int(n, _) => Some(Node { op: Op::Int(*n), ty: Ty::Number, span }),
            Expr::Str(..) => {
                diagnostics.push(
                    Diagnostic::error(&codes::RULE_TYPE, "a quoted name is not a value in a rule")
                        .primary(span, "a card's name")
                        .help("count the cards of a name with a filter: `count(name == \"Scout\") <= 1`"),
                );
                None
            }
            Expr::Name(name) if name.text == ARG => self.arg_value(name, diagnostics),
            Expr::Name(name) => match self.params.iter().position(|p| p.name == name.text) {
                Some(i) => Some(Node { op: Op::Param(i, name.text.as_str().into()), ty: Ty::Number, span }),
                None if self.computed(&name.text).is_some() => self.computed_value(name, diagnostics),
                None => {
                    let params = self.params.iter().map(|p| p.name.as_str());
                    diagnostics.push(bare_name(name).suggest(suggest(&name.text, params)));
                    None
                }
            },
            // The node keeps the brackets' span, so a mistake points at them.
            Expr::Group(inner, _) => self.value(inner, diagnostics).map(|node| Node { span, ..node }),
            Expr::Not(inner, _) => {
                let inner = self.value(inner, diagnostics)?;
                let inner = self.expect(inner, Ty::Truth, diagnostics)?;
                Some(Node { op: Op::Not(Box::new(inner)), ty: Ty::Truth, span })
            }
            Expr::Chain { first, rest, .. } => self.chain(first, rest, span, diagnostics),
            Expr::Call { name, args, .. } => self.call(expr, name, args, diagnostics),
        }
    }

    /// The deck type's `compute` line of this name, where the rule is about
    /// that deck type's cards.
    fn computed(&self, name: &str) -> Option<&'r crate::ruleset::model::Constraint> {
        let deck = self.ruleset.deck_types.get(self.deck_type?)?;
        let own = matches!(self.scope.get(), Scope::Deck { .. });
        deck.computed.iter().find(|c| own && c.message == name)
    }

    /// A computed value used by name: its expression, compiled where it
    /// stands.  A mistake in it is reported at its `compute` line; here,
    /// only that the value cannot be read, or that it comes back to itself.
    fn computed_value(&self, name: &Name, diagnostics: &mut Vec<Diagnostic>) -> Option<Node> {
        let computed = self.computed(&name.text)?;
        if self.computing.borrow().iter().any(|c| **c == *name.text) {
            self.circular.set(true);
            return None;
        }
        self.computing.borrow_mut().push(name.text.as_str().into());
        let mut inner = Vec::new();
        let compiled = self.compile(&computed.expr, Ty::Number, &mut inner);
        self.computing.borrow_mut().pop();
        let outermost = self.computing.borrow().is_empty();
        match compiled {
            Some(compiled) => Some(Node { span: name.span, ..compiled.root }),
            None if outermost && self.circular.replace(false) => {
                diagnostics.push(
                    Diagnostic::error(
                        &codes::RULE_TYPE,
                        format!("the computed value `{}` comes back to itself", name.text),
                    )
                    .primary(name.span, "read here")
                    .secondary(computed.span, "its `compute` line, which uses it again, directly or through others")
                    .help("a `compute` line may use other computed values, never itself"),
                );
                None
            }
            None if outermost => {
                diagnostics.push(
                    Diagnostic::error(&codes::RULE_TYPE, format!("the computed value `{}` has a mistake", name.text))
                        .primary(name.span, "read here")
                        .secondary(computed.span, "reported at its `compute` line"),
                );
                None
            }
            None => None,
        }
    }

    /// A run of operators of one precedence.
    fn chain(
        &self,
        first: &Expr,
        rest: &[(BinOp, Expr)],
        span: Span,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Node> {
        let Some((op, _)) = rest.first() else { return self.value(first, diagnostics) };
        match op {
            BinOp::And | BinOp::Or => {
                let operands = std::iter::once(first).chain(rest.iter().map(|(_, e)| e));
                let nodes = self.all_of(operands, Ty::Truth, diagnostics)?;
                let op = if *op == BinOp::And { Op::And(nodes) } else { Op::Or(nodes) };
                Some(Node { op, ty: Ty::Truth, span })
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                let operands = std::iter::once(first).chain(rest.iter().map(|(_, e)| e));
                let mut nodes = self.all_of(operands, Ty::Number, diagnostics)?.into_iter();
                let first = nodes.next()?;
                let rest = rest.iter().map(|(op, _)| arith(*op)).zip(nodes).collect();
                Some(Node { op: Op::Arithmetic(Box::new(first), rest), ty: Ty::Number, span })
            }
            _ => self.comparisons(first, rest, span, diagnostics),
        }
    }

    /// Each operand compiled and of type `want`; all are compiled, so that
    /// every mistake is reported.
    fn all_of<'e>(
        &self,
        operands: impl Iterator<Item = &'e Expr>,
        want: Ty,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Vec<Node>> {
        let mut nodes = Vec::new();
        let mut broken = false;
        for operand in operands {
            match self.value(operand, diagnostics).and_then(|n| self.expect(n, want, diagnostics)) {
                Some(node) => nodes.push(node),
                None => broken = true,
            }
        }
        (!broken).then_some(nodes)
    }

    /// `a == b < c …`: each comparison's truth is the left side of the next;
    /// `==` and `!=` compare two numbers or two truths, the others two
    /// numbers.
    fn comparisons(
        &self,
        first: &Expr,
        rest: &[(BinOp, Expr)],
        span: Span,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Node> {
        let first = self.value(first, diagnostics);
        let mut left = first.as_ref().map(|n| n.ty);
        let mut compiled = Vec::new();
        let mut broken = first.is_none();
        for (op, operand) in rest {
            let cmp = compare(*op);
            let node = self.value(operand, diagnostics);
            match (left, node) {
                (Some(l), Some(node)) if node.ty == l && (l == Ty::Number || matches!(cmp, Cmp::Eq | Cmp::Ne)) => {
                    compiled.push((cmp, node));
                }
                (Some(l), Some(node)) => {
                    diagnostics.push(mismatch(l, op, &node));
                    broken = true;
                }
                _ => broken = true,
            }
            left = Some(Ty::Truth);
        }
        let first = first.filter(|_| !broken)?;
        Some(Node { op: Op::Compare(Box::new(first), compiled), ty: Ty::Truth, span })
    }

    fn call(&self, expr: &Expr, name: &Name, args: &[Expr], diagnostics: &mut Vec<Diagnostic>) -> Option<Node> {
        let Some(function) = Function::named(&name.text) else {
            diagnostics.push(
                Diagnostic::error(&codes::UNKNOWN_RULE_FUNCTION, format!("`{}` is not a rule function", name.text))
                    .primary(name.span, "unknown function")
                    .note(format!("rule functions: {}", FUNCTIONS.join(", ")))
                    .suggest(suggest(
                        &name.text,
                        FUNCTIONS.iter().copied().chain(self.defs.iter().map(|d| d.name.text.as_str())),
                    )),
            );
            return None;
        };
        if let Some(problem) = self.out_of_scope(function) {
            diagnostics.push(
                Diagnostic::error(&codes::RULE_SCOPE, format!("`{}` {problem}", name.text))
                    .primary(name.span, "not in a rule of this place")
                    .help(scope_help(function)),
            );
            return None;
        }
        let signature = function.signature();
        if matches!(function, Function::Every | Function::Some) {
            return self.quantifier(function, expr, args, diagnostics);
        }
        let fixed = signature.fixed.len();
        if args.len() < fixed || (signature.rest.is_none() && args.len() > fixed) {
            let wanted = match signature.rest {
                Some(_) => format!("at least {fixed}"),
                None => fixed.to_string(),
            };
            let at = args.get(fixed).map(Expr::span).unwrap_or(expr.span());
            diagnostics.push(
                Diagnostic::error(
                    &codes::RULE_ARITY,
                    format!("`{}` takes {wanted} argument{}, not {}", name.text, plural(fixed), args.len()),
                )
                .primary(at, if args.len() < fixed { "arguments missing" } else { "one too many" })
                .help(format!("write it like `{}`", signature.example)),
            );
            return None;
        }
        let call = self.arguments(function, args, diagnostics)?;
        let shown = expr.to_string().into_boxed_str();
        Some(Node { op: Op::Call(Box::new(CallNode { call, shown })), ty: signature.result, span: expr.span() })
    }

    /// The typed arguments of a call whose arity is right.
    fn arguments(&self, function: Function, args: &[Expr], diagnostics: &mut Vec<Diagnostic>) -> Option<Call> {
        let field = |i: usize, diagnostics: &mut Vec<Diagnostic>| self.field(&args[i], diagnostics);
        let filters = |from: usize, diagnostics: &mut Vec<Diagnostic>| self.filters(&args[from..], diagnostics);
        let call = match function {
            Function::Count => Call::Count(filters(0, diagnostics)?),
            Function::Distinct => Call::Distinct(filters(0, diagnostics)?),
            Function::Groups => Call::Groups(filters(0, diagnostics)?),
            Function::MaxCopies => Call::MaxCopies(filters(0, diagnostics)?),
            Function::MaxGroups => Call::MaxGroups(filters(0, diagnostics)?),
            Function::Shared => Call::Shared(filters(0, diagnostics)?),
            Function::Removed => Call::Removed(filters(0, diagnostics)?),
            Function::BeyondSource => Call::BeyondSource(filters(0, diagnostics)?),
            Function::Added => Call::Added(filters(0, diagnostics)?),
            Function::Gap => {
                let (first, second) = both(self.filters(&args[..1], diagnostics), filters(1, diagnostics))?;
                Call::Gap(first, second)
            }
            Function::EdgeGap => Call::EdgeGap(filters(0, diagnostics)?),
            Function::QuarterSpread => Call::QuarterSpread(filters(0, diagnostics)?),
            Function::Unplaced => Call::Unplaced(filters(0, diagnostics)?),
            Function::Reach => Call::Reach(self.band_reach(&args[0], diagnostics)?),
            Function::Inside => {
                let (zone, filters) = both(self.deployment(&args[0], diagnostics), filters(1, diagnostics))?;
                Call::Inside(zone, filters)
            }
            Function::All => Call::All(filters(0, diagnostics)?),
            Function::Any => Call::Any(filters(0, diagnostics)?),
            Function::Sum => both(field(0, diagnostics), filters(1, diagnostics)).map(|(f, s)| Call::Sum(f, s))?,
            Function::Min => both(field(0, diagnostics), filters(1, diagnostics)).map(|(f, s)| Call::Min(f, s))?,
            Function::Max => both(field(0, diagnostics), filters(1, diagnostics)).map(|(f, s)| Call::Max(f, s))?,
            Function::Values => {
                both(field(0, diagnostics), filters(1, diagnostics)).map(|(f, s)| Call::Values(f, s))?
            }
            Function::OutOfRange => {
                both(field(0, diagnostics), filters(1, diagnostics)).map(|(f, s)| Call::OutOfRange(f, s))?
            }
            Function::SumRows => {
                let field = field(0, diagnostics)?;
                let names = self.row_names(&field, &args[1..], diagnostics)?;
                Call::SumRows(field, names)
            }
            Function::Subset => {
                let (needs, has) = both(field(0, diagnostics), field(1, diagnostics))?;
                Call::Subset { needs, has, filters: filters(2, diagnostics)? }
            }
            Function::Decks => Call::Decks(self.deck_types(args, diagnostics)?),
            // Compiled by `quantifier`, which reads their deck types first.
            Function::Every | Function::Some => return self.quantified(function, args, diagnostics),
            Function::Value => {
                both(field(0, diagnostics), position(&args[1], diagnostics)).map(|(f, p)| Call::Value(f, p))?
            }
            Function::Numbers => Call::Numbers(field(0, diagnostics)?),
            Function::HexRepeats => Call::HexRepeats(self.coord_fields(args, diagnostics)?),
            Function::HexUnreached => Call::HexUnreached(self.coord_fields(args, diagnostics)?),
            Function::Speeds => Call::Speeds(self.dial_field(&args[0], diagnostics)?),
            Function::Manoeuvres => {
                let field = self.dial_field(&args[0], diagnostics)?;
                let names = self.row_names(&field, &args[1..], diagnostics)?;
                Call::Manoeuvres(field, names)
            }
            Function::Effects => Call::Effects(self.effect_filters(args, diagnostics)?),
            Function::Choices => Call::Choices,
            Function::Rows => both(field(0, diagnostics), filters(1, diagnostics)).map(|(f, s)| Call::Rows(f, s))?,
            Function::EachRow => {
                both(field(0, diagnostics), filters(1, diagnostics)).map(|(f, s)| Call::EachRow(f, s))?
            }
            Function::Args => Call::Args(self.keyword(&args[0], diagnostics)?),
            Function::EachArg => {
                let keyword = self.keyword(&args[0], diagnostics);
                let inner = self.within_arg(keyword, &args[1], diagnostics);
                both(keyword, inner).map(|(k, inner)| Call::EachArg(k, inner))?
            }
        };
        Some(call)
    }

    /// Every argument as a filter; all are compiled, so that every mistake
    /// is reported.
    fn filters(&self, args: &[Expr], diagnostics: &mut Vec<Diagnostic>) -> Option<Filters> {
        let compiled: Vec<Option<Filter>> = args.iter().map(|arg| self.filter(arg, diagnostics)).collect();
        compiled.into_iter().collect()
    }

    /// A filter: a name, a field test, or filters joined by `and`, `or`
    /// and `not`.
    fn filter(&self, arg: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<Filter> {
        match arg {
            Expr::Name(name) => self.named(name, diagnostics),
            Expr::Group(inner, _) => self.filter(inner, diagnostics),
            Expr::Not(inner, _) => self.filter(inner, diagnostics).map(|f| Filter::Not(Box::new(f))),
            Expr::Chain { first, rest, .. } if rest.iter().all(|(op, _)| matches!(op, BinOp::And | BinOp::Or)) => {
                let operands = std::iter::once(&**first).chain(rest.iter().map(|(_, e)| e));
                let compiled: Vec<Option<Filter>> = operands.map(|e| self.filter(e, diagnostics)).collect();
                let compiled: Vec<Filter> = compiled.into_iter().collect::<Option<_>>()?;
                Some(if rest[0].0 == BinOp::And { Filter::And(compiled) } else { Filter::Or(compiled) })
            }
            Expr::Chain { first, rest, span } => match rest.as_slice() {
                [(op @ (BinOp::Eq | BinOp::Ne), value)] if matches!(value.unparen(), Expr::Str(..)) => {
                    self.name_test(first, *op == BinOp::Eq, value, diagnostics)
                }
                [(op @ (BinOp::Eq | BinOp::Ne), value)] if self.keyword_not_field(first).is_some() => {
                    let keyword = self.keyword_not_field(first)?;
                    let value = self.arg_wanted(value, diagnostics)?;
                    Some(Filter::KeywordArg { keyword, value, equal: *op == BinOp::Eq })
                }
                [(op @ (BinOp::Eq | BinOp::Ne), value)] => {
                    let field = self.field(first, diagnostics);
                    let wanted = self.wanted(first, value, diagnostics);
                    let (field, wanted) = both(field, wanted)?;
                    if matches!(wanted, Wanted::Int(_)) {
                        self.compares_numbers(&field, value, diagnostics)?;
                    }
                    Some(Filter::Holds { field, value: wanted, equal: *op == BinOp::Eq })
                }
                [(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), value)] => {
                    let field = self.field(first, diagnostics);
                    let bound = match value.unparen() {
                        Expr::Int(n, _) => Some(*n),
                        _ => {
                            diagnostics.push(
                                Diagnostic::error(&codes::RULE_TYPE, "a field is compared in size with a number")
                                    .primary(value.span(), "expected a number")
                                    .help("`count(cost >= 2)` counts the cards whose cost is 2 or more"),
                            );
                            None
                        }
                    };
                    let (field, bound) = both(field, bound)?;
                    self.compares_numbers(&field, value, diagnostics)?;
                    Some(Filter::Compare { field, cmp: compare(*op), bound })
                }
                _ if rest.iter().all(|(op, _)| op.precedence() == BinOp::Eq.precedence()) => {
                    diagnostics.push(
                        Diagnostic::error(&codes::RULE_TYPE, "a field test compares one field with one value")
                            .primary(*span, "more than one comparison")
                            .help("join field tests with `and` or `or`: `a == x and b >= 2`"),
                    );
                    None
                }
                _ => not_a_filter(arg, diagnostics),
            },
            Expr::Str(..) => {
                diagnostics.push(
                    Diagnostic::error(&codes::RULE_TYPE, "a card's name is tested with `name == \"…\"`")
                        .primary(arg.span(), "a quoted name alone is no filter")
                        .help("write `count(name == \"Scout\")` for the cards named Scout"),
                );
                None
            }
            Expr::Call { name, args, .. } if [MENTIONS, SAYS].contains(&name.text.as_str()) => {
                self.text_filter(&name.text, args, arg, diagnostics)
            }
            Expr::Call { name, args, .. } if name.text == SAME => self.same(args, arg, diagnostics),
            Expr::Int(..) | Expr::Call { .. } => not_a_filter(arg, diagnostics),
        }
    }

    /// `same(FIELD, FILTER)`: the cards whose field shares a value with the
    /// deck's cards that match the filter.
    fn same(&self, args: &[Expr], arg: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<Filter> {
        if let [field, of] = args {
            let (field, of) = (self.field(field, diagnostics), self.filter(of, diagnostics));
            return Some(Filter::Same(field?, Box::new(of?)));
        }
        diagnostics.push(
            Diagnostic::error(&codes::RULE_ARITY, "`same` takes a field, then the filter of the cards to match")
                .primary(arg.span(), "a field, then a filter")
                .help("`sum(influence, not same(faction, identity))`: the cards of another faction than the deck's identity"),
        );
        None
    }

    /// `mentions(text)`, `mentions(text, FILTER)` and `says(text, "words")`:
    /// filters that read a card's text.
    fn text_filter(&self, name: &str, args: &[Expr], arg: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<Filter> {
        // A field that holds no text (a field that is none is reported below).
        let not_text = |field: &&Name| {
            self.fields.contains(&field.text.as_str()) && !self.text_fields.contains(&field.text.as_str())
        };
        if let Some(Expr::Name(field)) = args.first().map(Expr::unparen) {
            if not_text(&field) {
                diagnostics.push(
                    Diagnostic::error(
                        &codes::RULE_TYPE,
                        format!("`{name}` reads a text field, and `{}` holds none", field.text),
                    )
                    .primary(field.span, "not a text field")
                    .help(format!("text fields here: {}", self.text_fields.join(", "))),
                );
                return None;
            }
        }
        let (message, label, help) = match (name, args) {
            (MENTIONS, [field]) => return self.field(field, diagnostics).map(|field| Filter::Mentions(field, None)),
            (MENTIONS, [field, named]) => {
                let field = self.field(field, diagnostics);
                let named = self.filter(named, diagnostics);
                return Some(Filter::Mentions(field?, Some(Box::new(named?))));
            }
            (SAYS, [field, Expr::Str(words, _)]) if super::words(words).next().is_some() => {
                let words = super::words(words).map(|w| w.to_lowercase().into_boxed_str()).collect();
                return self.field(field, diagnostics).map(|field| Filter::Says(field, words));
            }
            (MENTIONS, _) => (
                "`mentions` takes a text field, then an optional filter",
                "a text field, then an optional filter",
                "`count(event and not mentions(text))` counts the events naming no card of the deck",
            ),
            _ => (
                "`says` takes a text field and the quoted words",
                "a text field, then words in quotes",
                "`all(arc != rear or says(text, \"rear arc\"))`",
            ),
        };
        diagnostics.push(Diagnostic::error(&codes::RULE_ARITY, message).primary(arg.span(), label).help(help));
        None
    }

    /// `name == "Scout"`: the cards (or rows) of that name.
    fn name_test(&self, first: &Expr, equal: bool, value: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<Filter> {
        match (first.unparen(), value.unparen()) {
            (Expr::Name(name), Expr::Str(text, span)) if name.text == "name" => {
                self.tested.borrow_mut().push((text.as_str().into(), *span));
                Some(Filter::Name { name: text.as_str().into(), equal })
            }
            _ => {
                diagnostics.push(
                    Diagnostic::error(&codes::RULE_TYPE, "only a card's name is compared with a quoted name")
                        .primary(first.span(), "not `name`")
                        .help("write `name == \"Scout\"`; a field is compared with a value name: `faction == blob`"),
                );
                None
            }
        }
    }

    /// A name as a filter: a kind, tag or keyword first; a field name only
    /// when the name is none of those (a name may be both).
    fn named(&self, name: &Name, diagnostics: &mut Vec<Diagnostic>) -> Option<Filter> {
        let n = name.text.as_str();
        let ruleset = self.ruleset;
        let kind = ruleset.kinds.iter().position(|k| k.id == n);
        let tag = ruleset.tags.iter().position(|t| t.id == n);
        let keyword = ruleset.keywords.iter().position(|k| k.id == n);
        if kind.is_some() || tag.is_some() || keyword.is_some() {
            return Some(Filter::Vocabulary { kind, tag, keyword });
        }
        if self.fields.contains(&n) {
            return Some(Filter::HasField(n.into()));
        }
        let vocabulary = ruleset.kinds.iter().map(|k| k.id.as_str());
        let vocabulary = vocabulary.chain(ruleset.tags.iter().map(|t| t.id.as_str()));
        let vocabulary = vocabulary.chain(ruleset.keywords.iter().map(|k| k.id.as_str()));
        diagnostics.push(unknown_name(
            name,
            "a kind, tag, keyword or field",
            vocabulary.chain(self.fields.iter().copied()),
        ));
        None
    }

    /// A field name.
    fn field(&self, arg: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<Box<str>> {
        match arg.unparen() {
            Expr::Name(name) if self.fields.contains(&name.text.as_str()) => Some(name.text.as_str().into()),
            Expr::Name(name) => {
                diagnostics.push(unknown_name(name, "a field", self.fields.iter().copied()));
                None
            }
            other => not_a(other, Ty::Field, diagnostics),
        }
    }

    /// The field of a dial function: the field a dial of the ruleset reads
    /// its manoeuvres from.
    fn dial_field(&self, arg: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<Box<str>> {
        let field = self.field(arg, diagnostics)?;
        if self.ruleset.dials.iter().any(|d| *d.field == *field) {
            return Some(field);
        }
        diagnostics.push(
            Diagnostic::error(&codes::IMPOSSIBLE_RULE_VALUE, format!("`{field}` is not the field of a dial"))
                .primary(arg.span(), "no dial reads it")
                .help("dial functions read the field a `dial` names (`dial manoeuvres { field move … }`)"),
        );
        None
    }

    /// The fields of a hex function: each a field some declaration of
    /// which holds hex positions (`coord`), or the rule could never count
    /// one.
    fn coord_fields(&self, args: &[Expr], diagnostics: &mut Vec<Diagnostic>) -> Option<Vec<Box<str>>> {
        let mut fields = Vec::new();
        let mut broken = false;
        for arg in args {
            let Some(field) = self.field(arg, diagnostics) else {
                broken = true;
                continue;
            };
            if !self.coord_fields.contains(&&*field) {
                diagnostics.push(
                    Diagnostic::error(&codes::IMPOSSIBLE_RULE_VALUE, format!("`{field}` holds no hex position"))
                        .primary(arg.span(), "never a `coord`")
                        .help(
                            "hex functions read the `coord` fields of the card or block the rule is declared in \
                             (`field green coord+`): for a block's hexes, declare the rule in its shape or field",
                        ),
                );
                broken = true;
            }
            fields.push(field);
        }
        (!broken).then_some(fields)
    }

    /// Whether a field is one a number can be compared with: a field of
    /// no number (initiative steps, text, names without weights) would make
    /// the test never hold, silently.
    fn compares_numbers(&self, field: &str, number: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<()> {
        if field == "this" || self.number_fields.contains(&field) {
            return Some(());
        }
        let written = match number.unparen() {
            Expr::Int(n, _) => n.to_string(),
            _ => "a number".to_string(),
        };
        diagnostics.push(
            Diagnostic::error(
                &codes::IMPOSSIBLE_RULE_VALUE,
                format!("`{field}` holds no number, so comparing it with `{written}` never holds"),
            )
            .primary(number.span(), format!("`{field}` is never a number"))
            .help(
                "compare numbers with fields of `int`, `signed`, `decimal` or `distance`, or of an enum with weights",
            ),
        );
        None
    }

    /// What `field == value` wants: a name the field can hold (or `deck`,
    /// the deck's own symbol), or a number.
    fn wanted(&self, field: &Expr, value: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<Wanted> {
        match value.unparen() {
            Expr::Int(n, _) => Some(Wanted::Int(*n)),
            Expr::Name(name) if name.text == "deck" => Some(Wanted::DeckOwn),
            Expr::Name(name) if name.text == ARG => match self.arg_of.get() {
                Some(_) => Some(Wanted::Arg),
                None => {
                    diagnostics.push(arg_outside_each_arg(name));
                    None
                }
            },
            Expr::Name(name) => {
                let field = match field.unparen() {
                    Expr::Name(field) => field.text.as_str(),
                    _ => "",
                };
                self.field_can_hold(field, name, diagnostics).then(|| Wanted::Name(name.text.as_str().into()))
            }
            other => {
                diagnostics.push(
                    Diagnostic::error(&codes::RULE_TYPE, "a field test compares with a name or a number")
                        .primary(other.span(), "expected a name or a number"),
                );
                None
            }
        }
    }

    /// Whether `value` is a name `field` can hold, when the ruleset declares
    /// them all; if not, reported.
    fn field_can_hold(&self, field: &str, value: &Name, diagnostics: &mut Vec<Diagnostic>) -> bool {
        let Some(allowed) = self.field_values.get(field) else { return true };
        if allowed.contains(&value.text.as_str()) {
            return true;
        }
        if allowed.is_empty() {
            diagnostics.push(
                Diagnostic::error(
                    &codes::IMPOSSIBLE_RULE_VALUE,
                    format!("`{field}` holds no names, so a test for `{}` never holds", value.text),
                )
                .primary(value.span, format!("`{field}` holds numbers or nothing"))
                .help(format!("compare it with a number: `{field} == 2`, `{field} >= 2`")),
            );
            return false;
        }
        diagnostics.push(
            Diagnostic::error(
                &codes::IMPOSSIBLE_RULE_VALUE,
                format!("`{}` is not a value `{field}` can hold, so this test never holds", value.text),
            )
            .primary(value.span, format!("`{field}` holds one of: {}", allowed.join(", ")))
            .suggest(suggest(&value.text, allowed.iter().copied())),
        );
        false
    }

    /// The names `sum-rows` looks for in the rows of `field`.
    fn row_names(&self, field: &str, args: &[Expr], diagnostics: &mut Vec<Diagnostic>) -> Option<Vec<Box<str>>> {
        let mut names = Vec::new();
        let mut broken = false;
        for arg in args {
            match arg.unparen() {
                Expr::Name(name) if self.field_can_hold(field, name, diagnostics) => {
                    names.push(name.text.as_str().into());
                }
                Expr::Name(_) => broken = true,
                other => broken |= not_a::<()>(other, Ty::Name, diagnostics).is_none(),
            }
        }
        (!broken).then_some(names)
    }

    /// How far a range band reaches (`reach(r1)`): its upper bound; a band
    /// with none (`15+`) reaches no distance a rule could compare.
    fn band_reach(&self, arg: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<i64> {
        let bands = &self.ruleset.ranges;
        let at = named_index(arg, "a range band", bands.iter().map(|b| b.id.as_str()), Ty::Name, diagnostics)?;
        let band = bands.get(at)?;
        if band.high.is_none() {
            diagnostics.push(
                Diagnostic::error(&codes::IMPOSSIBLE_RULE_VALUE, format!("range band `{}` has no end", band.id))
                    .primary(arg.span(), format!("`{}` runs on from {}", band.id, band.low))
                    .help("compare with the band's start instead, as a number, or name a band with an end"),
            );
        }
        band.high
    }

    /// A deployment zone of the game's table, by its index.
    fn deployment(&self, arg: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<usize> {
        let zones = self.ruleset.table.as_ref().map(|t| t.deployments.as_slice()).unwrap_or_default();
        named_index(arg, "a deployment zone", zones.iter().map(|z| z.id.as_str()), Ty::Name, diagnostics)
    }

    /// Deck type names, by their index in the ruleset.
    fn deck_types(&self, args: &[Expr], diagnostics: &mut Vec<Diagnostic>) -> Option<Vec<usize>> {
        let types = &self.ruleset.deck_types;
        let mut found = Vec::new();
        let mut broken = false;
        for arg in args {
            match arg.unparen() {
                Expr::Name(name) => match types.iter().position(|d| d.id == name.text) {
                    Some(i) => found.push(i),
                    None => {
                        diagnostics.push(unknown_name(name, "a deck type", types.iter().map(|d| d.id.as_str())));
                        broken = true;
                    }
                },
                other => broken |= not_a::<()>(other, Ty::DeckType, diagnostics).is_none(),
            }
        }
        (!broken).then_some(found)
    }
}

/// What a rule sees: one card, a deck, or one player's plays.
impl Compiler<'_, '_> {
    /// Why `function` means nothing where the rule is declared, if it does
    /// not.
    fn out_of_scope(&self, function: Function) -> Option<String> {
        let scope = self.scope.get();
        match function {
            Function::Value
            | Function::Numbers
            | Function::HexRepeats
            | Function::HexUnreached
            | Function::Speeds
            | Function::Manoeuvres
                if scope != Scope::Card =>
            {
                Some("reads the one card a kind's rule is about, and this rule is about many".to_string())
            }
            Function::Decks | Function::Every | Function::Some | Function::Shared => match scope {
                Scope::Deck { includes: true, .. } => None,
                Scope::Deck { includes: false, .. } => {
                    Some("looks into included decks, and decks of this type include none".to_string())
                }
                Scope::Card | Scope::Play => Some("looks into the decks a deck includes".to_string()),
            },
            Function::Removed | Function::Added | Function::BeyondSource => match scope {
                Scope::Deck { based_on: true, .. } => None,
                Scope::Deck { based_on: false, .. } => Some(
                    "compares with the deck this one is based on, and decks of this type name none (`based-on TYPE`)"
                        .to_string(),
                ),
                Scope::Card | Scope::Play => Some("compares a deck with the deck it is based on".to_string()),
            },
            Function::Gap | Function::EdgeGap | Function::QuarterSpread | Function::Inside | Function::Unplaced
                if !matches!(scope, Scope::Deck { .. }) =>
            {
                Some(
                    "measures the pieces a deck places on the table (`at 12,20`), and this rule is not a deck's"
                        .to_string(),
                )
            }
            _ => None,
        }
    }

    /// `every(TYPE…, RULE)`, `some(TYPE…, RULE)`: the included decks of
    /// those types (of any, when none is named) and the rule.
    fn quantifier(&self, function: Function, expr: &Expr, args: &[Expr], d: &mut Vec<Diagnostic>) -> Option<Node> {
        let Expr::Call { name, .. } = expr else { return None };
        if args.is_empty() {
            d.push(
                Diagnostic::error(&codes::RULE_ARITY, format!("`{}` takes a rule, after any deck types", name.text))
                    .primary(expr.span(), "the rule is missing")
                    .help(format!("write it like `{}`", function.signature().example)),
            );
            return None;
        }
        let call = self.quantified(function, args, d)?;
        let shown = expr.to_string().into_boxed_str();
        Some(Node { op: Op::Call(Box::new(CallNode { call, shown })), ty: Ty::Truth, span: expr.span() })
    }

    /// The call of `every` or `some` with at least one argument.
    fn quantified(&self, function: Function, args: &[Expr], d: &mut Vec<Diagnostic>) -> Option<Call> {
        let (rule, types) = args.split_last()?;
        let types = self.deck_types(types, d);
        let inner = self.within_included(rule, d);
        let (types, inner) = both(types, inner)?;
        Some(if function == Function::Every { Call::Every(types, inner) } else { Call::Some(types, inner) })
    }

    /// The rule of `every` or `some`, seen from inside each included deck.
    fn within_included(&self, rule: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<Node> {
        let ruleset = self.ruleset;
        let included = self.deck_type.and_then(|d| ruleset.deck_types.get(d)).map(|d| d.includes.as_slice());
        // Decks of an included type may include decks of their own.
        let deeper = included.unwrap_or_default().iter().filter_map(|t| ruleset.deck_type(t));
        let includes = included.is_none() || deeper.into_iter().any(|t| !t.includes.is_empty());
        let inner = Scope::Deck { includes, based_on: false };
        let outer = self.scope.replace(inner);
        let node = self.value(rule, diagnostics).and_then(|n| self.expect(n, Ty::Truth, diagnostics));
        self.scope.set(outer);
        node
    }
}

fn scope_help(function: Function) -> &'static str {
    match function {
        Function::Value | Function::Numbers => "over a deck's cards, add numbers up with `sum(FIELD, ...)`",
        Function::HexRepeats | Function::HexUnreached => {
            "declare the rule in the kind, shape or field whose hexes it reads"
        }
        Function::Gap | Function::EdgeGap | Function::QuarterSpread | Function::Inside | Function::Unplaced => {
            "declare the rule in the deck type whose decks place the pieces (`deck-type scenario { … }`)"
        }
        Function::Speeds | Function::Manoeuvres => "declare the rule in the kind whose dial it reads",
        Function::Removed | Function::Added | Function::BeyondSource => {
            "a deck type built from another by changing cards says so: `based-on offense`"
        }
        _ => "a deck type that `includes` others may count them (`decks(...)`) and look into each (`every(...)`)",
    }
}

/// The name that stands for the argument `each-arg` is at.
const ARG: &str = "arg";

/// The parts of a card: effect lines, keyword arguments.
impl Compiler<'_, '_> {
    /// A keyword's name, by its index in the ruleset.
    fn keyword(&self, arg: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<usize> {
        let ids = self.ruleset.keywords.iter().map(|k| k.id.as_str());
        named_index(arg, "a keyword", ids, Ty::Keyword, diagnostics)
    }

    /// A keyword's index, when the name is a keyword and no field: a field
    /// test (`launch == fighters`) is read first.
    fn keyword_not_field(&self, arg: &Expr) -> Option<usize> {
        match arg.unparen() {
            Expr::Name(name) if !self.fields.contains(&name.text.as_str()) => {
                self.ruleset.keywords.iter().position(|k| k.id == name.text)
            }
            _ => None,
        }
    }

    /// What `KEYWORD == value` wants: a number, or `arg` inside `each-arg`.
    fn arg_wanted(&self, value: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<ArgWanted> {
        match value.unparen() {
            Expr::Int(n, _) => Some(ArgWanted::Int(*n)),
            Expr::Name(name) if name.text == ARG && self.arg_of.get().is_some() => Some(ArgWanted::Arg),
            Expr::Name(name) if name.text == ARG => {
                self.arg_value(name, diagnostics)?;
                None
            }
            other => {
                diagnostics.push(
                    Diagnostic::error(&codes::RULE_TYPE, "a keyword is tested by its argument: a number or `arg`")
                        .primary(other.span(), "expected a number or `arg`")
                        .help("`rows(weapon, link == 1)` counts the rows carrying `link(1)`"),
                );
                None
            }
        }
    }

    /// `each-arg`'s rule, where `arg` stands for an argument of `keyword`.
    fn within_arg(&self, keyword: Option<usize>, rule: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<Node> {
        let outer = self.arg_of.replace(keyword);
        let inner = self.value(rule, diagnostics).and_then(|n| self.expect(n, Ty::Truth, diagnostics));
        self.arg_of.set(outer);
        inner
    }

    /// `arg` as a number: inside `each-arg`, of a keyword whose arguments
    /// are numbers.
    fn arg_value(&self, name: &Name, diagnostics: &mut Vec<Diagnostic>) -> Option<Node> {
        let keyword = self.arg_of.get().and_then(|k| self.ruleset.keywords.get(k));
        let numeric = |ty: &Type| matches!(ty, Type::Int | Type::Signed);
        match keyword {
            Some(k) if !k.params.is_empty() && k.params.iter().all(|p| numeric(&p.ty.ty)) => {
                Some(Node { op: Op::Arg, ty: Ty::Number, span: name.span })
            }
            Some(k) => {
                diagnostics.push(
                    Diagnostic::error(&codes::RULE_TYPE, format!("the arguments of `{}` are not numbers", k.id))
                        .primary(name.span, "not a number")
                        .help("test a name in an effect filter: `effects(symbol == arg) >= 1`"),
                );
                None
            }
            None => {
                diagnostics.push(arg_outside_each_arg(name));
                None
            }
        }
    }

    /// Every argument as an effect filter.
    fn effect_filters(&self, args: &[Expr], diagnostics: &mut Vec<Diagnostic>) -> Option<Vec<EffectFilter>> {
        let compiled: Vec<Option<EffectFilter>> = args.iter().map(|a| self.effect_filter(a, diagnostics)).collect();
        compiled.into_iter().collect()
    }

    /// An effect filter: a role or symbol, `role == R`, `symbol == S`,
    /// `amount >= N`, or filters joined by `and`, `or` and `not`.
    fn effect_filter(&self, arg: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<EffectFilter> {
        match arg {
            Expr::Name(name) => self.role_or_symbol(name, true, true, diagnostics),
            Expr::Group(inner, _) => self.effect_filter(inner, diagnostics),
            Expr::Not(inner, _) => self.effect_filter(inner, diagnostics).map(|f| EffectFilter::Not(Box::new(f))),
            Expr::Chain { first, rest, .. } if rest.iter().all(|(op, _)| matches!(op, BinOp::And | BinOp::Or)) => {
                let operands = std::iter::once(&**first).chain(rest.iter().map(|(_, e)| e));
                let compiled: Vec<Option<EffectFilter>> =
                    operands.map(|e| self.effect_filter(e, diagnostics)).collect();
                let compiled: Vec<EffectFilter> = compiled.into_iter().collect::<Option<_>>()?;
                Some(if rest[0].0 == BinOp::And { EffectFilter::And(compiled) } else { EffectFilter::Or(compiled) })
            }
            Expr::Chain { first, rest, .. } => match (first.unparen(), rest.as_slice()) {
                (Expr::Name(part), [(op, value)]) => self.effect_test(part, *op, value, diagnostics),
                _ => not_an_effect_filter(arg, diagnostics),
            },
            Expr::Int(..) | Expr::Str(..) | Expr::Call { .. } => not_an_effect_filter(arg, diagnostics),
        }
    }

    /// `role == R`, `symbol != S`, `amount >= N`.
    fn effect_test(&self, part: &Name, op: BinOp, value: &Expr, d: &mut Vec<Diagnostic>) -> Option<EffectFilter> {
        let equal = match op {
            BinOp::Eq => Some(true),
            BinOp::Ne => Some(false),
            _ => None,
        };
        let in_each_arg = self.arg_of.get().is_some();
        let tested = match (part.text.as_str(), equal, value.unparen()) {
            ("amount", _, Expr::Int(n, _)) if op.precedence() == BinOp::Eq.precedence() => {
                return Some(EffectFilter::Amount(compare(op), *n));
            }
            ("role", Some(_), Expr::Name(v)) if v.text == ARG && in_each_arg => EffectFilter::RoleIsArg,
            ("symbol", Some(_), Expr::Name(v)) if v.text == ARG && in_each_arg => EffectFilter::SymbolIsArg,
            ("role", Some(_), Expr::Name(v)) => self.role_or_symbol(v, true, false, d)?,
            ("symbol", Some(_), Expr::Name(v)) => self.role_or_symbol(v, false, true, d)?,
            ("plus", Some(_), Expr::Name(v)) => EffectFilter::Plus(plus_mark(v, d)?),
            _ => {
                d.push(
                    Diagnostic::error(
                        &codes::RULE_TYPE,
                        "an effect line is tested by its role, symbol, amount or plus",
                    )
                    .primary(part.span.to(value.span()).unwrap_or(part.span), "not an effect test")
                    .help("write `role == cost`, `symbol != damage`, `amount >= 3` or `plus == after`"),
                );
                return None;
            }
        };
        Some(if equal == Some(false) { EffectFilter::Not(Box::new(tested)) } else { tested })
    }

    /// A role or a symbol (as the caller allows) by its name.
    fn role_or_symbol(&self, name: &Name, roles: bool, symbols: bool, d: &mut Vec<Diagnostic>) -> Option<EffectFilter> {
        let ruleset = self.ruleset;
        let role = ruleset.roles.iter().position(|r| r.id == name.text).filter(|_| roles);
        let symbol = ruleset.symbols.iter().position(|s| s.id == name.text).filter(|_| symbols);
        if role.is_some() || symbol.is_some() {
            return Some(EffectFilter::Named { role, symbol });
        }
        let role_names = ruleset.roles.iter().map(|r| r.id.as_str()).filter(|_| roles);
        let symbol_names = ruleset.symbols.iter().map(|s| s.id.as_str()).filter(|_| symbols);
        let what = match (roles, symbols) {
            (true, true) => "a role or symbol",
            (true, false) => "a role",
            _ => "a symbol",
        };
        d.push(unknown_name(name, what, role_names.chain(symbol_names)));
        None
    }
}

/// `after` (`8+`), `before` (`+2`) or `none`: where an amount's `+` is.
fn plus_mark(name: &Name, diagnostics: &mut Vec<Diagnostic>) -> Option<Plus> {
    const MARKS: [(&str, Plus); 3] = [("none", Plus::None), ("after", Plus::After), ("before", Plus::Before)];
    if let Some((_, plus)) = MARKS.iter().find(|(word, _)| *word == name.text) {
        return Some(*plus);
    }
    diagnostics.push(
        Diagnostic::error(
            &codes::IMPOSSIBLE_RULE_VALUE,
            format!("`{}` is not where an amount's `+` can be, so this test never holds", name.text),
        )
        .primary(name.span, "`plus` is one of: none, after, before")
        .suggest(suggest(&name.text, MARKS.iter().map(|(word, _)| *word))),
    );
    None
}

fn not_an_effect_filter<T>(arg: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<T> {
    diagnostics.push(
        Diagnostic::error(&codes::RULE_TYPE, "expected an effect filter: a role or symbol, or `role == cost`")
            .primary(arg.span(), "not an effect filter")
            .help("effect lines are tested by `role`, `symbol` and `amount`: `effects(role == cost) <= 1`"),
    );
    None
}

/// Both halves, when neither has a mistake.
fn both<A, B>(a: Option<A>, b: Option<B>) -> Option<(A, B)> {
    Some((a?, b?))
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `value(FIELD, N)`: a position from 1, written as a number.
fn position(arg: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<usize> {
    match arg.unparen() {
        Expr::Int(n, _) if *n >= 1 => usize::try_from(*n).ok(),
        _ => {
            diagnostics.push(
                Diagnostic::error(&codes::RULE_TYPE, "`value` takes a field and a position from 1")
                    .primary(arg.span(), "expected a position such as `1`"),
            );
            None
        }
    }
}

fn arith(op: BinOp) -> Arith {
    match op {
        BinOp::Sub => Arith::Sub,
        BinOp::Mul => Arith::Mul,
        BinOp::Div => Arith::Div,
        _ => Arith::Add,
    }
}

fn compare(op: BinOp) -> Cmp {
    match op {
        BinOp::Ne => Cmp::Ne,
        BinOp::Lt => Cmp::Lt,
        BinOp::Le => Cmp::Le,
        BinOp::Gt => Cmp::Gt,
        BinOp::Ge => Cmp::Ge,
        _ => Cmp::Eq,
    }
}

/// A comparison of two values of types it cannot compare.
fn mismatch(left: Ty, op: &BinOp, right: &Node) -> Diagnostic {
    let message = if left == right.ty {
        format!("`{}` compares numbers, not truths", op.symbol())
    } else {
        format!("`{}` compares {} with {}", op.symbol(), left.describe(), right.ty.describe())
    };
    Diagnostic::error(&codes::RULE_TYPE, message)
        .primary(right.span, format!("this is {}", right.ty.describe()))
        .help("a comparison gives a truth: `count(a) == 2 and count(b) == 0` rather than `count(a) == 2 == 0`")
}

/// A name standing where a number or truth must.
fn bare_name(name: &Name) -> Diagnostic {
    Diagnostic::error(&codes::RULE_TYPE, format!("`{}` is not a value in a rule", name.text))
        .primary(name.span, "expected a number or a function such as `count(offense)`")
        .help(format!(
            "count the cards it matches with `count({0})`; in a kind's rule, `all({0})` requires it of the card",
            name.text
        ))
}

/// The index among `ids` of the declaration `arg` names; a name that is
/// none is reported with the closest, and another expression as not a `ty`.
fn named_index<'a>(
    arg: &Expr,
    what: &str,
    ids: impl Iterator<Item = &'a str> + Clone,
    ty: Ty,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let Expr::Name(name) = arg.unparen() else { return not_a(arg.unparen(), ty, diagnostics) };
    let found = ids.clone().position(|id| id == name.text);
    if found.is_none() {
        diagnostics.push(unknown_name(name, what, ids));
    }
    found
}

fn unknown_name<'a>(name: &Name, what: &str, candidates: impl Iterator<Item = &'a str>) -> Diagnostic {
    Diagnostic::error(&codes::UNKNOWN_RULE_NAME, format!("`{}` is not {what} of this ruleset", name.text))
        .primary(name.span, format!("expected {what}"))
        .suggest(suggest(&name.text, candidates))
}

/// An argument of the wrong type.
fn not_a<T>(arg: &Expr, want: Ty, diagnostics: &mut Vec<Diagnostic>) -> Option<T> {
    diagnostics.push(
        Diagnostic::error(&codes::RULE_TYPE, format!("expected {} here", want.describe()))
            .primary(arg.span(), format!("not {}", want.describe())),
    );
    None
}

fn not_a_filter<T>(arg: &Expr, diagnostics: &mut Vec<Diagnostic>) -> Option<T> {
    diagnostics.push(
        Diagnostic::error(&codes::RULE_TYPE, "expected a filter: a kind, tag or keyword, or `field == value`")
            .primary(arg.span(), "not a filter"),
    );
    None
}

/// The filter that reads the card names a text mentions.
const MENTIONS: &str = "mentions";

/// The filter that reads the words of a text.
const SAYS: &str = "says";
/// The filter of cards sharing a field's value with some of the deck's.
const SAME: &str = "same";

/// Whether a field holds text (the fields `says` and `mentions` read).
fn holds_text(field: &crate::ruleset::model::FieldDef) -> bool {
    field.schema.takes.iter().any(|t| t.ty == Type::Text)
}

/// `arg` where no `each-arg` gives it a meaning.
fn arg_outside_each_arg(name: &Name) -> Diagnostic {
    Diagnostic::error(&codes::RULE_TYPE, "`arg` stands for a keyword's argument only inside `each-arg`")
        .primary(name.span, "outside `each-arg`")
        .help("write `each-arg(KEYWORD, RULE)` and use `arg` in the rule")
}

/// The fields some declaration of which holds a number a rule compares:
/// whole numbers, decimals and distances (by their whole part), and enum
/// values with weights.
fn number_fields(ruleset: &Ruleset) -> Vec<&str> {
    fields_taking(ruleset, |ty| match ty {
        Type::Int | Type::Signed | Type::Decimal | Type::Distance => true,
        Type::Enum(id) => ruleset.enums.iter().any(|e| e.id == *id && !e.weights.is_empty()),
        _ => false,
    })
}

/// The fields some declaration of which takes a value of a type `wanted`
/// accepts, in any kind, shape or block.
fn fields_taking(ruleset: &Ruleset, wanted: impl Fn(&Type) -> bool) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    let mut schemas: Vec<&Schema> = ruleset.kinds.iter().map(|k| &k.schema).collect();
    schemas.extend(ruleset.shapes.iter().map(|(_, s)| s));
    while let Some(schema) = schemas.pop() {
        for field in &schema.fields {
            schemas.push(&field.schema);
            if field.schema.takes.iter().any(|t| wanted(&t.ty)) {
                names.push(&field.name);
            }
        }
    }
    names.sort_unstable();
    names.dedup();
    names
}

/// The names each field may hold, for the fields whose every declaration
/// takes only declared names or numbers (see [`Names::field_values`]); a
/// field of numbers, or of no value, holds none.
fn field_values(ruleset: &Ruleset) -> BTreeMap<&str, Vec<&str>> {
    let mut declared: BTreeMap<&str, Option<Vec<&str>>> = BTreeMap::new();
    let mut schemas: Vec<&Schema> = ruleset.kinds.iter().map(|k| &k.schema).collect();
    schemas.extend(ruleset.shapes.iter().map(|(_, s)| s));
    while let Some(schema) = schemas.pop() {
        for field in &schema.fields {
            schemas.push(&field.schema);
            let shape = field.schema.shape.as_deref().and_then(|s| ruleset.shape(s)).unwrap_or(&field.schema);
            let names = shape.takes.iter().map(|t| declared_names(ruleset, &t.ty)).collect::<Option<Vec<_>>>();
            let names = names.map(|lists| lists.concat());
            let entry = declared.entry(field.name.as_str()).or_insert_with(|| Some(Vec::new()));
            match (entry.as_mut(), names) {
                (Some(all), Some(names)) => all.extend(names),
                _ => *entry = None,
            }
        }
    }
    declared
        .into_iter()
        .filter_map(|(field, names)| {
            let mut names = names?;
            names.sort_unstable();
            names.dedup();
            Some((field, names))
        })
        .collect()
}

/// Every name a value of this type can be, when the ruleset declares them
/// all (none for a number); `None` for text and names the ruleset does not
/// list.
fn declared_names<'r>(ruleset: &'r Ruleset, ty: &Type) -> Option<Vec<&'r str>> {
    let ids = |named: &'r [crate::ruleset::model::Named]| Some(named.iter().map(|n| n.id.as_str()).collect());
    match ty {
        Type::Enum(id) | Type::Set(id) => {
            ruleset.enums.iter().find(|e| &e.id == id).map(|e| e.values.iter().map(String::as_str).collect())
        }
        Type::Symbol => ids(&ruleset.symbols),
        Type::Arc => ids(&ruleset.arcs),
        Type::RangeBand => Some(ruleset.ranges.iter().map(|b| b.id.as_str()).collect()),
        Type::DeckSymbol => Some(ruleset.deck_symbols.iter().map(|d| d.id.as_str()).collect()),
        Type::Kind => Some(ruleset.kinds.iter().map(|k| k.id.as_str()).collect()),
        Type::Tag => Some(ruleset.tags.iter().map(|t| t.id.as_str()).collect()),
        Type::Int | Type::Signed | Type::Decimal | Type::Distance => Some(Vec::new()),
        _ => None,
    }
}

/// Every field name the ruleset declares, at any depth, of the fields that
/// are `wanted`.
fn field_names(ruleset: &Ruleset, wanted: fn(&crate::ruleset::model::FieldDef) -> bool) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    let mut schemas: Vec<&Schema> = ruleset.kinds.iter().map(|k| &k.schema).collect();
    schemas.extend(ruleset.shapes.iter().map(|(_, s)| s));
    while let Some(schema) = schemas.pop() {
        for field in &schema.fields {
            if wanted(field) {
                names.push(&field.name);
            }
            schemas.push(&field.schema);
        }
    }
    names.sort();
    names.dedup();
    names
}
