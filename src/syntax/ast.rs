//! The syntax tree: what the user wrote, with spans, before any meaning is
//! given to it.  Ruleset and content files share it.

use crate::source::Span;
use std::sync::Arc;

/// One parsed file.
#[derive(Clone, Debug, Default)]
pub struct SourceTree {
    pub nodes: Vec<Node>,
    /// Every `// comment`, in source order, so the formatter can keep them.
    pub comments: Vec<Span>,
    /// The names given by items that did not parse (`offense "Name"` heads
    /// found in their text), so that later stages raise no follow-on errors
    /// about them: the syntax error is the one report.
    pub unparsed_names: Vec<String>,
    /// Items whose head did not read, as far as they were read: what they
    /// declare for other cards (a deck keyword) is still known, so that the
    /// one syntax error is not followed by errors at the cards that use it.
    pub lost_nodes: Vec<Node>,
}

impl SourceTree {
    /// The tree without its spans, as text: two trees mean the same when
    /// their shapes are equal.  `text` is the file the tree was read from
    /// (a rule's expression is compared as written, single-spaced).
    pub fn shape(&self, text: &str) -> String {
        let mut out = String::new();
        // Nodes to print, innermost last; `None` closes a block.
        let mut stack: Vec<Option<&Node>> = self.nodes.iter().rev().map(Some).collect();
        while let Some(entry) = stack.pop() {
            let Some(node) = entry else {
                out.push_str("};");
                continue;
            };
            out.push_str(&node.name.text);
            for value in &node.values {
                out.push('|');
                value_shape(&value.kind, &mut out);
            }
            if let Some(expr) = &node.expr {
                out.push('|');
                out.push_str(&single_spaced(text.get(expr.span().range()).unwrap_or("")));
            }
            match &node.block {
                Some(block) => {
                    out.push('{');
                    stack.push(None);
                    stack.extend(block.nodes.iter().rev().map(Some));
                }
                None => out.push(';'),
            }
        }
        out
    }
}

/// A value without spans (calls carry the spans of their arguments).
fn value_shape(kind: &ValueKind, out: &mut String) {
    match kind {
        ValueKind::Call { name, args } => {
            out.push_str(&name.text);
            out.push('(');
            for arg in args {
                value_shape(&arg.kind, out);
                out.push(',');
            }
            out.push(')');
        }
        other => out.push_str(&format!("{other:?}")),
    }
}

/// `name value* { block }`, or a constraint `require "message" expression`.
#[derive(Clone, Debug)]
pub struct Node {
    pub name: Name,
    pub values: Vec<Value>,
    pub block: Option<Block>,
    /// The expression of a `require`, `recommend` or `play-limit` node,
    /// shared with the ruleset that holds it as a rule.
    pub expr: Option<Arc<Expr>>,
    pub span: Span,
}

impl Node {
    /// The span of the node's head: its name and values, without the block.
    pub fn head_span(&self) -> Span {
        let end = self.values.last().map(|v| v.span).unwrap_or(self.name.span);
        self.name.span.to(end).unwrap_or(self.name.span)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub nodes: Vec<Node>,
    pub span: Span,
    /// Whether a line of the block, or of a block inside it, had a syntax
    /// error and is missing from `nodes`: rules about the whole would judge
    /// what is left.
    pub broken: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    pub kind: ValueKind,
    pub span: Span,
}

/// A decimal number kept exactly: `units / 10^scale` (`5.9` is 59 and 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decimal {
    pub units: i64,
    pub scale: u8,
}

impl Decimal {
    /// The value in tenths, when it has at most one decimal place.
    pub fn tenths(self) -> Option<i64> {
        match self.scale {
            0 => self.units.checked_mul(10),
            1 => Some(self.units),
            _ => None,
        }
    }
}

impl std::fmt::Display for Decimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.scale == 0 {
            return write!(f, "{}", self.units);
        }
        let pow = 10i64.pow(self.scale as u32);
        let sign = if self.units < 0 { "-" } else { "" };
        let abs = self.units.abs();
        write!(f, "{sign}{}.{:0width$}", abs / pow, abs % pow, width = self.scale as usize)
    }
}

/// The lexical form of a value.  The checker gives it a type.
#[derive(Clone, Debug, PartialEq)]
pub enum ValueKind {
    /// `"text"`, with escapes resolved.
    String(String),
    /// `8`
    Int(i64),
    /// `+2`, `-1`
    Signed(i64),
    /// `8+`: a number with a `+` after it.
    PlusAfter(i64),
    /// `5.9`
    Decimal(Decimal),
    /// `6"`
    Distance(Decimal),
    /// `3+/4+`
    SavePair(i64, i64),
    /// `D6+4`, `2D6`, `D3`
    Dice { count: i64, sides: i64, modifier: i64 },
    /// `0,-2`: a hex offset.
    Coord(i64, i64),
    /// `0..3`, `11..`, `1-3`
    Range { low: i64, high: Option<i64> },
    /// `F/S/R`, `F/S(R)`, `C/B`: each item as written.
    SlashList(Vec<String>),
    /// `long..`, `close..medium`
    BandRange { from: String, to: Option<String> },
    /// `x3`: a copy count.
    Copies(i64),
    /// `*`
    Star,
    /// `narrow`, `X`
    Ident(String),
    /// A token that matches no literal form.
    Word(String),
    /// A literal whose mistake the parser already reported (a number too
    /// large): later stages accept it without a word, so one mistake is
    /// reported once.
    Invalid,
    /// `unstoppable(damage, push)`
    Call { name: Name, args: Vec<Value> },
}

