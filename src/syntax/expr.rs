//! Rule expressions (`count(offense) == 20 and not any(extra)`), read
//! without recursion.
//!
//! The grammar matches a rule's expression as the rest of its line (`expr`
//! in `grammar/cardsmith.pest`) and this module reads it, in one pass over
//! its tokens: a rule of 100,000 terms reads in linear time, and brackets
//! nested a million deep cost a stack of frames on the heap, never the
//! thread's stack.  Each run of operators of one precedence becomes one
//! [`Expr::Chain`], so the tree is only as deep as brackets, calls and `not`
//! nest, and that is bounded: deeper than [`MAX_EXPR_DEPTH`] is
//! `E0014 expression-too-deep`.
//!
//! `expr_spec` in the grammar defines the language read here; a test holds
//! the reader to the same answers on every short expression and many long
//! ones, and to the same grouping.

use super::ast::{BinOp, Expr, Name, MAX_EXPR_DEPTH};
use super::codes;
use super::parser::{expected, found_at, number_too_large};
use crate::diagnostics::Diagnostic;
use crate::source::{FileId, Span};

/// Where an expression lies: `text` is the item it is in, `start..end` the
/// expression within it, and `offset` where the item starts in its file.
pub(super) struct Place<'t> {
    pub file: FileId,
    pub offset: usize,
    pub text: &'t str,
    pub start: usize,
    pub end: usize,
}

