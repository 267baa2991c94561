//! The library reads one way: no top-level module imports, through any
//! chain of others, a module that imports it.  This test reads every file
//! of `src/` (the binary's `main.rs` and `cli/` aside, which sit above all)
//! for the `crate::` paths it names, builds the graph of the top-level
//! modules, and fails on every circle, naming the files behind each step.
//!
//! A circle that cannot be broken at once is listed in [`KNOWN`], so the
//! test still fails if it grows or another appears, and when it is gone.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The circles left, each as its modules in order of name.
const KNOWN: &[&[&str]] = &[];

/// Which module imports which, with the files that do.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

#[test]
fn no_module_of_the_library_reaches_itself() {
    let src = common::repo().join("src");
    let mut graph = Graph::new();
    read_folder(&src, &src, &mut graph);
    assert!(graph.len() > 10, "the library's modules were not found: {:?}", graph.keys());
    let circles = circles(&graph);
    let known: Vec<Vec<String>> = KNOWN.iter().map(|c| c.iter().map(|m| m.to_string()).collect()).collect();
    let described: Vec<String> =
        circles.iter().filter(|c| !known.contains(c)).map(|circle| describe(circle, &graph)).collect();
    assert!(described.is_empty(), "import circles between the library's modules:\n{}", described.join("\n"));
    for circle in &known {
        assert!(circles.contains(circle), "the circle {circle:?} is gone: take it out of KNOWN");
    }
}

fn read_folder(src: &Path, dir: &Path, graph: &mut Graph) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("src is readable").flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let relative = path.strip_prefix(src).expect("inside src").to_string_lossy().replace('\\', "/");
        if relative == "main.rs" || relative == "lib.rs" || relative == "cli" {
            continue;
        }
        if path.is_dir() {
            read_folder(src, &path, graph);
        } else if relative.ends_with(".rs") {
            let module = relative.split('/').next().unwrap_or_default().trim_end_matches(".rs").to_string();
            let text = std::fs::read_to_string(&path).expect("a source file");
            let imports = graph.entry(module.clone()).or_default();
            for named in crate_paths(&text) {
                if named != module {
                    imports.entry(named).or_default().insert(relative.clone());
                }
            }
        }
    }
}

/// The first segment of every `crate::` path in the code (comments aside),
/// those of a group (`crate::{a, b::c}`) included.
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let inside = group.split('}').next().unwrap_or_default();
                found.extend(inside.split(',').filter_map(|item| first_segment(item.trim())));
            } else {
                found.extend(first_segment(rest));
            }
        }
    }
    found.remove("self");
    found
}

fn first_segment(path: &str) -> Option<String> {
    let name: String = path.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    (!name.is_empty()).then_some(name)
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

/// A circle as its modules and each import between them, with its files.
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
    let paths = crate_paths("use crate::{ir::Card, source};\n// crate::lint\nlet x = crate::check::run();");
    assert_eq!(paths.into_iter().collect::<Vec<_>>(), ["check", "ir", "source"]);
}