impl ValueKind {
    /// How a person would call this form, for "expected …, found …".
    pub fn describe(&self) -> &'static str {
        match self {
            ValueKind::String(_) => "a quoted string",
            ValueKind::Int(_) => "a whole number",
            ValueKind::Signed(_) => "a signed number",
            ValueKind::PlusAfter(_) => "a number with `+` after it",
            ValueKind::Decimal(_) => "a decimal number",
            ValueKind::Distance(_) => "a distance in inches",
            ValueKind::SavePair(..) => "a pair of saves",
            ValueKind::Dice { .. } => "a dice roll",
            ValueKind::Coord(..) => "a hex offset",
            ValueKind::Range { .. } => "a number range",
            ValueKind::SlashList(_) => "a set of several values",
            ValueKind::BandRange { .. } => "a range of bands",
            ValueKind::Copies(_) => "a copy count",
            ValueKind::Star => "`*`",
            ValueKind::Ident(_) => "a name",
            ValueKind::Word(_) => "a word",
            ValueKind::Invalid => "a value with a mistake",
            ValueKind::Call { .. } => "a call",
        }
    }
}

/// An expression of a construction rule.
///
/// A run of operators of one precedence (`a + b - c`, `x and y and z`) is one
/// [`Expr::Chain`], however long, so the tree is only as deep as brackets,
/// calls and `not` nest; the reader bounds that nesting
/// ([`MAX_EXPR_DEPTH`]), so every walk over an expression may recurse.
#[derive(Clone, Debug)]
pub enum Expr {
    Int(i64, Span),
    Name(Name),
    /// `"Scout"`: a quoted name, with `\"` and `\\` resolved.
    Str(String, Span),
    Call {
        name: Name,
        args: Vec<Expr>,
        span: Span,
    },
    Not(Box<Expr>, Span),
    /// `( … )`, kept so that a rule prints back as it was written.
    Group(Box<Expr>, Span),
    /// `first op operand op operand …`: operators of one precedence, applied
    /// from left to right.
    Chain {
        first: Box<Expr>,
        rest: Vec<(BinOp, Expr)>,
        span: Span,
    },
}

/// How deeply brackets, calls and `not` may nest in an expression, and calls
/// in a value (`name(a, b)`).  Rules nest three or four levels; the limit
/// keeps every recursive walk far from the stack's end.
pub const MAX_EXPR_DEPTH: usize = 32;

impl Expr {
    pub fn span(&self) -> Span {
        match self {
            Expr::Int(_, span) | Expr::Str(_, span) | Expr::Not(_, span) | Expr::Group(_, span) => *span,
            Expr::Name(name) => name.span,
            Expr::Call { span, .. } | Expr::Chain { span, .. } => *span,
        }
    }

    /// The expression inside any brackets around it: `((offense))` is
    /// `offense` wherever a name is expected.
    pub fn unparen(&self) -> &Expr {
        let mut expr = self;
        while let Expr::Group(inner, _) = expr {
            expr = inner;
        }
        expr
    }
}

/// A rule's expression as written, each run of spaces and tabs made one
/// space: how a rule is echoed, formatted and handed to engines.  (A plain
/// loop over bytes: this runs over rules of millions of characters.)
pub fn single_spaced(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut word_start = None;
    // Spaces inside a quoted name (`name == "Big  Ship"`) are its own.
    let mut quoted = false;
    let mut escaped = false;
    for i in 0..=bytes.len() {
        let byte = bytes.get(i).copied();
        if quoted || byte == Some(b'"') {
            match byte {
                Some(b'\\') if quoted => escaped = !escaped,
                Some(b'"') if !escaped => quoted = !quoted,
                _ => escaped = false,
            }
            if byte != Some(b'\\') {
                escaped = false;
            }
        }
        let space = match byte {
            None => true,
            Some(b) => !quoted && (b == b' ' || b == b'\t'),
        };
        match (space, word_start) {
            (true, Some(start)) => {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(&text[start..i]);
                word_start = None;
            }
            (false, None) => word_start = Some(i),
            _ => {}
        }
    }
    out
}

/// The expression with the brackets it was written with, one space around
/// each operator and after each comma: how a counted call is echoed.
impl std::fmt::Display for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expr::Int(n, _) => write!(f, "{n}"),
            Expr::Name(name) => f.write_str(&name.text),
            Expr::Str(text, _) => write!(f, "\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\"")),
            Expr::Call { name, args, .. } => {
                write!(f, "{}(", name.text)?;
                for (i, arg) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{arg}")?;
                }
                f.write_str(")")
            }
            Expr::Not(inner, _) => write!(f, "not {inner}"),
            Expr::Group(inner, _) => write!(f, "({inner})"),
            Expr::Chain { first, rest, .. } => {
                write!(f, "{first}")?;
                for (op, operand) in rest {
                    write!(f, " {} {operand}", op.symbol())?;
                }
                Ok(())
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Le,
    Ge,
    Lt,
    Gt,
    Add,
    Sub,
    Mul,
    Div,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        }
    }

    /// Binding strength: higher binds tighter.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne | BinOp::Le | BinOp::Ge | BinOp::Lt | BinOp::Gt => 3,
            BinOp::Add | BinOp::Sub => 4,
            BinOp::Mul | BinOp::Div => 5,
        }
    }
}