/// Reads the expression at `place`.  A mistake is reported and gives `None`;
/// a number too large for 64 bits is reported and read as 0.
pub(super) fn read(place: &Place<'_>, diagnostics: &mut Vec<Diagnostic>) -> Option<Expr> {
    let mut reader = Reader {
        place,
        lexer: Lexer { text: &place.text[..place.end], pos: place.start },
        rule: Frame::new(Open::Rule, 0),
        nested: Vec::new(),
        operand: None,
        diagnostics,
    };
    match reader.run() {
        Ok(expr) => Some(expr),
        Err(diagnostic) => {
            reader.diagnostics.push(diagnostic);
            None
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Token<'t> {
    Int(&'t str),
    /// `"Scout"`, its text between the quotes as written.
    Str(&'t str),
    /// A name, or the words `not`, `and` and `or`, which mean an operator
    /// only where an operator can stand.
    Word(&'t str),
    Op(BinOp),
    Open,
    Close,
    Comma,
    End,
    /// Anything else, reported as found.
    Stray,
}

struct Lexer<'t> {
    /// The item's text up to the end of the expression.
    text: &'t str,
    pos: usize,
}

impl<'t> Lexer<'t> {
    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while matches!(bytes.get(self.pos), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    /// Whether the next token is `(`; if it is, it is taken.
    fn take_open(&mut self) -> bool {
        self.skip_space();
        let open = self.text.as_bytes().get(self.pos) == Some(&b'(');
        self.pos += usize::from(open);
        open
    }

    /// The next token and where it starts.
    fn next(&mut self) -> (Token<'t>, usize) {
        self.skip_space();
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let Some(&first) = bytes.get(start) else { return (Token::End, start) };
        let run = |pos: usize, accept: fn(u8) -> bool| {
            let mut end = pos;
            while bytes.get(end).is_some_and(|b| accept(*b)) {
                end += 1;
            }
            end
        };
        let (token, end) = match first {
            b'0'..=b'9' => {
                let end = run(start, |b| b.is_ascii_digit());
                (Token::Int(&self.text[start..end]), end)
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let end = run(start + 1, |b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
                (Token::Word(&self.text[start..end]), end)
            }
            b'"' => match quoted(&bytes[start + 1..]) {
                Some(length) => (Token::Str(&self.text[start + 1..start + 1 + length]), start + length + 2),
                // No closing quote: reported as found.
                None => (Token::Stray, start),
            },
            b'(' => (Token::Open, start + 1),
            b')' => (Token::Close, start + 1),
            b',' => (Token::Comma, start + 1),
            _ => match operator(&bytes[start..]) {
                Some((op, len)) => (Token::Op(op), start + len),
                None => (Token::Stray, start),
            },
        };
        self.pos = end;
        (token, start)
    }
}

/// The length of a quoted name's text, up to its closing quote, with `\"`
/// and `\\` inside; `None` when the quote is not closed.
fn quoted(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        match bytes.get(at)? {
            b'"' => return Some(at),
            b'\\' if matches!(bytes.get(at + 1), Some(b'"' | b'\\')) => at += 2,
            b'\\' | b'\n' | b'\r' => return None,
            _ => at += 1,
        }
    }
}

/// A quoted name's text with `\"` and `\\` resolved.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\\' { chars.next().unwrap_or(c) } else { c });
    }
    out
}

/// The operator written with symbols at the start of `bytes`, and its length.
fn operator(bytes: &[u8]) -> Option<(BinOp, usize)> {
    let two = match bytes.get(..2) {
        Some(b"==") => Some(BinOp::Eq),
        Some(b"!=") => Some(BinOp::Ne),
        Some(b"<=") => Some(BinOp::Le),
        Some(b">=") => Some(BinOp::Ge),
        _ => None,
    };
    if let Some(op) = two {
        return Some((op, 2));
    }
    let one = match bytes.first()? {
        b'<' => BinOp::Lt,
        b'>' => BinOp::Gt,
        b'+' => BinOp::Add,
        b'-' => BinOp::Sub,
        b'*' => BinOp::Mul,
        b'/' => BinOp::Div,
        _ => return None,
    };
    Some((one, 1))
}

/// What a frame of the reader's stack is inside.
enum Open {
    /// The whole rule.
    Rule,
    /// `( … )`, opened at this offset in the item.
    Group(usize),
    /// `name( …, … )`, with the arguments read so far.
    Call(Name, Vec<Expr>),
}

/// One level of nesting being read: an operand is awaited or has been read
/// (`Reader::operand`), and the operators before it wait in `chains`.
struct Frame {
    open: Open,
    /// How many brackets, calls and `not`s enclose this frame.
    depth: usize,
    /// Where each `not` waiting for its operand starts.
    nots: Vec<usize>,
    /// Runs of operators whose right operand is still being read, their
    /// precedence rising from the first to the last.
    chains: Vec<Partial>,
    /// Whether anything has been read in this frame (so `count()` is a call
    /// without arguments, and `()` a mistake).
    started: bool,
}

impl Frame {
    fn new(open: Open, depth: usize) -> Frame {
        Frame { open, depth, nots: Vec::new(), chains: Vec::new(), started: false }
    }

    /// How deep an operand read next would be.
    fn next_depth(&self) -> usize {
        self.depth + self.nots.len() + 1
    }

    /// `operand op`: closes the runs of higher precedence, then joins or
    /// starts the run of `op`'s.
    fn push_operator(&mut self, mut operand: Expr, op: BinOp) {
        while let Some(top) = self.chains.last_mut() {
            if top.op.precedence() == op.precedence() {
                top.rest.push((top.op, operand));
                top.op = op;
                return;
            }
            if top.op.precedence() < op.precedence() {
                break;
            }
            if let Some(higher) = self.chains.pop() {
                operand = higher.close(operand);
            }
        }
        // Most runs are one operator long: room for one operand, not four.
        self.chains.push(Partial { first: operand, rest: Vec::with_capacity(1), op });
    }
}

/// `first op operand … op`: a run of one precedence, waiting for the operand
/// after its last operator.
struct Partial {
    first: Expr,
    rest: Vec<(BinOp, Expr)>,
    op: BinOp,
}

impl Partial {
    fn close(mut self, last: Expr) -> Expr {
        let span = self.first.span().to(last.span()).unwrap_or(last.span());
        self.rest.push((self.op, last));
        Expr::Chain { first: Box::new(self.first), rest: self.rest, span }
    }
}

struct Reader<'p, 't, 'd> {
    place: &'p Place<'t>,
    lexer: Lexer<'t>,
    /// The frame of the whole rule.
    rule: Frame,
    /// The brackets and calls open around the point read, innermost last.
    nested: Vec<Frame>,
    /// The operand just read in the innermost frame, if any: an operator or
    /// the frame's end comes next.
    operand: Option<Expr>,
    diagnostics: &'d mut Vec<Diagnostic>,
}

impl Reader<'_, '_, '_> {
    fn run(&mut self) -> Result<Expr, Diagnostic> {
        loop {
            let (token, start) = self.lexer.next();
            match self.operand.take() {
                None => self.operand_token(token, start)?,
                Some(operand) => {
                    if let Some(expr) = self.operator_token(token, start, operand)? {
                        return Ok(expr);
                    }
                }
            }
        }
    }

    /// The innermost frame.
    fn frame(&mut self) -> &mut Frame {
        self.nested.last_mut().unwrap_or(&mut self.rule)
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.place.file, self.place.offset + start, self.place.offset + end)
    }

    /// A whole number, negated when written with a minus sign.
    fn number(&mut self, digits: &str, start: usize, end: usize, negative: bool) {
        let span = self.span(start, end);
        let n = digits.parse::<i64>().map(|n| if negative { -n } else { n }).unwrap_or_else(|_| {
            self.diagnostics.push(number_too_large(span));
            0
        });
        self.operand_read(Expr::Int(n, span));
    }

    /// Where an operand must come.
    fn operand_token(&mut self, token: Token<'_>, start: usize) -> Result<(), Diagnostic> {
        let end = self.lexer.pos;
        let frame = self.frame();
        let fresh_call = matches!(frame.open, Open::Call(..)) && !frame.started;
        frame.started = true;
        match token {
            Token::Word("not") => {
                self.deeper(start, end, "`not`")?;
                self.frame().nots.push(start);
            }
            Token::Int(digits) => self.number(digits, start, end, false),
            // `-1`: a minus sign written against the number it negates.
            Token::Op(BinOp::Sub) if self.lexer.text.as_bytes().get(end).is_some_and(u8::is_ascii_digit) => {
                match self.lexer.next() {
                    (Token::Int(digits), _) => self.number(digits, start, self.lexer.pos, true),
                    _ => return Err(self.unexpected("an expression", start)),
                }
            }
            Token::Str(text) => {
                let span = self.span(start, end);
                self.operand_read(Expr::Str(unescape(text), span));
            }
            Token::Word(word) => {
                let name = Name { text: word.to_string(), span: self.span(start, end) };
                if self.lexer.take_open() {
                    self.deeper(start, end, "call")?;
                    self.open(Open::Call(name, Vec::new()));
                } else {
                    self.operand_read(Expr::Name(name));
                }
            }
            Token::Open => {
                self.deeper(start, end, "`(`")?;
                self.open(Open::Group(start));
            }
            Token::Close if fresh_call => self.close_call(None, end),
            _ => {
                let what = if fresh_call { "an expression or `)`" } else { "an expression" };
                return Err(self.unexpected(what, start));
            }
        }
        Ok(())
    }

    /// Where an operator, or the end of the frame, must come after `operand`.
    /// Gives the whole expression once the rule's end is reached.
    fn operator_token(&mut self, token: Token<'_>, start: usize, operand: Expr) -> Result<Option<Expr>, Diagnostic> {
        let end = self.lexer.pos;
        let op = match token {
            Token::Op(op) => Some(op),
            Token::Word("and") => Some(BinOp::And),
            Token::Word("or") => Some(BinOp::Or),
            _ => None,
        };
        let frame = self.frame();
        if let Some(op) = op {
            frame.push_operator(operand, op);
            return Ok(None);
        }
        match (token, &frame.open) {
            (Token::Comma, Open::Call(..)) => {
                let arg = finish(std::mem::take(&mut frame.chains), operand);
                if let Open::Call(_, args) = &mut frame.open {
                    args.push(arg);
                }
            }
            (Token::Close, Open::Call(..)) => self.close_call(Some(operand), end),
            (Token::Close, Open::Group(open)) => {
                let open = *open;
                let inner = finish(std::mem::take(&mut frame.chains), operand);
                self.nested.pop();
                self.operand_read(Expr::Group(Box::new(inner), self.span(open, end)));
            }
            (Token::End, Open::Rule) => return Ok(Some(finish(std::mem::take(&mut frame.chains), operand))),
            (_, open) => {
                let what = match open {
                    Open::Rule => "an operator or the end of the rule",
                    Open::Group(_) => "an operator or `)`",
                    Open::Call(..) => "an operator, `,` or `)`",
                };
                return Err(self.unexpected(what, start));
            }
        }
        Ok(None)
    }

    /// `operand` is read in the innermost frame: the `not`s before it apply.
    fn operand_read(&mut self, mut operand: Expr) {
        let nots = std::mem::take(&mut self.frame().nots);
        for start in nots.into_iter().rev() {
            let span = self.span(start, start).to(operand.span()).unwrap_or(operand.span());
            operand = Expr::Not(Box::new(operand), span);
        }
        self.operand = Some(operand);
    }

    fn open(&mut self, open: Open) {
        let depth = self.frame().next_depth();
        self.nested.push(Frame::new(open, depth));
    }

    /// Takes the innermost frame, a call, off at its `)`, which ends at
    /// `end`; `last` is its last argument, if it has any.  The call is then
    /// an operand of the frame around it.
    fn close_call(&mut self, last: Option<Expr>, end: usize) {
        let Some(Frame { open: Open::Call(name, mut args), chains, .. }) = self.nested.pop() else { return };
        args.extend(last.map(|operand| finish(chains, operand)));
        let span = name.span.to(self.span(end, end)).unwrap_or(name.span);
        self.operand_read(Expr::Call { name, args, span });
    }

    /// Refuses to nest deeper than the limit at the token `start..end`.
    fn deeper(&mut self, start: usize, end: usize, what: &str) -> Result<(), Diagnostic> {
        if self.frame().next_depth() <= MAX_EXPR_DEPTH {
            return Ok(());
        }
        Err(too_deep(self.span(start, end), what))
    }

    /// "expected …, found …" at the token starting at `start`.
    fn unexpected(&self, what: &str, start: usize) -> Diagnostic {
        let text = self.place.text;
        let (found, length) = if start >= self.place.end && text[start..].starts_with("//") {
            ("a comment".to_string(), 0)
        } else {
            found_at(text, start)
        };
        expected(self.span(start, start + length), what, &found)
    }
}

