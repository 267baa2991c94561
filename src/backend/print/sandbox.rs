//! What a face template may do, and what it may spend.  Templates come with
//! projects, and projects come from strangers: a template is code, so it
//! runs confined and on a budget.
//!
//! - **No way out:** tera's `get_env` is replaced by a function that refuses,
//!   so no environment variable reaches an output; tera has no function that
//!   reads a file or the network, and `include`, `import` and `extends` name
//!   only the templates given to it (the project's are read confined to the
//!   project, see `cli/print.rs`).
//! - **Bounded recursion:** before anything is drawn, every template's calls
//!   (macros, `include`, `extends`) are followed: a template or macro that
//!   reaches itself is refused, and so is a chain of calls longer than
//!   [`MOST_CALL_DEPTH`], so rendering can never overflow the stack.
//! - **A budget per face:** `range` builds at most [`MOST_RANGE_ITEMS`] items
//!   in all for one face, a face is at most [`MOST_FACE_BYTES`] long, and a
//!   face that takes longer than [`MOST_FACE_TIME`] is stopped at its next
//!   write or `range`; one that holds more than [`MOST_FACE_MEMORY`] at once
//!   stops the program, and so does one that runs past its time without
//!   writing ([`crate::budget`]).

use std::cell::Cell;
use std::collections::HashMap;
use std::io::Write;
use std::time::{Duration, Instant};
use tera::ast::{Expr, ExprVal, Node};
use tera::{Tera, Value};

/// The longest chain of macro calls, includes and extends, counted from the
/// face's own template.
pub const MOST_CALL_DEPTH: usize = 32;
/// The deepest that `{% if %}`, `{% for %}` and other tags may nest, and
/// brackets inside one tag: tera's parser recurses as deep as they do.
pub const MOST_NESTING: usize = 32;
/// The items `range` may build in all while one face is drawn.
pub const MOST_RANGE_ITEMS: u64 = 100_000;
/// The most bytes one face may be: a card's art embedded whole (16 MiB as
/// base64) fits with room to spare.
pub const MOST_FACE_BYTES: usize = 64 << 20;
/// The longest one face may take to draw; a bundled face takes milliseconds.
pub const MOST_FACE_TIME: Duration = Duration::from_secs(5);
/// The most memory drawing one face may hold at once, its art included.
pub const MOST_FACE_MEMORY: usize = 256 << 20;

/// Refuses a template whose tags or brackets nest deeper than
/// [`MOST_NESTING`], before tera's parser (which recurses as deep) sees it,
/// and gives the template it extends, for [`check_extends`].  One pass over
/// the text; `{% raw %}` blocks and comments are passed over.
pub fn check_source(name: &str, text: &str) -> Result<Option<String>, String> {
    let too_deep = |what: &str, at: usize| {
        let line = text[..at].matches('\n').count() + 1;
        Err(format!("`{name}` nests {what} more than {MOST_NESTING} deep (line {line}): move the inner part into a macro of its own"))
    };
    let mut tags = 0usize;
    let mut rest = 0;
    let mut parent = None;
    while let Some(found) = text[rest..].find('{') {
        let open = rest + found;
        let close = match text.as_bytes().get(open + 1) {
            Some(b'%') => "%}",
            Some(b'{') => "}}",
            Some(b'#') => "#}",
            _ => {
                rest = open + 1;
                continue;
            }
        };
        let inside = open + 2;
        let Some(end) = tag_end(&text[inside..], close) else { break };
        let tag = &text[inside..inside + end];
        rest = inside + end + close.len();
        if close == "#}" {
            continue;
        }
        if brackets_depth(tag) > MOST_NESTING {
            return too_deep("brackets", open);
        }
        let tag = tag.trim_start_matches('-').trim_end_matches('-');
        match tag.split_whitespace().next().unwrap_or("") {
            "extends" if parent.is_none() => {
                parent = Some(tag.trim_start()["extends".len()..].trim().trim_matches(['"', '\'', '`']).to_string());
            }
            "raw" => rest = text[rest..].find("endraw").map_or(text.len(), |at| rest + at),
            "if" | "for" | "block" | "macro" | "filter" => tags += 1,
            word if word.starts_with("end") => tags = tags.saturating_sub(1),
            _ => {}
        }
        if tags > MOST_NESTING {
            return too_deep("tags", open);
        }
    }
    Ok(parent)
}

