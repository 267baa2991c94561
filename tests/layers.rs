//! The library reads one way: no top-level module imports, through any
//! chain of others, a module that imports it.  This test reads every file
//! of `src/` (the binary's `main.rs` and `cli/` aside, which sit above all)
//! for the `crate::`, `super::` and `self::` paths it names, builds the
//! graph of the top-level modules, and fails on every circle, naming the
//! files behind each step.
//!
//! A circle that cannot be broken at once is listed in [`KNOWN`], so the
//! test still fails if it grows or another appears, and when it is gone.
//!
//! A second test does the same between files, each path leading to the file
//! that defines the module it names, and names the paths behind each step.
//! A file naming the module files above it (a child using what its parent
//! declares) is how modules are built, not an import.  Circles of files left
//! are listed in [`KNOWN_FILES`].

mod common;

use std::collections::{BTreeMap, BTreeSet};

/// The circles left, each as its modules in order of name.
const KNOWN: &[&[&str]] = &[];

/// The circles left between files, each as its files in order of name.
const KNOWN_FILES: &[&[&str]] = &[];

/// Which file (or module) imports which, with the paths (or files) that do.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

#[test]
fn no_module_of_the_library_reaches_itself() {
    let top = |file: &str| module_of(file)[0].to_string();
    let mut graph = Graph::new();
    for (file, imports) in file_graph() {
        let module = graph.entry(top(&file)).or_default();
        for to in imports.keys().filter(|to| top(to) != top(&file)) {
            module.entry(top(to)).or_default().insert(file.clone());
        }
    }
    assert!(graph.len() > 10, "the library's modules were not found: {:?}", graph.keys());
    assert_only_known_circles(&graph, KNOWN, "KNOWN");
}

#[test]
fn no_file_of_the_library_reaches_itself() {
    assert_only_known_circles(&file_graph(), KNOWN_FILES, "KNOWN_FILES");
}

/// Fails on a circle of `graph` that `known` does not list, and on one it
/// lists that is gone.
fn assert_only_known_circles(graph: &Graph, known: &[&[&str]], list: &str) {
    let circles = circles(graph);
    let known: Vec<Vec<String>> = known.iter().map(|c| c.iter().map(|m| m.to_string()).collect()).collect();
    let described: Vec<String> =
        circles.iter().filter(|c| !known.contains(c)).map(|circle| describe(circle, graph)).collect();
    assert!(described.is_empty(), "import circles in the library:\n{}", described.join("\n"));
    for circle in &known {
        assert!(circles.contains(circle), "the circle {circle:?} is gone: take it out of {list}");
    }
}

/// Which file of `src/` imports which, by its path there, with the paths it
/// names that lead there.
fn file_graph() -> Graph {
    let src = common::repo().join("src");
    let (mut sources, mut folders) = (Vec::new(), vec![src.clone()]);
    while let Some(dir) = folders.pop() {
        for path in std::fs::read_dir(dir).expect("src is readable").flatten().map(|e| e.path()) {
            let file = path.strip_prefix(&src).expect("inside src").to_string_lossy().replace('\\', "/");
            if path.is_dir() && file != "cli" {
                folders.push(path);
            } else if file.ends_with(".rs") && file != "main.rs" && file != "lib.rs" {
                sources.push((file, std::fs::read_to_string(&path).expect("a source file")));
            }
        }
    }
    let files: BTreeSet<&str> = sources.iter().map(|(file, _)| file.as_str()).collect();
    let mut graph = Graph::new();
    for (file, text) in &sources {
        let imports = graph.entry(file.clone()).or_default();
        for path in rooted_paths(text) {
            // The file's own module and those above it are where it is declared.
            if let Some(to) = file_of(file, &path, &files).filter(|to| !module_of(file).starts_with(&module_of(to))) {
                imports.entry(to.to_string()).or_default().insert(path);
            }
        }
    }
    graph
}

/// Every path from `crate`, `super` or `self` in the code (comments aside),
/// one for each item of a group (`crate::{a, b::{c, d}}`).
fn rooted_paths(text: &str) -> Vec<String> {
    let code: Vec<&str> = text.lines().map(|line| line.split("//").next().unwrap_or_default()).collect();
    let code = code.join("\n");
    let (mut found, mut at) = (Vec::new(), 0);
    while let Some(word) = code[at..].find(is_name) {
        at += word;
        let rest = &code[at..];
        at += if ["crate::", "super::", "self::"].iter().any(|root| rest.starts_with(root)) {
            use_tree(rest, "", &mut found)
        } else {
            rest.find(|c| !is_name(c)).unwrap_or(rest.len())
        };
    }
    found
}