/// A frame's expression: its last operand closes the runs waiting for it.
fn finish(mut chains: Vec<Partial>, mut last: Expr) -> Expr {
    while let Some(partial) = chains.pop() {
        last = partial.close(last);
    }
    last
}

/// `E0014`: nesting deeper than the limit, at the bracket, call or `not`
/// that goes too deep.
pub(super) fn too_deep(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        &codes::EXPRESSION_TOO_DEEP,
        format!("brackets, calls and `not` nested more than {MAX_EXPR_DEPTH} deep"),
    )
    .primary(span, format!("this {what} is too deep"))
    .help("no rule needs this much nesting; check for a run of stray `(` or `not`")
}

#[cfg(test)]
mod tests {
    use super::super::parser::{Grammar, Rule};
    use super::*;
    use pest::iterators::Pair;
    use pest::Parser as _;

    /// Reads `text` as a whole rule expression, with what was reported.
    fn read_text(text: &str) -> (Option<Expr>, Vec<Diagnostic>) {
        let place = Place { file: FileId(0), offset: 0, text, start: 0, end: text.len() };
        let mut diagnostics = Vec::new();
        let expr = read(&place, &mut diagnostics);
        (expr, diagnostics)
    }

    /// The grouping the reader gives, spelled out: `{…}` around each run of
    /// operators, `(…)` where brackets were written.
    fn grouping(expr: &Expr, text: &str) -> String {
        match expr {
            Expr::Int(_, span) | Expr::Str(_, span) => text[span.range()].to_string(),
            Expr::Name(name) => name.text.clone(),
            Expr::Call { name, args, .. } => {
                let args: Vec<String> = args.iter().map(|a| grouping(a, text)).collect();
                format!("{}({})", name.text, args.join(", "))
            }
            Expr::Not(inner, _) => format!("not {}", grouping(inner, text)),
            Expr::Group(inner, _) => format!("({})", grouping(inner, text)),
            Expr::Chain { first, rest, .. } => {
                let mut out = format!("{{{}", grouping(first, text));
                for (op, operand) in rest {
                    out.push_str(&format!(" {} {}", op.symbol(), grouping(operand, text)));
                }
                out + "}"
            }
        }
    }