/// Refuses templates that extend themselves through others, or through a
/// chain longer than [`MOST_CALL_DEPTH`], before tera follows the chain
/// (which it does recursively, and without end when the chain runs into a
/// loop that does not pass through where it started).
pub fn check_extends(parents: &HashMap<String, String>) -> Result<(), String> {
    let mut names: Vec<&String> = parents.keys().collect();
    names.sort();
    for start in names {
        let mut chain = vec![start];
        let mut at = start;
        while let Some(parent) = parents.get(at) {
            if let Some(first) = chain.iter().position(|n| *n == parent) {
                let names: Vec<String> = chain[first..].iter().chain([&parent]).map(|n| format!("`{n}`")).collect();
                return Err(format!("{} extends itself ({})", names[0], names.join(" → ")));
            }
            if chain.len() > MOST_CALL_DEPTH {
                return Err(format!(
                    "`{start}` starts a chain of more than {MOST_CALL_DEPTH} templates extending each other"
                ));
            }
            chain.push(parent);
            at = parent;
        }
    }
    Ok(())
}

/// Where a tag's `close` is, strings inside it passed over.
fn tag_end(tag: &str, close: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (at, c) in tag.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            None if tag[at..].starts_with(close) => return Some(at),
            None => {}
        }
    }
    None
}

/// How deep brackets and `not`s nest in a tag, strings passed over.
fn brackets_depth(tag: &str) -> usize {
    let (mut depth, mut deepest, mut nots) = (0usize, 0usize, 0usize);
    let mut quote: Option<char> = None;
    for c in tag.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '"' | '\'' | '`' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
        deepest = deepest.max(depth);
    }
    for word in tag.split(|c: char| !c.is_alphanumeric() && c != '_') {
        nots += usize::from(word == "not");
    }
    deepest + nots
}

/// Replaces tera's functions that reach outside the template (`get_env`)
/// and bounds those that build (`range`).
pub fn confine(tera: &mut Tera) {
    tera.register_function("get_env", |_: &HashMap<String, Value>| -> tera::Result<Value> {
        Err(tera::Error::msg(
            "templates cannot read environment variables: a shared project must not see the machine it is printed on",
        ))
    });
    tera.register_function("range", range);
}

/// What the face being drawn may still spend, on this thread.
#[derive(Clone, Copy)]
struct Budget {
    deadline: Instant,
    range_items: u64,
}

thread_local! {
    static BUDGET: Cell<Option<Budget>> = const { Cell::new(None) };
}

/// Renders template `name` on a fresh budget.
pub fn render(tera: &Tera, name: &str, context: &tera::Context) -> Result<String, String> {
    let deadline = Instant::now() + MOST_FACE_TIME;
    let previous = BUDGET.replace(Some(Budget { deadline, range_items: MOST_RANGE_ITEMS }));
    let mut face = Face { bytes: Vec::new(), deadline, stopped: None };
    let what = format!("drawing a face with the template `{name}`");
    let rendered =
        crate::budget::within(MOST_FACE_MEMORY, MOST_FACE_TIME, &what, || tera.render_to(name, context, &mut face));
    BUDGET.set(previous);
    match (rendered, face.stopped) {
        (Ok(()), _) => String::from_utf8(face.bytes).map_err(|_| format!("`{name}` wrote text that is not UTF-8")),
        (Err(_), Some(why)) => Err(format!("`{name}` {why}")),
        (Err(error), None) => Err(chain(&error)),
    }
}