fn is_name(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Reads the use tree at the start of `code` (`a::b`, `a::{self, c::d}`),
/// adding each of its paths after `prefix` to `found`; gives its length.
fn use_tree(code: &str, prefix: &str, found: &mut Vec<String>) -> usize {
    let end = code.find(|c: char| !is_name(c) && c != ':').unwrap_or(code.len());
    let path = format!("{prefix}{}", &code[..end]);
    if !path.ends_with("::") || !code[end..].starts_with('{') {
        found.push(path.trim_end_matches("::self").to_string());
        return end;
    }
    let mut at = end + 1;
    while let Some(skip) = code[at..].find(|c: char| !c.is_whitespace() && c != ',') {
        at += skip;
        if code[at..].starts_with('}') {
            return at + 1;
        }
        at += use_tree(&code[at..], &path, found);
        at += code[at..].find([',', '}']).unwrap_or(code.len() - at);
    }
    code.len()
}

/// The module a file of `src/` defines: `check/rules/mod.rs` and
/// `check/rules.rs` are both `check::rules`.
fn module_of(file: &str) -> Vec<&str> {
    let module = file.trim_end_matches(".rs").trim_end_matches("/mod");
    module.split('/').collect()
}

/// The file that defines the module a path written in `file` names: the
/// longest start of the path that names a file.
fn file_of<'f>(file: &str, path: &str, files: &BTreeSet<&'f str>) -> Option<&'f str> {
    let mut module = module_of(file);
    for (i, segment) in path.split("::").enumerate() {
        match segment {
            "crate" if i == 0 => module.clear(),
            "super" => drop(module.pop()),
            "self" | "" => {}
            name => module.push(name),
        }
    }
    (1..=module.len()).rev().find_map(|n| {
        let name = module[..n].join("/");
        files.get(format!("{name}.rs").as_str()).or_else(|| files.get(format!("{name}/mod.rs").as_str())).copied()
    })
}

/// Every group of modules that reach one another (Tarjan's strongly
/// connected components, with a stack of its own), each of two or more.
fn circles(graph: &Graph) -> Vec<Vec<String>> {
    let names: Vec<&String> = graph.keys().collect();
    let index_of: BTreeMap<&String, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let edges: Vec<Vec<usize>> =
        names.iter().map(|n| graph[*n].keys().filter_map(|m| index_of.get(m).copied()).collect()).collect();
    let mut tarjan =
        Tarjan { edges: &edges, index: vec![None; names.len()], low: vec![0; names.len()], ..Tarjan::default() };
    for start in 0..names.len() {
        if tarjan.index[start].is_none() {
            tarjan.visit(start);
        }
    }
    tarjan.components.into_iter().map(|c| c.into_iter().map(|i| names[i].clone()).collect()).collect()
}

#[derive(Default)]
struct Tarjan<'g> {
    edges: &'g [Vec<usize>],
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    stack: Vec<usize>,
    on_stack: BTreeSet<usize>,
    next: usize,
    components: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    fn visit(&mut self, start: usize) {
        let mut work = vec![(start, 0usize)];
        self.open(start);
        while let Some(&(node, edge)) = work.last() {
            if let Some(&next) = self.edges[node].get(edge) {
                work.last_mut().expect("a node").1 += 1;
                match self.index[next] {
                    None => {
                        self.open(next);
                        work.push((next, 0));
                    }
                    Some(index) if self.on_stack.contains(&next) => self.low[node] = self.low[node].min(index),
                    Some(_) => {}
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                self.low[parent] = self.low[parent].min(self.low[node]);
            }
            if Some(self.low[node]) == self.index[node] {
                self.close(node);
            }
        }
    }

    fn open(&mut self, node: usize) {
        self.index[node] = Some(self.next);
        self.low[node] = self.next;
        self.next += 1;
        self.stack.push(node);
        self.on_stack.insert(node);
    }

    fn close(&mut self, root: usize) {
        let mut component = Vec::new();
        while let Some(member) = self.stack.pop() {
            self.on_stack.remove(&member);
            component.push(member);
            if member == root {
                break;
            }
        }
        if component.len() > 1 {
            component.sort_unstable();
            self.components.push(component);
        }
    }
}

/// A circle as its members and each import between them, with what makes
/// it (the files that import, or the paths they name).
fn describe(circle: &[String], graph: &Graph) -> String {
    let mut lines = vec![format!("- {}", circle.join(", "))];
    for from in circle {
        for (to, files) in &graph[from] {
            if circle.contains(to) {
                let files: Vec<&str> = files.iter().map(String::as_str).collect();
                lines.push(format!("    {from} → {to} ({})", files.join(", ")));
            }
        }
    }
    lines.join("\n")
}

#[test]
fn a_circle_is_found_and_a_line_is_not() {
    let mut graph = Graph::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        graph.entry(from.into()).or_default().entry(to.into()).or_default().insert(format!("{from}.rs"));
    }
    graph.entry("d".into()).or_default();
    assert_eq!(circles(&graph), vec![vec!["a".to_string(), "b".into(), "c".into()]]);
}

#[test]
fn paths_lead_to_the_files_that_define_their_modules() {
    let text = "use super::{x, y::{self, Z}};\nuse crate::ir::{\n  Card as C,\n}; // crate::lint\n\
                super::super::w::f(my_crate::a);";
    let paths = rooted_paths(text);
    assert_eq!(paths, ["super::x", "super::y", "super::y::Z", "crate::ir::Card", "super::super::w::f"]);
    let files = BTreeSet::from(["ir.rs", "a/mod.rs", "a/b/mod.rs", "a/b/x.rs", "a/b/y.rs", "a/w.rs"]);
    let found: Vec<Option<&str>> = paths.iter().map(|path| file_of("a/b/c.rs", path, &files)).collect();
    assert_eq!(found, [Some("a/b/x.rs"), Some("a/b/y.rs"), Some("a/b/y.rs"), Some("ir.rs"), Some("a/w.rs")]);
    assert_eq!(file_of("a/b/mod.rs", "self::x::T", &files), Some("a/b/x.rs"));
}