    /// The same spelling of what `expr_spec` reads.
    fn spec_grouping(pair: Pair<'_, Rule>) -> String {
        let rule = pair.as_rule();
        let text = pair.as_str().to_string();
        let children: Vec<Pair<'_, Rule>> = pair.into_inner().collect();
        match rule {
            Rule::spec_or | Rule::spec_and | Rule::spec_compare | Rule::spec_sum | Rule::spec_product => {
                // Operands and operators alike: an operator reads as itself.
                let parts: Vec<String> = children.into_iter().map(spec_grouping).collect();
                if parts.len() == 1 {
                    parts.concat()
                } else {
                    format!("{{{}}}", parts.join(" "))
                }
            }
            Rule::spec_unary => children.into_iter().map(spec_grouping).collect::<Vec<_>>().join(" "),
            Rule::spec_group => format!("({})", children.into_iter().map(spec_grouping).collect::<String>()),
            Rule::spec_call => {
                let mut children = children.into_iter();
                let name = children.next().map(|n| n.as_str().to_string()).unwrap_or_default();
                let args: Vec<String> = children.map(spec_grouping).collect();
                format!("{name}({})", args.join(", "))
            }
            _ => text,
        }
    }

    /// The reader and `expr_spec` agree on `text`: both refuse it, or both
    /// read it with the same grouping.
    fn agree(text: &str) {
        let spec = Grammar::parse(Rule::expr_spec, text)
            .ok()
            .and_then(|mut pairs| pairs.next())
            .and_then(|whole| whole.into_inner().next())
            .map(spec_grouping);
        let (expr, diagnostics) = read_text(text);
        let read = expr.map(|e| grouping(&e, text));
        assert_eq!(read, spec, "on {text:?}: {:?}", diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
        if read.is_none() {
            assert_eq!(diagnostics.len(), 1, "one report for {text:?}");
        }
    }

    #[test]
    fn agrees_with_the_grammar_on_every_short_expression_and_many_long_ones() {
        let units = ["1", "a", "x-", "not", "and", "or", "(", ")", ",", " ", "==", "<=", "<", "+", "-", "*"];
        // Every sequence of up to four units.
        let mut sequences = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> =
                sequences.iter().flat_map(|s| units.iter().map(move |u| format!("{s}{u}"))).collect();
            for text in &longer {
                agree(text);
            }
            sequences = longer;
        }
        // Longer ones from every operator, from a fixed generator so that
        // failures reproduce.
        let units = [
            "1", "23", "a", "b-c", "not", "and", "or", "(", ")", ",", " ", "==", "!=", "<=", ">=", "<", ">", "+", "-",
            "*", "/", "=", "!", "count(", "f (", "\t", "\"a b\"", "\"", "\\",
        ];
        let mut state = 11u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        for _ in 0..20_000 {
            let length = 5 + next() % 16;
            let text: String = (0..length).map(|_| units[next() % units.len()]).collect();
            agree(&text);
        }
    }