/// A tera error with its causes, which hold the useful part.
pub(super) fn chain(error: &tera::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The face being written, which stops a render past its size or time.
struct Face {
    bytes: Vec<u8>,
    deadline: Instant,
    stopped: Option<String>,
}

impl Write for Face {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len() + buf.len() > MOST_FACE_BYTES {
            self.stopped = Some(format!("draws a face of more than {} MiB", MOST_FACE_BYTES >> 20));
        } else if Instant::now() > self.deadline {
            self.stopped = Some(past_deadline());
        }
        if let Some(why) = &self.stopped {
            return Err(std::io::Error::other(why.clone()));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn past_deadline() -> String {
    format!("took more than {} s to draw one face", MOST_FACE_TIME.as_secs())
}

/// tera's `range(end, start=0, step_by=1)`, on the face's budget.
fn range(args: &HashMap<String, Value>) -> tera::Result<Value> {
    let number = |key: &str, default: u64| match args.get(key) {
        None => Ok(default),
        Some(value) => value.as_u64().ok_or_else(|| {
            tera::Error::msg(format!("`range` takes a whole number of 0 or more for `{key}`, not {value}"))
        }),
    };
    let start = number("start", 0)?;
    let end = number("end", u64::MAX).and_then(|end| match args.contains_key("end") {
        true => Ok(end),
        false => Err(tera::Error::msg("`range` needs an `end`")),
    })?;
    let step = number("step_by", 1)?;
    if step == 0 {
        return Err(tera::Error::msg("`range` takes a `step_by` of 1 or more"));
    }
    let items = end.saturating_sub(start).div_ceil(step);
    spend_range_items(items)?;
    Ok(Value::Array((start..end).step_by(step as usize).map(Value::from).collect()))
}

/// Takes `items` from the face's budget, refusing past it or its time.
fn spend_range_items(items: u64) -> tera::Result<()> {
    let Some(mut budget) = BUDGET.get() else { return Ok(()) };
    if Instant::now() > budget.deadline {
        return Err(tera::Error::msg(past_deadline()));
    }
    if items > budget.range_items {
        return Err(tera::Error::msg(format!(
            "`range` would build {items} items, past the {MOST_RANGE_ITEMS} that one face may build in all"
        )));
    }
    budget.range_items -= items;
    BUDGET.set(Some(budget));
    Ok(())
}

/// Something a template's render can run: a template's own body, or one of
/// its macros.
type Callable = (String, Option<String>);

/// Refuses templates whose calls reach themselves or run deeper than
/// [`MOST_CALL_DEPTH`]: the message names the chain.
pub fn check_calls(tera: &Tera) -> Result<(), String> {
    let calls = call_graph(tera);
    let mut depth: HashMap<&Callable, usize> = HashMap::new();
    let mut roots: Vec<&Callable> = calls.keys().collect();
    roots.sort();
    for root in roots {
        longest_chain(&calls, root, &mut depth)?;
    }
    Ok(())
}

/// The longest chain of calls from `root`, memoised in `depth`; walks the
/// graph with a stack of its own, so a long chain costs no native stack.
fn longest_chain<'g>(
    calls: &'g HashMap<Callable, Vec<Callable>>,
    root: &'g Callable,
    depth: &mut HashMap<&'g Callable, usize>,
) -> Result<(), String> {
    let mut path: Vec<(&Callable, usize)> = vec![(root, 0)];
    while let Some(&mut (at, ref mut next_slot)) = path.last_mut() {
        let next = *next_slot;
        if depth.contains_key(at) && next == 0 {
            path.pop();
            continue;
        }
        let callees = calls.get(at).map(Vec::as_slice).unwrap_or_default();
        if let Some(callee) = callees.get(next) {
            *next_slot += 1;
            if let Some(start) = path.iter().position(|(on, _)| *on == callee) {
                return Err(cycle_message(path[start..].iter().map(|(c, _)| *c).chain([callee])));
            }
            if !depth.contains_key(callee) {
                path.push((callee, 0));
            }
            if path.len() > MOST_CALL_DEPTH {
                return Err(too_deep_message(path.iter().map(|(c, _)| *c)));
            }
            continue;
        }
        let deepest = callees.iter().filter_map(|c| depth.get(c)).max().map_or(0, |d| d + 1);
        if deepest + path.len() > MOST_CALL_DEPTH {
            return Err(too_deep_message(path.iter().map(|(c, _)| *c)));
        }
        depth.insert(at, deepest);
        path.pop();
    }
    Ok(())
}

fn describe(callable: &Callable) -> String {
    match callable {
        (template, None) => format!("`{template}`"),
        (template, Some(name)) => format!("macro `{name}` of `{template}`"),
    }
}

fn cycle_message<'c>(chain: impl Iterator<Item = &'c Callable>) -> String {
    let chain: Vec<String> = chain.map(describe).collect();
    format!(
        "{} calls itself ({}): templates may not recurse, as a face is drawn in one pass; write the repeated part with a `for` loop",
        chain[0],
        chain.join(" → ")
    )
}

fn too_deep_message<'c>(chain: impl Iterator<Item = &'c Callable>) -> String {
    let first = chain.into_iter().next().map(describe).unwrap_or_default();
    format!(
        "{first} starts a chain of more than {MOST_CALL_DEPTH} macro calls, includes and extends: join some of the macros into one"
    )
}