    #[test]
    fn a_run_of_one_precedence_is_one_node() {
        let text = vec!["1"; 100_000].join(" + ");
        let (expr, diagnostics) = read_text(&text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        match expr {
            Some(Expr::Chain { rest, span, .. }) => {
                assert_eq!(rest.len(), 99_999);
                assert_eq!(span.range(), 0..text.len());
            }
            other => panic!("not one chain: {other:?}"),
        }
        // Precedence nests runs no deeper than the operators' five levels.
        let (expr, _) = read_text("a or b and c == d + e * f - g or h");
        let expr = expr.map(|e| grouping(&e, "")).unwrap_or_default();
        assert_eq!(expr, "{a or {b and {c == {d + {e * f} - g}}} or h}");
    }

    #[test]
    fn nesting_is_bounded_with_a_diagnostic() {
        for (open, close, what) in [("(", ")", "`(`"), ("not ", "", "`not`"), ("any(", ")", "call")] {
            let text = |depth: usize| format!("{}1{}", open.repeat(depth), close.repeat(depth));
            let (expr, diagnostics) = read_text(&text(MAX_EXPR_DEPTH));
            assert!(expr.is_some() && diagnostics.is_empty(), "{what}: {diagnostics:?}");
            let deep = text(1_000_000);
            let (expr, diagnostics) = read_text(&deep);
            assert!(expr.is_none());
            let codes: Vec<&str> = diagnostics.iter().map(|d| d.code.id).collect();
            assert_eq!(codes, [codes::EXPRESSION_TOO_DEEP.id], "{what}");
            let at = diagnostics[0].primary_span().map(|s| s.start as usize);
            assert_eq!(at, Some(open.len() * MAX_EXPR_DEPTH), "{what}: the label is on the first one too deep");
            assert!(diagnostics[0].labels[0].message.contains(what));
        }
        // `not` and brackets count together.
        let (expr, diagnostics) = read_text(&format!("{}1{}", "not (".repeat(17), ")".repeat(17)));
        assert!(expr.is_none() && diagnostics[0].code.id == codes::EXPRESSION_TOO_DEEP.id);
    }

    #[test]
    fn mistakes_say_what_was_expected() {
        let cases = [
            ("count() ==", "expected an expression, found the end of the item"),
            ("count(a,)", "expected an expression, found `)`"),
            ("count(a b)", "expected an operator, `,` or `)`, found `b`"),
            ("(1 + 2", "expected an operator or `)`, found the end of the item"),
            ("1 2", "expected an operator or the end of the rule, found `2`"),
            ("()", "expected an expression, found `)`"),
            ("f(, 1)", "expected an expression or `)`, found `,`"),
            ("a = b", "expected an operator or the end of the rule, found `=`"),
        ];
        for (text, message) in cases {
            let (expr, diagnostics) = read_text(text);
            assert!(expr.is_none(), "{text}");
            assert_eq!(diagnostics.iter().map(|d| d.message.as_str()).collect::<Vec<_>>(), [message], "{text}");
        }
        let (expr, diagnostics) = read_text("99999999999999999999 > 1");
        assert!(expr.is_some());
        assert_eq!(diagnostics.iter().map(|d| d.code.id).collect::<Vec<_>>(), [codes::NUMBER_TOO_LARGE.id]);
    }

    #[test]
    fn prints_back_as_written() {
        for text in
            ["all(not (a and b))", "(count(x) == 2 and count(y) == 0) or count() == 1", "not not f(1, (2), g())"]
        {
            let (expr, _) = read_text(text);
            assert_eq!(expr.map(|e| e.to_string()).as_deref(), Some(text));
        }
        let (expr, _) = read_text("count( a ,b )==1");
        assert_eq!(expr.map(|e| e.to_string()).as_deref(), Some("count(a, b) == 1"));
    }
}