/// Each template's and macro's calls: the macros it calls, the templates it
/// includes and the template it extends.
fn call_graph(tera: &Tera) -> HashMap<Callable, Vec<Callable>> {
    let mut graph = HashMap::new();
    for name in tera.get_template_names() {
        let Ok(template) = tera.get_template(name) else { continue };
        let imports: HashMap<&str, &str> =
            template.imported_macro_files.iter().map(|(file, space)| (space.as_str(), file.as_str())).collect();
        let resolve = |space: &str| if space == "self" { Some(name) } else { imports.get(space).copied() };
        let mut own = calls_in(&template.ast, &resolve);
        own.extend(template.parent.iter().map(|parent| (parent.clone(), None)));
        graph.insert((name.to_string(), None), own);
        for (macro_name, definition) in &template.macros {
            graph.insert((name.to_string(), Some(macro_name.clone())), calls_in(&definition.body, &resolve));
        }
    }
    graph
}

/// What nodes reach while they are rendered: the bodies of macro
/// definitions aside, which are callables of their own.
fn calls_in<'a>(body: &'a [Node], resolve: &dyn Fn(&str) -> Option<&'a str>) -> Vec<Callable> {
    let mut calls = Vec::new();
    let mut work: Vec<Part> = body.iter().map(Part::Node).collect();
    while let Some(part) = work.pop() {
        if let Part::Node(Node::Include(_, names, _)) = part {
            calls.extend(names.iter().map(|n| (n.clone(), None)));
        }
        if let Part::Value(ExprVal::MacroCall(call)) = part {
            let file = resolve(&call.namespace).unwrap_or(call.namespace.as_str());
            calls.push((file.to_string(), Some(call.name.clone())));
        }
        part.children(&mut work);
    }
    calls
}

/// A piece of a template's tree, walked with a stack of its own.
#[derive(Clone, Copy)]
enum Part<'a> {
    Node(&'a Node),
    Expr(&'a Expr),
    Value(&'a ExprVal),
}

impl<'a> Part<'a> {
    /// Pushes the nodes and expressions this part holds onto `work`.
    fn children(self, work: &mut Vec<Part<'a>>) {
        let nodes = |body: &'a [Node]| body.iter().map(Part::Node);
        let exprs = |args: &'a HashMap<String, Expr>| args.values().map(Part::Expr);
        match self {
            Part::Node(Node::VariableBlock(_, expr)) => work.push(Part::Expr(expr)),
            Part::Node(Node::Set(_, set)) => work.push(Part::Expr(&set.value)),
            Part::Node(Node::FilterSection(_, section, _)) => {
                work.extend(nodes(&section.body).chain(exprs(&section.filter.args)));
            }
            Part::Node(Node::Block(_, block, _)) => work.extend(nodes(&block.body)),
            Part::Node(Node::Forloop(_, each, _)) => {
                work.extend(nodes(&each.body).chain(each.empty_body.iter().flat_map(|b| nodes(b))));
                work.push(Part::Expr(&each.container));
            }
            Part::Node(Node::If(branches, _)) => {
                for (_, condition, body) in &branches.conditions {
                    work.push(Part::Expr(condition));
                    work.extend(nodes(body));
                }
                work.extend(branches.otherwise.iter().flat_map(|(_, body)| nodes(body)));
            }
            Part::Node(_) => {}
            Part::Expr(expr) => {
                work.push(Part::Value(&expr.val));
                work.extend(expr.filters.iter().flat_map(|f| exprs(&f.args)));
            }
            Part::Value(value) => value_children(value, work),
        }
    }
}

fn value_children<'a>(value: &'a ExprVal, work: &mut Vec<Part<'a>>) {
    match value {
        ExprVal::Math(math) => work.extend([Part::Expr(&math.lhs), Part::Expr(&math.rhs)]),
        ExprVal::Logic(logic) => work.extend([Part::Expr(&logic.lhs), Part::Expr(&logic.rhs)]),
        ExprVal::In(within) => work.extend([Part::Expr(&within.lhs), Part::Expr(&within.rhs)]),
        ExprVal::Test(test) => work.extend(test.args.iter().map(Part::Expr)),
        ExprVal::MacroCall(call) => work.extend(call.args.values().map(Part::Expr)),
        ExprVal::FunctionCall(call) => work.extend(call.args.values().map(Part::Expr)),
        ExprVal::Array(items) => work.extend(items.iter().map(Part::Expr)),
        ExprVal::StringConcat(concat) => work.extend(concat.values.iter().map(Part::Value)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(tags: usize, brackets: usize) -> String {
        let expression = format!("{{{{ {}1{} }}}}", "(".repeat(brackets), ")".repeat(brackets));
        format!("{}{expression}{}", "{% if true %}".repeat(tags), "{% endif %}".repeat(tags))
    }

    /// The deepest template accepted parses and renders on a thread of
    /// 2 MiB, a spawned thread's default, with room to spare.
    #[test]
    fn the_deepest_template_accepted_parses_and_renders_on_a_small_stack() {
        let text = nested(MOST_NESTING, MOST_NESTING / 2);
        assert_eq!(check_source("deep", &text), Ok(None));
        let rendered = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let mut tera = Tera::default();
                tera.add_raw_template("deep", &text).expect("parses");
                render(&tera, "deep", &tera::Context::new())
            })
            .expect("thread")
            .join()
            .expect("no overflow");
        assert_eq!(rendered.as_deref(), Ok("1"));
    }

    #[test]
    fn nesting_past_the_limit_is_refused_with_its_line() {
        let deep_tags = check_source("t", &format!("\n{}", nested(MOST_NESTING + 1, 0)));
        assert!(deep_tags.is_err_and(|e| e.contains("nests tags more than 32 deep (line 2)")));
        let deep_brackets = check_source("t", &nested(0, MOST_NESTING + 1));
        assert!(deep_brackets.is_err_and(|e| e.contains("brackets")));
        let nots = check_source("t", &format!("{{{{ {}true }}}}", "not ".repeat(40)));
        assert!(nots.is_err());
    }

    #[test]
    fn a_chain_of_extends_that_runs_into_a_loop_is_refused() {
        let parent = |text: &str| check_source("t", text).expect("reads");
        assert_eq!(parent(r#"{%- extends "a/b.svg" -%}"#).as_deref(), Some("a/b.svg"));
        let parents: HashMap<String, String> =
            [("one", "two"), ("two", "two")].map(|(a, b)| (a.to_string(), b.to_string())).into();
        let refused = check_extends(&parents).expect_err("a loop");
        assert!(refused.contains("`two` extends itself (`two` → `two`)"), "{refused}");
    }

    #[test]
    fn raw_blocks_comments_and_strings_are_not_counted() {
        let raw = format!("{{% raw %}}{}{{% endraw %}}", "{% if %}".repeat(100));
        assert_eq!(check_source("t", &raw), Ok(None));
        let comment = format!("{{# {} #}}", "{% if %}".repeat(100));
        assert_eq!(check_source("t", &comment), Ok(None));
        let string = format!("{{{{ \"{}\" }}}}", "(".repeat(100));
        assert_eq!(check_source("t", &string), Ok(None));
    }

    #[test]
    fn every_bundled_template_passes_the_checks() {
        for (name, text) in crate::bundled::TEMPLATES {
            assert!(check_source(name, text).is_ok(), "{name}");
        }
        let mut tera = Tera::default();
        confine(&mut tera);
        tera.add_raw_templates(crate::bundled::TEMPLATES.iter().copied()).expect("bundled templates parse");
        assert_eq!(check_calls(&tera), Ok(()));
    }
}
