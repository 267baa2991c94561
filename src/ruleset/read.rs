//! Loads a ruleset file (`*.rules`) into a [`Ruleset`].
//!
//! The ruleset language is fixed here; the games are not.  Every declaration
//! is read into the model, then every cross-reference (kinds named by keywords,
//! enums named by fields, names used in rules) is resolved, and each problem is
//! reported with the span of the declaration.

use super::codes;
use super::model::setup::Setup;
use super::model::*;
use super::names::{ident_at, string_at, suggest};
use super::vocabulary::{About, Block, Body, Found, Occurs, Vocabulary};
use crate::diagnostics::{Diagnostic, Severity};
use crate::source::{FileId, Files, Span};
use crate::syntax::ast::{Name, Node, SourceTree, ValueKind};
use std::collections::HashMap;
use std::sync::Arc;

use super::loader::{Loader, NameRef, Wanted};
use std::any::Any;

#[path = "effect_decls.rs"]
mod effect_decls;
pub(super) use effect_decls::StateLines;

/// The lines of a ruleset's header block and of the file.
pub(super) struct Language {
    pub(super) header: &'static Block<Ruleset>,
    pub(super) file: &'static Block<Ruleset>,
}

/// Reads a ruleset.  Returns `None` when the file has no `ruleset` header.
///
/// `bases` holds the declarations of the rulesets it `extends`, outermost
/// base first: they are read before the file's own, and a declaration of the
/// file replaces the base's declaration of the same name.
pub(super) fn load(
    files: &Files,
    (file, tree): (FileId, &SourceTree),
    bases: &[&SourceTree],
    language: Language,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Ruleset> {
    let header = tree.nodes.first().filter(|n| n.name.text == "ruleset")?;
    let mut loader = Loader {
        files,
        diagnostics,
        type_refs: Vec::new(),
        name_refs: Vec::new(),
        based_on_lines: Vec::new(),
        timing: Default::default(),
        special_refs: Vec::new(),
        defs: Vec::new(),
        def_index: HashMap::new(),
        seen: Vec::new(),
        line_values: "",
        line_block: None,
        play_written: false,
    };
    let id = match super::names::id_at(header, 0) {
        Some(id) => id.to_string(),
        None => {
            loader.bad(header.head_span(), "a ruleset needs an id: `ruleset my-game { ... }`");
            return None;
        }
    };
    let mut ruleset = Ruleset {
        id,
        title: String::new(),
        doc: None,
        extends: None,
        span: header.head_span(),
        symbols: Vec::new(),
        icons: Vec::new(),
        roles: Vec::new(),
        initiative: None,
        tie_break: Vec::new(),
        sides: Vec::new(),
        phases: Vec::new(),
        step_names: None,
        ranges: Vec::new(),
        dice: Vec::new(),
        arcs: Vec::new(),
        enums: Vec::new(),
        deck_symbols: Vec::new(),
        keywords: Vec::new(),
        tags: Vec::new(),
        shapes: Vec::new(),
        kinds: Vec::new(),
        deck_types: Vec::new(),
        play_limits: Vec::new(),
        cost_limits: Vec::new(),
        specials: super::special::built_in(),
        setup: None,
        conditions: Vec::new(),
        quantities: Vec::new(),
        amount_forms: Vec::new(),
        definitions: Vec::new(),
        tested_names: Vec::new(),
        play: None,
        bots: Vec::new(),
        table: None,
        dials: Vec::new(),
    };
    loader.read_block(header, language.header, &mut ruleset);
    for tree in bases.iter().chain([&tree]) {
        for node in tree.nodes.iter().skip(1) {
            loader.declaration(node, language.file, &mut ruleset);
        }
    }
    loader.resolve(&mut ruleset, file);
    super::contrast::check(&ruleset, loader.diagnostics);
    Some(ruleset)
}

/// The id of the ruleset a ruleset file extends, if any.
pub fn extends(tree: &SourceTree) -> Option<(&str, Span)> {
    let header = tree.nodes.first().filter(|n| n.name.text == "ruleset")?;
    let line = children(header).iter().find(|n| n.name.text == "extends")?;
    Some((super::names::id_at(line, 0)?, line.values[0].span))
}

fn children(node: &Node) -> &[Node] {
    node.block.as_ref().map(|b| b.nodes.as_slice()).unwrap_or(&[])
}

impl Loader<'_> {
    fn bad(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::error(&codes::BAD_RULESET, message).primary(span, "in this declaration"));
    }

    pub(super) fn id_and_display(&mut self, node: &Node) -> Option<(String, String)> {
        let Some(id) = ident_at(node, 0) else {
            self.bad(
                node.head_span(),
                format!("`{}` needs an id, like `{} my-id \"My Name\"`", node.name.text, node.name.text),
            );
            return None;
        };
        let display = string_at(node, 1).map(str::to_string).unwrap_or_else(|| id.to_string());
        Some((id.to_string(), display))
    }

    /// `dice D3 D6`: the sides of each die the game rolls.
    pub(super) fn dice(&mut self, node: &Node) -> Vec<i64> {
        let mut sides = Vec::new();
        for value in &node.values {
            match value.kind {
                ValueKind::Dice { count: 1, sides: n, modifier: 0 } if n >= 2 && !sides.contains(&n) => sides.push(n),
                ValueKind::Dice { count: 1, sides: n, modifier: 0 } if n >= 2 => {
                    self.bad(value.span, format!("`D{n}` is listed twice: list each die once"))
                }
                _ => {
                    let written = self.files.text(value.span);
                    self.bad(
                        value.span,
                        format!(
                            "`dice` lists single dice by their sides, like `dice D3 D6`; `{written}` is not one die"
                        ),
                    )
                }
            }
        }
        if node.values.is_empty() {
            self.bad(node.head_span(), "`dice` lists the dice the game rolls on one line: `dice D3 D6`");
        }
        sides
    }

    /// Reports a line that is not one of `block`'s, with those it could be.
    /// The line was probably meant to be the one suggested, which it is
    /// then read as, so that its one mistake is not followed by one at
    /// every use of what it declares.
    fn unknown<T>(&mut self, node: &Node, block: &'static Block<T>) -> Option<Found<T>> {
        let name = &node.name.text;
        let expected: Vec<&'static str> = block.lines().iter().map(|about| about.name).collect();
        let meant = suggest(name, expected.iter().copied());
        self.diagnostics.push(
            Diagnostic::error(block.code, format!("`{name}` is not part of {} here", block.language))
                .primary(node.name.span, "not understood here")
                .expected(&expected, "nothing stands here")
                .suggest(meant),
        );
        block.find(meant?)
    }

    /// Reads one declaration of a file by its line in the language.
    fn declaration(&mut self, node: &Node, file: &'static Block<Ruleset>, ruleset: &mut Ruleset) {
        let found = file.find(&node.name.text).or_else(|| self.unknown(node, file));
        let Some(Found::Own(line)) = found else { return };
        match line.about.occurs {
            Occurs::Once => self.timing.once(node, self.diagnostics),
            Occurs::ById if !self.first_of_its_id(line.about.name, node, ruleset) => return,
            Occurs::ById | Occurs::Many => {}
        }
        self.no_stray_block(None, node, &line.about, file);
        self.reading(&line.about);
        (line.read)(self, node, ruleset);
    }

    /// Whether a declaration is the first of its kind and id in its file.
    /// One of a base ruleset's is forgotten: a house rule replaces it.
    fn first_of_its_id(&mut self, what: &str, node: &Node, ruleset: &mut Ruleset) -> bool {
        let Some(id) = ident_at(node, 0) else { return true };
        let seen = &mut self.seen;
        if let Some(at) = seen.iter().position(|(w, i, first)| w == what && i == id && first.file != node.span.file) {
            seen.remove(at);
            ruleset.forget(what, id);
        } else if let Some((_, _, first)) = seen.iter().find(|(w, i, _)| w == what && i == id) {
            self.diagnostics.push(
                Diagnostic::error(&codes::DUPLICATE_DECLARATION, format!("`{what} {id}` is declared twice"))
                    .primary(node.head_span(), "declared again here")
                    .secondary(*first, "first declared here"),
            );
            return false;
        } else {
            seen.push((what.to_string(), id.to_string(), node.head_span()));
        }
        true
    }

    /// Reads the block of the line being read into `target`, by the lines
    /// its declaration says the block holds.
    pub(super) fn read_body<T: 'static>(&mut self, node: &Node, target: &mut T) {
        let Some(block) = self.line_block else { return };
        match (block as &dyn Any).downcast_ref::<Block<T>>() {
            Some(block) => self.read_block(node, block, target),
            None => unreachable!("the block of `{}` fills another part of the model", node.name.text),
        }
    }

    /// Reads the lines of a node's block into `target`, each by its line
    /// in `block`.
    pub(super) fn read_block<T>(&mut self, node: &Node, block: &'static Block<T>, target: &mut T) {
        for child in children(node) {
            match block.find(&child.name.text).or_else(|| self.unknown(child, block)) {
                Some(Found::Own(line)) => {
                    self.no_stray_block(Some(node), child, &line.about, block);
                    self.reading(&line.about);
                    (line.read)(self, child, target);
                }
                Some(Found::Schema(line, part)) => {
                    self.no_stray_block(Some(node), child, &line.about, block);
                    self.reading(&line.about);
                    (line.read)(self, child, part(target));
                }
                None => {}
            }
        }
    }

    /// Reports a block after a line that takes none: what it holds would
    /// otherwise be ignored without a word.
    fn no_stray_block<T>(&mut self, parent: Option<&Node>, line: &Node, about: &About, block: &'static Block<T>) {
        let (Body::None, Some(stray)) = (&about.body, &line.block) else { return };
        let mut holders: Vec<String> = parent.map(|p| format!("`{}`", p.name.text)).into_iter().collect();
        holders.extend(block.lines().iter().filter(|a| !matches!(a.body, Body::None)).map(|a| format!("`{}`", a.name)));
        let help = match holders.as_slice() {
            [others @ .., last] if parent.is_some() && !others.is_empty() => {
                format!("only {} and {last} hold blocks", others.join(", "))
            }
            _ => format!("write `{}` on one line, without a block: `{}`", line.name.text, about.example),
        };
        self.diagnostics.push(
            Diagnostic::error(block.code, format!("`{}` takes no block", line.name.text))
                .primary(stray.span, "remove this block")
                .help(help),
        );
    }

    /// Notes the line about to be read, for its block and its messages.
    fn reading(&mut self, about: &'static About) {
        self.line_values = about.values;
        self.line_block = match about.body {
            Body::Lines(vocabulary) => Some(vocabulary.as_any()),
            _ => None,
        };
    }

    /// The values the line being read takes, as the language writes them.
    pub(super) fn values(&self) -> &'static str {
        self.line_values
    }

    /// The colour a line names: one of the palette's, or `#rrggbb`.
    pub(super) fn colour(&mut self, node: &Node) -> Option<String> {
        let name = match node.values.first().map(|v| &v.kind) {
            Some(ValueKind::Ident(name) | ValueKind::Word(name)) => name.clone(),
            _ => {
                let line = &node.name.text;
                self.bad(node.head_span(), format!("`{line}` takes a colour: `{line} red` or `{line} #c0262d`"));
                return None;
            }
        };
        if super::palette::hex(&name).is_some() {
            return Some(name);
        }
        let names: Vec<&str> = super::palette::names().collect();
        self.diagnostics.push(
            Diagnostic::error(&codes::BAD_RULESET, format!("`{name}` is not a colour cardsmith knows"))
                .primary(node.values[0].span, "unknown colour")
                .note(format!("the colours are: {}; or any `#rrggbb`", names.join(", ")))
                .suggest(suggest(&name, names.iter().copied())),
        );
        None
    }

    /// The text in quotes a line takes.
    pub(super) fn string(&mut self, node: &Node) -> Option<String> {
        let name = &node.name.text;
        self.text_or(node, &format!("`{name}` takes a text in quotes: `{name} \"…\"`"))
    }

    /// The text in quotes a line takes, reported with `usage` when it has none.
    pub(super) fn text_or(&mut self, node: &Node, usage: &str) -> Option<String> {
        let text = string_at(node, 0).map(str::to_string);
        if text.is_none() {
            self.bad(node.head_span(), usage);
        }
        text
    }

    /// The name a line takes, reported with `usage` when it has none.
    pub(super) fn name_or(&mut self, node: &Node, usage: &str) -> Option<String> {
        let name = ident_at(node, 0).map(str::to_string);
        if name.is_none() {
            self.bad(node.head_span(), usage);
        }
        name
    }

    /// A symbol, icon or arc.
    pub(super) fn named(&mut self, node: &Node) -> Option<Named> {
        let (id, display) = self.id_and_display(node)?;
        let mut named = Named {
            id,
            display,
            doc: None,
            does: Vec::new(),
            angles: None,
            within: None,
            within_span: None,
            span: Some(node.head_span()),
        };
        self.read_body(node, &mut named);
        Some(named)
    }

    /// `angles FROM TO from centre|edge`: the angles an arc covers.
    pub(super) fn arc_angles(&mut self, node: &Node) -> Option<ArcAngles> {
        const USAGE: &str = "write the angles in degrees and where they are measured from: `angles -40 40 from centre`";
        let angle = |i: usize| match node.values.get(i).map(|v| &v.kind) {
            Some(ValueKind::Int(n) | ValueKind::Signed(n)) => Some(*n),
            _ => None,
        };
        let origin = match (node.values.get(2).map(|v| &v.kind), node.values.get(3).map(|v| &v.kind)) {
            (Some(ValueKind::Ident(from)), Some(ValueKind::Ident(at))) if from == "from" && node.values.len() == 4 => {
                match at.as_str() {
                    "centre" => Some(ArcOrigin::Centre),
                    "edge" => Some(ArcOrigin::Edge),
                    _ => None,
                }
            }
            _ => None,
        };
        let (Some(from), Some(to), Some(origin)) = (angle(0), angle(1), origin) else {
            self.bad(node.span, USAGE);
            return None;
        };
        let span = node.values.first().map_or(node.span, |v| v.span);
        // The angle out of range, the first when both are.
        let out = [from, to].iter().position(|a| !(-360..=360).contains(a));
        if let Some(at) = out {
            let out_span = node.values.get(at).map_or(span, |v| v.span);
            self.bad(out_span, format!("an arc's angles are between -360 and 360 degrees, not `{from} {to}`"));
            return None;
        }
        if to <= from || to - from > 360 {
            self.bad(
                span,
                format!(
                    "the arc `{from} {to}` covers no angle or more than all round: write the smaller angle first, \
                     at most 360 apart (`-180 180` is all round)"
                ),
            );
            return None;
        }
        Some(ArcAngles { from, to, origin })
    }

    pub(super) fn role(&mut self, node: &Node) -> Option<Role> {
        let (id, display) = self.id_and_display(node)?;
        let mut role = Role {
            id,
            display,
            colour: None,
            colour_span: None,
            applies_to: String::new(),
            mark: None,
            mark_span: None,
        };
        self.read_body(node, &mut role);
        Some(role)
    }

    /// A `tie-break` block.  A ruleset's own list replaces the one it extends.
    pub(super) fn tie_break(&mut self, node: &Node) -> Vec<TieBreak> {
        let mut list = super::timing::TieBreaks::default();
        self.read_body(node, &mut list);
        super::timing::close_tie_break(node, list, self.diagnostics)
    }

    pub(super) fn phase(&mut self, node: &Node) -> Option<Phase> {
        let mut phase = super::timing::open_phase(node, &mut self.timing, self.diagnostics)?;
        self.read_body(node, &mut phase);
        super::timing::close_phase(node, &phase, self.diagnostics);
        Some(phase)
    }

    /// `range close "Close" 0..3`.
    pub(super) fn range(&mut self, node: &Node) -> Option<Band> {
        let (id, display) = self.id_and_display(node)?;
        let band = node.values.iter().find_map(|v| match v.kind {
            ValueKind::Range { low, high } => Some((low, high)),
            _ => None,
        });
        let Some((low, high)) = band else {
            self.bad(node.head_span(), format!("range `{id}` needs its distances, like `0..3` or `11..`"));
            return None;
        };
        Some(Band { id, display, low, high })
    }

    /// `enum ID VALUE…`, or one value per line of its block with an
    /// optional weight and printed label: `L 1 "Light"`.
    pub(super) fn enum_def(&mut self, node: &Node) -> Option<EnumDef> {
        let Some(id) = ident_at(node, 0) else {
            self.bad(node.head_span(), "`enum` needs an id and its values: `enum colour red green`");
            return None;
        };
        let mut values: Vec<String> = node.values[1..]
            .iter()
            .filter_map(|v| match &v.kind {
                ValueKind::Ident(s) | ValueKind::String(s) => Some(s.clone()),
                _ => None,
            })
            .collect();
        let (mut weights, mut labels) = (std::collections::BTreeMap::new(), std::collections::BTreeMap::new());
        let mut printed_lines = Vec::new();
        for child in children(node) {
            if let Some(line) = printed_line(child) {
                printed_lines.push(line);
                continue;
            }
            let value = child.name.text.clone();
            for item in &child.values {
                match &item.kind {
                    ValueKind::Int(weight) if !weights.contains_key(&value) => {
                        weights.insert(value.clone(), *weight);
                    }
                    ValueKind::String(label) if !labels.contains_key(&value) => {
                        labels.insert(value.clone(), label.clone());
                    }
                    _ => self.bad(
                        item.span,
                        format!("enum value `{value}` takes a weight and a label at most: `{value} 1 \"Label\"`"),
                    ),
                }
            }
            values.push(value);
        }
        if values.is_empty() {
            self.bad(node.head_span(), format!("enum `{id}` has no values"));
        }
        self.values_once(node, id, &mut values);
        let printed = self.printed_spellings(id, &values, &labels, printed_lines);
        Some(EnumDef { id: id.to_string(), values, weights, labels, printed })
    }

    /// Reports a value an enum lists twice, and keeps it once.
    fn values_once(&mut self, node: &Node, id: &str, values: &mut Vec<String>) {
        let mut seen = std::collections::HashSet::new();
        let twice: Vec<String> = values.iter().filter(|v| !seen.insert(v.as_str())).cloned().collect();
        for value in &twice {
            let at = node
                .values
                .iter()
                .rev()
                .find(|v| matches!(&v.kind, ValueKind::Ident(s) | ValueKind::String(s) if s == value));
            let line = children(node).iter().rev().find(|n| n.name.text == *value).map(|n| n.name.span);
            let span = at.map(|v| v.span).or(line).unwrap_or(node.head_span());
            self.diagnostics.push(
                Diagnostic::error(&codes::DUPLICATE_DECLARATION, format!("enum `{id}` lists `{value}` twice"))
                    .primary(span, "listed again here")
                    .help("list each value once"),
            );
        }
        let mut kept = std::collections::HashSet::new();
        values.retain(|v| kept.insert(v.clone()));
    }

    pub(super) fn deck_symbol(&mut self, node: &Node) -> Option<DeckSymbol> {
        let (id, display) = self.id_and_display(node)?;
        let deck_type = ident_at(node, 2).map(str::to_string);
        Some(DeckSymbol { id, display, deck_type })
    }

    pub(super) fn keyword(&mut self, node: &Node) -> Option<KeywordDef> {
        let (id, display) = self.id_and_display(node)?;
        let mut keyword = KeywordDef {
            id,
            display,
            params: Vec::new(),
            only: Vec::new(),
            doc: None,
            printed: Vec::new(),
            effects: Vec::new(),
        };
        self.read_body(node, &mut keyword);
        self.keyword_effects_use_params(&mut keyword);
        Some(keyword)
    }

    pub(super) fn tag(&mut self, node: &Node) -> Option<TagDef> {
        let (id, display) = self.id_and_display(node)?;
        let mut tag = TagDef { id, display, only: Vec::new(), doc: None };
        self.read_body(node, &mut tag);
        Some(tag)
    }

    pub(super) fn shape(&mut self, node: &Node) -> Option<(String, Schema)> {
        let Some(id) = ident_at(node, 0) else {
            self.bad(node.head_span(), "`shape` needs an id: `shape grid { ... }`");
            return None;
        };
        let mut schema = Schema::default();
        self.read_body(node, &mut schema);
        Some((id.to_string(), schema))
    }

    pub(super) fn kind(&mut self, node: &Node) -> Option<Kind> {
        let (id, display) = self.id_and_display(node)?;
        let mut kind = Kind {
            id,
            display,
            border: None,
            border_span: None,
            roles: Vec::new(),
            rare_roles: Vec::new(),
            text_limit: None,
            card_size: None,
            enters_at: None,
            enters_at_span: None,
            side: None,
            schema: Schema::default(),
        };
        self.read_body(node, &mut kind);
        Some(kind)
    }

    /// `text-limit 240`.
    pub(super) fn text_limit(&mut self, node: &Node) -> Option<i64> {
        match node.values.first().map(|v| &v.kind) {
            Some(ValueKind::Int(n)) => Some(*n),
            _ => {
                self.bad(node.head_span(), "`text-limit` takes a number of characters");
                None
            }
        }
    }

    pub(super) fn deck_type(&mut self, node: &Node) -> Option<DeckType> {
        let (id, display) = self.id_and_display(node)?;
        let mut deck = DeckType {
            id,
            display,
            match_field: None,
            includes: Vec::new(),
            set_aside: Vec::new(),
            rules: Vec::new(),
            computed: Vec::new(),
            word: "deck".to_string(),
            entry: vec!["card".to_string()],
            entry_tags: Vec::new(),
            based_on: None,
            side: None,
            params: Vec::new(),
        };
        self.read_body(node, &mut deck);
        Some(deck)
    }

    /// `based-on offense` in a deck type.
    pub(super) fn based_on(&mut self, node: &Node, deck: &mut DeckType) {
        match self.noted_names(node, Wanted::DeckType, &deck.id).as_slice() {
            [base] if *base != deck.id => {
                deck.based_on = Some(base.clone());
                self.based_on_lines.push((deck.id.clone(), node.head_span()));
            }
            [_] => self.bad(node.head_span(), "a deck type is based on another deck type, not itself"),
            _ => self.bad(node.head_span(), "`based-on` names one deck type: `based-on offense`"),
        }
    }

    /// `param NAME int …` in a deck type.
    pub(super) fn deck_param(&mut self, node: &Node, deck: &mut DeckType) {
        if let Some(param) = self.deck_param_line(node, &deck.params) {
            deck.params.push(param);
        }
    }

    /// `cost-limit ROLE SYMBOL MAX "why"`.
    pub(super) fn cost_limit(&mut self, node: &Node) -> Option<CostLimit> {
        match (ident_at(node, 0), ident_at(node, 1), node.values.get(2).map(|v| &v.kind)) {
            (Some(role), Some(symbol), Some(ValueKind::Int(max))) => Some(CostLimit {
                role: role.to_string(),
                symbol: symbol.to_string(),
                max: *max,
                reason: string_at(node, 3).unwrap_or("no ship can pay more").to_string(),
            }),
            _ => {
                self.bad(node.head_span(), "write `cost-limit cost damage 24 \"why\"`");
                None
            }
        }
    }

    /// A `setup` block: a second in the same file is an error.
    pub(super) fn setup(&mut self, node: &Node, ruleset: &mut Ruleset) {
        let Some(mut setup) = super::setup::open(node, ruleset, self.diagnostics) else { return };
        self.read_body(node, &mut setup);
        ruleset.setup = Some(setup);
    }

    /// `dial manoeuvres "Manoeuvre Dial" { … }`.
    pub(super) fn dial(&mut self, node: &Node) -> Option<Dial> {
        let mut dial = super::dial::open(node, self.diagnostics)?;
        self.read_body(node, &mut dial);
        Some(dial)
    }

    /// `table "Table" { size 48 x 48 … }`.
    pub(super) fn table(&mut self, node: &Node) -> Option<Table> {
        let mut table = Table {
            display: string_at(node, 0).unwrap_or("Table").to_string(),
            width: 0,
            depth: 0,
            radius: Vec::new(),
            diameter: Vec::new(),
            deployments: Vec::new(),
            doc: None,
            field_spans: Vec::new(),
            span: node.head_span(),
        };
        self.read_body(node, &mut table);
        super::table::close(node, &table, self.diagnostics);
        Some(table)
    }

    /// `when players 3..4 { … }`: set-up steps done only for those numbers
    /// of players.
    pub(super) fn setup_when(&mut self, node: &Node, setup: &mut Setup) {
        let by_side = matches!(node.values.first().map(|v| &v.kind), Some(ValueKind::Ident(w)) if w == "side");
        let (side, players) = match by_side {
            true => (self.when_side(node), None),
            false => (None, super::setup::when_players(node, setup, self.diagnostics)),
        };
        let (before, limits) = (setup.steps.len(), setup.limits.len());
        self.read_body(node, setup);
        if by_side && setup.limits.len() > limits {
            self.diagnostics.push(
                Diagnostic::error(&codes::BAD_SETUP, "a zone's limit stands in `when players`, not in `when side`")
                    .primary(setup.limit_spans[limits], "a limit by side")
                    .help("a zone of one side takes its own `limit` in its block"),
            );
            setup.limits.truncate(limits);
            setup.limit_spans.truncate(limits);
        }
        for step in &mut setup.steps[before..] {
            step.players = players;
            step.side.clone_from(&side);
        }
        for limit in &mut setup.limits[limits..] {
            limit.players = players.unwrap_or(limit.players);
        }
    }

    /// A `zone` of the set-up.
    pub(super) fn zone(&mut self, node: &Node, setup: &mut Setup) {
        let Some(mut lines) = super::setup::open_zone(node, setup, self.diagnostics) else { return };
        self.read_body(node, &mut lines);
        if let Some(id) = lines.shared_of_a_side() {
            self.diagnostics.push(super::setup::shared_of_a_side(node, "zone", &id));
        }
        super::setup::close_zone(lines, setup);
    }

    pub(super) fn kinds_named(&mut self, node: &Node, owner: &str) -> Vec<String> {
        self.noted_names(node, Wanted::Kind, owner)
    }

    pub(super) fn roles_named(&mut self, node: &Node, owner: &str) -> Vec<String> {
        self.noted_names(node, Wanted::Role, owner)
    }

    pub(super) fn deck_types_named(&mut self, node: &Node, owner: &str) -> Vec<String> {
        self.noted_names(node, Wanted::DeckType, owner)
    }

    pub(super) fn set_aside_named(&mut self, node: &Node, owner: &str) -> Vec<String> {
        self.noted_names(node, Wanted::SetAside, owner)
    }

    /// The side a value names (`runner`), checked against the declared
    /// sides once they are all known; `owner` says where it is written.
    pub(super) fn side_at(&mut self, value: &crate::syntax::ast::Value, owner: &str) -> Option<String> {
        let ValueKind::Ident(name) = &value.kind else { return None };
        let owner = owner.to_string();
        self.name_refs.push(NameRef { wanted: Wanted::Side, owner, name: name.clone(), span: value.span });
        Some(name.clone())
    }

    /// `when side runner`: the side whose player alone does the block's
    /// steps, checked once the sides are known.
    fn when_side(&mut self, node: &Node) -> Option<String> {
        match node.values.as_slice() {
            [_, side] if matches!(side.kind, ValueKind::Ident(_)) => self.side_at(side, "a set-up's `when side` block"),
            _ => {
                self.diagnostics.push(
                    Diagnostic::error(&codes::BAD_SETUP, "`when side` names one side of the table")
                        .primary(node.head_span(), "no side, or more than one")
                        .help("write `when side runner { … }`"),
                );
                None
            }
        }
    }

    /// `side runner`: the one side a kind or deck type belongs to, checked
    /// against the declared sides once they are all known.
    pub(super) fn side_named(&mut self, node: &Node, owner: &str) -> Option<String> {
        if node.values.len() != 1 {
            self.bad(node.head_span(), "`side` names one side of the table, such as `side runner`");
        }
        self.side_at(node.values.first()?, owner)
    }

    pub(super) fn tags_named(&mut self, node: &Node, owner: &str) -> Vec<String> {
        self.noted_names(node, Wanted::Tag, owner)
    }

    /// `card-size tarot` or `card-size 70x120`: a size the print command
    /// knows, in millimetres.
    /// `enters-at 5.0`: a step of the initiative scale, in tenths; whether
    /// the scale has it is checked once the scale is known.
    pub(super) fn enters_at(&mut self, node: &Node) -> Option<i64> {
        let tenths = match node.values.as_slice() {
            [value] => match &value.kind {
                ValueKind::Decimal(d) => d.tenths(),
                ValueKind::Int(n) => n.checked_mul(10),
                _ => None,
            },
            _ => None,
        };
        if tenths.is_none() {
            self.bad(node.head_span(), "`enters-at` takes one step of the initiative scale, such as `5.0`");
        }
        tenths
    }

    pub(super) fn card_size(&mut self, node: &Node) -> Option<(f32, f32)> {
        let text = match node.values.as_slice() {
            [value] => match &value.kind {
                ValueKind::Ident(name) | ValueKind::String(name) => Some(name.clone()),
                _ => None,
            },
            _ => None,
        };
        let size = text.as_deref().map(crate::card_size::card_size);
        match size {
            Some(Ok(size)) => Some((size.w, size.h)),
            _ => {
                self.bad(
                    node.head_span(),
                    "`card-size` takes one size: poker, bridge, tarot, mini or width x height in millimetres \
                     (`\"70x120\"`, each side 20 to 400)",
                );
                None
            }
        }
    }

    /// `field NAME [TYPE…] [required] [many] { … }`.
    pub(super) fn field(&mut self, node: &Node) -> Option<FieldDef> {
        let Some(name) = ident_at(node, 0) else {
            self.bad(node.head_span(), "a field needs a name and its types: `field arc arc`");
            return None;
        };
        let mut field = FieldDef {
            name: name.to_string(),
            required: false,
            many: false,
            schema: Schema::default(),
            has_block: false,
            doc: None,
            label: None,
            by_cards_played: Vec::new(),
        };
        let mut specs_end = node.values.len();
        for (i, value) in node.values.iter().enumerate().skip(1) {
            match &value.kind {
                ValueKind::Ident(word) if word == "required" => {
                    field.required = true;
                    specs_end = specs_end.min(i);
                }
                ValueKind::Ident(word) if word == "many" => {
                    field.many = true;
                    specs_end = specs_end.min(i);
                }
                _ => {}
            }
        }
        // `effects` and `flag` in the head are shorthands for a block of
        // effect lines and for a field that takes nothing.
        let specs_from = match ident_at(node, 1) {
            Some("effects") => {
                field.schema.effects = true;
                2
            }
            Some("flag") => 2,
            _ => 1,
        };
        field.schema.takes = self.type_specs_until(node, specs_from, specs_end);
        self.read_body(node, &mut field);
        // Fields and effect lines are what a field's block holds.
        field.has_block |= field.schema.effects || !field.schema.fields.is_empty();
        if !field.has_block {
            if let Some(rule) = field.schema.rules.first() {
                self.bad(
                    rule.span,
                    format!("field `{}` holds no block for this rule to check; declare it in the kind", field.name),
                );
            }
        }
        Some(field)
    }

    /// `body effects` or `body SHAPE` in a field.
    pub(super) fn field_body(&mut self, node: &Node, field: &mut FieldDef) {
        field.has_block = true;
        match ident_at(node, 0) {
            Some("effects") => field.schema.effects = true,
            Some(shape) => {
                self.type_refs.push((format!("shape:{shape}"), node.head_span()));
                field.schema.shape = Some(shape.to_string());
            }
            None => self.bad(node.head_span(), "`body` names `effects` or a shape"),
        }
    }

    /// `body effects` in a kind or shape, the same as an `effects` line.
    pub(super) fn body_effects(&mut self, node: &Node, schema: &mut Schema) {
        match ident_at(node, 0) {
            Some("effects") => schema.effects = true,
            _ => self.bad(node.head_span(), "here `body` takes only `effects`; a field's block may take a shape"),
        }
    }

    /// A field's `by-cards-played` block: a line `played N value K` (the
    /// field's value K, from 1, applies when a side plays N other cards) or
    /// `played N none`, each N once.
    pub(super) fn by_cards_played(&mut self, node: &Node, values: usize) -> Vec<CardsPlayed> {
        const FORM: &str =
            "write `played 2 value 1` (the field's first value when 2 other cards are played) or `played 3 none`";
        let mut played = Played { values, lines: Vec::new() };
        self.read_body(node, &mut played);
        if played.lines.is_empty() {
            self.bad(node.head_span(), format!("`by-cards-played` holds no line: {FORM}"));
        }
        played.lines
    }

    /// One `played` line of a field's `by-cards-played` block.
    pub(super) fn played(&mut self, line: &Node, into: &mut Played) {
        let values = into.values;
        let played = match line.values.first().map(|v| &v.kind) {
            Some(ValueKind::Int(n)) => u32::try_from(*n).ok(),
            _ => None,
        };
        let value = match (line.values.get(1).map(|v| &v.kind), line.values.get(2).map(|v| &v.kind)) {
            (Some(ValueKind::Ident(w)), None) if w == "none" => Some(None),
            (Some(ValueKind::Ident(w)), Some(ValueKind::Int(k))) if w == "value" => {
                u32::try_from(*k).ok().filter(|k| (1..=values as u32).contains(k)).map(Some)
            }
            _ => None,
        };
        match (played, value) {
            (Some(played), _) if into.lines.iter().any(|c| c.played == played) => {
                self.bad(line.head_span(), format!("`played {played}` is given twice"))
            }
            (Some(played), Some(value)) => into.lines.push(CardsPlayed { played, value }),
            _ => self.bad(
                line.head_span(),
                format!("expected `played N value K`, K from 1 to {values} (the field's values), or `played N none`"),
            ),
        }
    }

    pub(super) fn type_specs(&mut self, node: &Node, from: usize) -> Vec<TypeSpec> {
        self.type_specs_until(node, from, node.values.len())
    }

    fn type_specs_until(&mut self, node: &Node, from: usize, to: usize) -> Vec<TypeSpec> {
        let mut specs: Vec<TypeSpec> = Vec::new();
        // After `or`, quoted tokens are special values of the type before it:
        // where the `or` is, and how many tokens followed it.
        let mut or_at: Option<(Span, usize)> = None;
        for value in node.values.iter().take(to).skip(from) {
            if let Some((at, 0)) = or_at.filter(|_| !matches!(value.kind, ValueKind::String(_))) {
                self.diagnostics.push(super::special::dangling_or(at));
            }
            let (word, repeat) = match &value.kind {
                ValueKind::Ident(word) if word == "or" => {
                    match specs.last() {
                        Some(_) => or_at = Some((value.span, 0)),
                        None => self.bad(value.span, "`or` follows a type: `int or \"*\"`"),
                    }
                    continue;
                }
                ValueKind::String(token) if or_at.is_some() => {
                    if let (Some(last), Some((_, count))) = (specs.last_mut(), or_at.as_mut()) {
                        last.specials.push(token.clone());
                        *count += 1;
                        self.special_refs.push((token.clone(), last.ty.clone(), value.span));
                    }
                    continue;
                }
                ValueKind::Ident(word) => (word.as_str(), Repeat::One),
                ValueKind::Word(word) if word.ends_with('+') => (&word[..word.len() - 1], Repeat::OneOrMore),
                ValueKind::Word(word) if word.ends_with('*') => (&word[..word.len() - 1], Repeat::ZeroOrMore),
                ValueKind::Call { name, args } if name.text == "set" => {
                    match args.first().map(|a| &a.kind) {
                        Some(ValueKind::Ident(inner)) => {
                            self.type_refs.push((inner.clone(), value.span));
                            specs.push(TypeSpec::one(Type::Set(inner.clone())));
                        }
                        _ => self.bad(value.span, "`set` names an enum: `set(arc-token)`"),
                    }
                    continue;
                }
                ValueKind::Range { low, high } => {
                    or_at = None;
                    match specs.last_mut() {
                        Some(last) => last.bounds = Some((*low, *high)),
                        None => self.bad(value.span, "bounds follow the type they limit: `int 1..`"),
                    }
                    continue;
                }
                _ => {
                    self.bad(value.span, "expected a type name such as `int`, `text` or `initiative+`");
                    continue;
                }
            };
            or_at = None;
            // `int-or-star` is short for `int or "*"`.
            if word == "int-or-star" {
                specs.push(TypeSpec { repeat, specials: vec!["*".into()], ..TypeSpec::one(Type::Int) });
                continue;
            }
            let ty = match Type::BUILT_IN.iter().find(|(name, _)| *name == word) {
                Some((_, ty)) => ty.clone(),
                None => {
                    self.type_refs.push((word.to_string(), value.span));
                    Type::Enum(word.to_string())
                }
            };
            specs.push(TypeSpec { repeat, ..TypeSpec::one(ty) });
        }
        if let Some((at, 0)) = or_at {
            self.diagnostics.push(super::special::dangling_or(at));
        }
        specs
    }

    pub(super) fn constraint(&mut self, node: &Node) -> Option<Constraint> {
        let message = string_at(node, 0).map(str::to_string);
        let (Some(message), Some(expr)) = (message, node.expr.clone()) else {
            self.bad(node.head_span(), "a rule is `require \"what it says\" EXPRESSION`");
            return None;
        };
        let severity = if node.name.text == "recommend" { Severity::Warning } else { Severity::Error };
        // As written, with spacing normalised (the expression is on one line).
        let text = crate::syntax::ast::single_spaced(self.files.text(expr.span()));
        Some(Constraint { message, severity, text, expr, compiled: None, span: node.span })
    }

    /// `def NAME(PARAM, …) EXPRESSION`: a definition of an extension
    /// replaces the base's of the same name.
    pub(super) fn definition(&mut self, node: &Node) {
        let usage = "a definition is `def NAME(PARAM, …) EXPRESSION`, such as `def at-most(n) count() <= n`";
        let (head, Some(body)) = (node.values.first(), node.expr.clone()) else {
            self.bad(node.head_span(), usage);
            return;
        };
        let (name, params) = match head.map(|v| &v.kind) {
            Some(ValueKind::Ident(id)) => (Name { text: id.clone(), span: node.values[0].span }, Vec::new()),
            Some(ValueKind::Call { name, args }) => {
                let params: Option<Vec<Name>> = args
                    .iter()
                    .map(|a| match &a.kind {
                        ValueKind::Ident(id) => Some(Name { text: id.clone(), span: a.span }),
                        _ => None,
                    })
                    .collect();
                let Some(params) = params else {
                    self.bad(node.values[0].span, "a definition's parameters are names: `def at-most(n)`");
                    return;
                };
                (name.clone(), params)
            }
            _ => {
                self.bad(node.head_span(), usage);
                return;
            }
        };
        if let Some(at) =
            params.iter().enumerate().find_map(|(i, p)| params[..i].iter().any(|q| q.text == p.text).then_some(p.span))
        {
            self.bad(at, "a definition names each parameter once");
            return;
        }
        if let Some(&at) = self.def_index.get(&name.text) {
            if let Some(first) = self.defs[at].as_ref().filter(|first| first.span.file == node.span.file) {
                self.diagnostics.push(
                    Diagnostic::error(&codes::DUPLICATE_DECLARATION, format!("`def {}` is declared twice", name.text))
                        .primary(name.span, "declared again here")
                        .secondary(first.name.span, "first declared here"),
                );
                return;
            }
            self.defs[at] = None;
        }
        self.def_index.insert(name.text.clone(), self.defs.len());
        self.defs.push(Some(super::rules::Def { name, params, body, span: node.span }));
    }

    /// The definitions, less those whose name means something else in a
    /// rule (each reported): calling them would be ambiguous.
    fn usable_defs(&mut self, ruleset: &Ruleset) -> Vec<super::rules::Def> {
        let names = super::rules::Names::new(ruleset, &[]);
        self.def_index.clear();
        let mut defs: Vec<super::rules::Def> = std::mem::take(&mut self.defs).into_iter().flatten().collect();
        defs.retain(|def| {
            let taken = names.taken(&def.name.text);
            if taken {
                self.diagnostics.push(
                    Diagnostic::error(
                        &codes::BAD_RULESET,
                        format!("`{}` already means something in a rule", def.name.text),
                    )
                    .primary(def.name.span, "a function, or a name of the ruleset")
                    .help("give the definition a name of its own"),
                );
            }
            !taken
        });
        defs
    }

    /// `param NAME int [LOW..HIGH] [DEFAULT]` in a deck type.
    fn deck_param_line(&mut self, node: &Node, declared: &[DeckParam]) -> Option<DeckParam> {
        let usage = "a deck type's parameter is `param NAME int [LOW..HIGH] [DEFAULT]`, such as \
                     `param agreed-points int 500..999 999`";
        let (Some(name), Some("int")) = (ident_at(node, 0), ident_at(node, 1)) else {
            self.bad(node.head_span(), usage);
            return None;
        };
        let mut param = DeckParam { name: name.to_string(), bounds: None, default: None, span: node.values[0].span };
        for value in &node.values[2..] {
            match (&value.kind, param.bounds, param.default) {
                (ValueKind::Range { low, high }, None, None) => param.bounds = Some((*low, *high)),
                (ValueKind::Int(n), _, None) => param.default = Some(*n),
                _ => {
                    self.bad(value.span, usage);
                    return None;
                }
            }
        }
        if let (Some(n), Some((low, high))) = (param.default, param.bounds) {
            if n < low || high.is_some_and(|h| n > h) {
                self.bad(node.values[node.values.len() - 1].span, "the default is outside the parameter's bounds");
                return None;
            }
        }
        if declared.iter().any(|p| p.name == param.name) {
            self.diagnostics.push(
                Diagnostic::error(&codes::DUPLICATE_DECLARATION, format!("parameter `{name}` is declared twice"))
                    .primary(param.span, "declared again here"),
            );
            return None;
        }
        Some(param)
    }

    /// A parameter is set by a deck line of its name, so it may not share
    /// the word of another line of the deck.
    /// A deck type `based-on` another finds its original by the match
    /// value, so both must have a `match` field.
    fn based_on_matches(&mut self, deck: &DeckType, line: Span, ruleset: &Ruleset) {
        let Some(base) = deck.based_on.as_deref().and_then(|b| ruleset.deck_type(b)) else { return };
        for (owner, has) in [(&deck.id, &deck.match_field), (&base.id, &base.match_field)] {
            if has.is_none() {
                self.diagnostics.push(
                    Diagnostic::error(
                        &codes::BAD_RULESET,
                        format!(
                            "deck type `{}` is based on `{}`, so `{owner}` needs a `match` field",
                            deck.id, base.id
                        ),
                    )
                    .primary(line, "compared by its match value")
                    .help(
                        "a deck's original is the deck of the base type with the same match value: add `match symbol`",
                    ),
                );
            }
        }
    }

    fn deck_words_clash(&mut self, deck: &DeckType, deck_words: &[&str]) {
        for param in &deck.params {
            let word = &param.name;
            let taken = deck.entry.contains(word)
                || deck.match_field.as_ref() == Some(word)
                || deck_words.contains(&word.as_str())
                || ["allow", "warn", "deny"].contains(&word.as_str());
            if taken {
                self.bad(param.span, format!("`{word}` already starts another line of a deck of this type"));
            }
        }
    }

    /// Checks every cross-reference once all declarations are read.
    fn resolve(&mut self, ruleset: &mut Ruleset, _file: FileId) {
        let kinds: Vec<&str> = ruleset.kinds.iter().map(|k| k.id.as_str()).collect();
        let enum_names: Vec<&str> = ruleset.enums.iter().map(|e| e.id.as_str()).collect();
        let shape_names: Vec<&str> = ruleset.shapes.iter().map(|(n, _)| n.as_str()).collect();
        for (name, span) in std::mem::take(&mut self.type_refs) {
            if let Some(shape) = name.strip_prefix("shape:") {
                if !shape_names.contains(&shape) {
                    self.diagnostics.push(
                        Diagnostic::error(&codes::BAD_RULESET, format!("no shape is named `{shape}`"))
                            .primary(span, "unknown shape")
                            .suggest(suggest(shape, shape_names.iter().copied())),
                    );
                }
            } else if !enum_names.contains(&name.as_str()) {
                let candidates = Type::BUILT_IN.iter().map(|(n, _)| *n).chain(enum_names.iter().copied());
                self.diagnostics.push(
                    Diagnostic::error(
                        &codes::BAD_RULESET,
                        format!("`{name}` is neither a built-in type nor an enum of this ruleset"),
                    )
                    .primary(span, "unknown type")
                    .suggest(Type::synonym(&name).or_else(|| suggest(&name, candidates))),
                );
            }
        }
        let roles: Vec<&str> = ruleset.roles.iter().map(|r| r.id.as_str()).collect();
        let tags: Vec<&str> = ruleset.tags.iter().map(|t| t.id.as_str()).collect();
        let deck_types: Vec<&str> = ruleset.deck_types.iter().map(|d| d.id.as_str()).collect();
        let sides: Vec<&str> = ruleset.sides.iter().map(|s| s.id.as_str()).collect();
        let mut undeclared: Vec<Undeclared> = Vec::new();
        for NameRef { wanted, owner, name, span } in std::mem::take(&mut self.name_refs) {
            let (declared, message) = match wanted {
                Wanted::Kind => (&kinds, format!("`{owner}` is limited to kind `{name}`, which is not declared")),
                Wanted::Role => (&roles, format!("kind `{owner}` allows role `{name}`, which is not declared")),
                Wanted::Tag => {
                    (&tags, format!("deck type `{owner}` gives its lines tag `{name}`, which is not declared"))
                }
                Wanted::DeckType => {
                    (&deck_types, format!("deck type `{owner}` names deck type `{name}`, which is not declared"))
                }
                Wanted::SetAside => {
                    (&kinds, format!("deck type `{owner}` sets aside kind `{name}`, which is not declared"))
                }
                Wanted::Side => (&sides, format!("{owner} belongs to side `{name}`, which is not declared")),
            };
            if !declared.contains(&name.as_str()) {
                let meant = suggest(&name, declared.iter().copied()).map(str::to_string);
                self.diagnostics.push(
                    Diagnostic::error(&codes::BAD_RULESET, message)
                        .primary(span, "not declared in this ruleset")
                        .suggest(meant.as_deref()),
                );
                undeclared.push(Undeclared { wanted, owner, name, meant });
            }
        }
        forget_undeclared(ruleset, &undeclared);
        super::timing::resolve(ruleset, std::mem::take(&mut self.timing), self.diagnostics);
        for (token, ty, span) in std::mem::take(&mut self.special_refs) {
            super::special::check_accepted(&token, &ty, span, ruleset, self.diagnostics);
        }
        super::setup::check(ruleset, self.diagnostics);
        super::table::check(ruleset, self.diagnostics);
        super::dial::check(ruleset, self.diagnostics);
        arcs_within(ruleset, self.diagnostics);
        self.keyword_effects_resolve(ruleset);
        let deck_words: Vec<&str> = ruleset.deck_types.iter().map(|d| d.word.as_str()).collect();
        for deck in &ruleset.deck_types {
            self.deck_words_clash(deck, &deck_words);
        }
        for (id, span) in std::mem::take(&mut self.based_on_lines) {
            if let Some(deck) = ruleset.deck_type(&id) {
                self.based_on_matches(deck, span, ruleset);
            }
        }
        self.compile_rules(ruleset);
    }

    /// Compiles every rule's expression; a rule with a mistake is reported
    /// and left out, so that no card or deck is then said to break it.
    fn compile_rules(&mut self, ruleset: &mut Ruleset) {
        let defs = self.usable_defs(ruleset);
        ruleset.definitions = defs
            .iter()
            .map(|d| Definition {
                name: d.name.text.clone(),
                params: d.params.iter().map(|p| p.text.clone()).collect(),
                text: crate::syntax::ast::single_spaced(self.files.text(d.body.span())),
            })
            .collect();
        let used_in_play = super::play::resolve::resolve(ruleset, &defs, self.play_written, self.diagnostics);
        let compiled = {
            use super::rules::{Compiler, Names, Scope, Ty};
            let names = Names::new(ruleset, &defs);
            let mut compiled: Vec<(Span, Option<Arc<super::rules::Compiled>>)> = Vec::new();
            let mut compile = |compiler: &Compiler, rule: &Constraint, want: Ty, diagnostics: &mut Vec<Diagnostic>| {
                compiled.push((rule.span, compiler.compile(&rule.expr, want, diagnostics).map(Arc::new)));
            };
            for (i, deck) in ruleset.deck_types.iter().enumerate() {
                let scope = Scope::Deck { includes: !deck.includes.is_empty(), based_on: deck.based_on.is_some() };
                let compiler = Compiler::new(&names, scope, Some(i));
                for rule in &deck.rules {
                    compile(&compiler, rule, Ty::Truth, self.diagnostics);
                }
                for rule in &deck.computed {
                    compile(&compiler, rule, Ty::Number, self.diagnostics);
                }
            }
            let compiler = Compiler::new(&names, Scope::Card, None);
            let mut schemas: Vec<&Schema> = ruleset.kinds.iter().map(|k| &k.schema).collect();
            schemas.extend(ruleset.shapes.iter().map(|(_, s)| s));
            while let Some(schema) = schemas.pop() {
                for rule in &schema.rules {
                    compile(&compiler, rule, Ty::Truth, self.diagnostics);
                }
                schemas.extend(schema.fields.iter().map(|f| &f.schema));
            }
            let compiler = Compiler::new(&names, Scope::Play, None);
            for rule in &ruleset.play_limits {
                compile(&compiler, rule, Ty::Truth, self.diagnostics);
            }
            let unused = names.unused().filter(|d| !used_in_play.contains(&d.name.text));
            self.diagnostics.extend(unused.map(super::rules::defs::unused));
            (compiled, names.tested_names())
        };
        let (compiled, tested) = compiled;
        ruleset.tested_names = tested.into_iter().map(|(name, span)| (name.into(), span)).collect();
        let broken: Vec<Span> = compiled.iter().filter(|(_, c)| c.is_none()).map(|(span, _)| *span).collect();
        if !broken.is_empty() {
            ruleset.drop_rules(&broken);
        }
        let compiled: std::collections::HashMap<Span, Arc<super::rules::Compiled>> =
            compiled.into_iter().filter_map(|(span, c)| Some((span, c?))).collect();
        ruleset.each_rule_mut(|rule| rule.compiled = compiled.get(&rule.span).cloned());
    }

    /// The names a line lists, each noted to be checked as a kind or role
    /// once every declaration is read.
    fn noted_names(&mut self, node: &Node, wanted: Wanted, owner: &str) -> Vec<String> {
        let mut names = Vec::new();
        for value in &node.values {
            if let ValueKind::Ident(name) = &value.kind {
                let owner = owner.to_string();
                self.name_refs.push(NameRef { wanted, owner, name: name.clone(), span: value.span });
                names.push(name.clone());
            }
        }
        names
    }
}

impl Loader<'_> {
    /// An enum's `printed` spellings, each naming one of its values and
    /// spelling (in any case and spacing) neither another spelling nor a
    /// value's id or label: such a spelling would read as two values.
    fn printed_spellings(
        &mut self,
        id: &str,
        values: &[String],
        labels: &std::collections::BTreeMap<String, String>,
        lines: Vec<(String, String, Span)>,
    ) -> std::collections::BTreeMap<String, String> {
        use super::names::spelling;
        let mut printed: std::collections::BTreeMap<String, String> = std::collections::BTreeMap::new();
        for (written, value, span) in lines {
            let spelt = spelling(&written);
            let taken: Option<String> = values
                .iter()
                .find(|v| spelling(v) == spelt || labels.get(*v).is_some_and(|l| spelling(l) == spelt))
                .or_else(|| printed.iter().find(|(p, _)| spelling(p) == spelt).map(|(_, v)| v))
                .cloned();
            if !values.contains(&value) {
                self.bad(span, format!("`printed \"{written}\"` names `{value}`, which is not a value of enum `{id}`"));
            } else if let Some(other) = taken.filter(|other| *other != value) {
                self.bad(
                    span,
                    format!("`{written}` already reads as `{other}`: it cannot also be printed for `{value}`"),
                );
            } else {
                printed.insert(written, value);
            }
        }
        printed
    }
}

/// `printed "S(L)" "S(Left)"` in an enum's block: a spelling, then the value
/// it stands for.  A line of the value `printed` (`printed "Printed"`) is
/// none.
fn printed_line(node: &Node) -> Option<(String, String, Span)> {
    let text = |v: &crate::syntax::ast::Value| match &v.kind {
        ValueKind::Ident(s) | ValueKind::String(s) => Some(s.clone()),
        _ => None,
    };
    match node.values.as_slice() {
        [written, value] if node.name.text == "printed" && node.block.is_none() => {
            Some((text(written)?, text(value)?, node.span))
        }
        _ => None,
    }
}

pub(super) fn idents(node: &Node) -> Vec<String> {
    (0..node.values.len()).filter_map(|i| ident_at(node, i)).map(str::to_string).collect()
}

/// A field's `by-cards-played` lines while its block is read.
pub struct Played {
    /// How many values the field takes.
    values: usize,
    lines: Vec<CardsPlayed>,
}

/// A kind or role a declaration names that is not declared, and the one
/// it was probably meant to be.
struct Undeclared {
    wanted: Wanted,
    owner: String,
    name: String,
    meant: Option<String>,
}

/// Reads each undeclared kind or role a declaration names (each reported)
/// as the one it was probably meant to be, or leaves it out: a keyword
/// limited to a misspelt kind, or a kind allowing a misspelt role, is not
/// then refused on every card that uses it.
fn forget_undeclared(ruleset: &mut Ruleset, undeclared: &[Undeclared]) {
    let mend = |names: &mut Vec<String>, name: &str, meant: &Option<String>| match meant {
        Some(meant) => names.iter_mut().filter(|n| *n == name).for_each(|n| *n = meant.clone()),
        None => names.retain(|n| n != name),
    };
    for Undeclared { wanted, owner, name, meant } in undeclared {
        match wanted {
            Wanted::Kind => {
                let keywords = ruleset.keywords.iter_mut().filter(|k| k.id == *owner).map(|k| &mut k.only);
                let tags = ruleset.tags.iter_mut().filter(|t| t.id == *owner).map(|t| &mut t.only);
                keywords.chain(tags).for_each(|only| mend(only, name, meant));
            }
            Wanted::Role => {
                ruleset.kinds.iter_mut().filter(|k| k.id == *owner).for_each(|k| mend(&mut k.roles, name, meant));
            }
            Wanted::DeckType => {
                let decks = ruleset.deck_types.iter_mut().filter(|d| d.id == *owner);
                decks.for_each(|d| mend(&mut d.includes, name, meant));
            }
            Wanted::Side => mend_side(ruleset, owner, name, meant),
            Wanted::Tag | Wanted::SetAside => {}
        }
    }
}

/// A misspelt side is read as the one meant, or as no side, wherever it
/// was written: `owner` says where, as the diagnostic did.
fn mend_side(ruleset: &mut Ruleset, owner: &str, name: &str, meant: &Option<String>) {
    let is = |what: &str, id: &str| owner == format!("{what} `{id}`");
    let kinds = ruleset.kinds.iter_mut().filter(|k| is("kind", &k.id)).map(|k| &mut k.side);
    let decks = ruleset.deck_types.iter_mut().filter(|d| is("deck type", &d.id)).map(|d| &mut d.side);
    let phases = ruleset.phases.iter_mut().flat_map(|p| {
        let own = is("phase", &p.id).then_some(&mut p.side);
        own.into_iter().chain(p.steps.iter_mut().filter(|s| is("step", &s.id)).map(|s| &mut s.side))
    });
    let setup = ruleset.setup.as_mut();
    let (counters, zones, steps) = match setup {
        Some(s) => (s.counters.iter_mut(), s.zones.iter_mut(), s.steps.iter_mut()),
        None => Default::default(),
    };
    let counters = counters.filter(|c| is("counter", &c.id)).map(|c| &mut c.side);
    let zones = zones.filter(|z| is("zone", &z.id)).map(|z| &mut z.side);
    let steps = steps.map(|s| &mut s.side).filter(|side| side.as_deref() == Some(name));
    let all = kinds.chain(decks).chain(phases).chain(counters).chain(zones).chain(steps);
    all.for_each(|side| side.clone_from(meant));
}

/// Each arc a ruleset says lies within another (`within front`) is an arc
/// with angles, and lies within that arc's angles.
fn arcs_within(ruleset: &Ruleset, diagnostics: &mut Vec<Diagnostic>) {
    for arc in &ruleset.arcs {
        let (Some(outer_id), Some(span)) = (&arc.within, arc.within_span) else { continue };
        let Some(outer) = ruleset.arcs.iter().find(|a| &a.id == outer_id) else {
            let arcs = ruleset.arcs.iter().map(|a| a.id.as_str());
            diagnostics.push(
                Diagnostic::error(&codes::BAD_RULESET, format!("no arc is named `{outer_id}`"))
                    .primary(span, "not an arc of this ruleset")
                    .suggest(suggest(outer_id, arcs)),
            );
            continue;
        };
        let (Some(inner), Some(outer_angles)) = (arc.angles, outer.angles) else {
            diagnostics.push(
                Diagnostic::error(&codes::BAD_RULESET, format!("arc `{}` or `{outer_id}` has no angles", arc.id))
                    .primary(span, "whether one lies within the other needs both arcs' angles")
                    .help("give both arcs `angles FROM TO from centre|edge`"),
            );
            continue;
        };
        if !inner.within(&outer_angles) {
            let shown = |a: ArcAngles| format!("{} to {} from its {:?}", a.from, a.to, a.origin).to_lowercase();
            diagnostics.push(
                Diagnostic::error(
                    &codes::BAD_RULESET,
                    format!("arc `{}` does not lie within arc `{outer_id}`", arc.id),
                )
                .primary(span, format!("`{}` covers {}", arc.id, shown(inner)))
                .note(format!("`{outer_id}` covers {}", shown(outer_angles)))
                .help(if inner.origin == outer_angles.origin {
                    "change the angles, or leave `within` out"
                } else {
                    "an arc lies within another measured from the same place: measure both `from centre` or both \
                     `from edge`"
                }),
            );
        }
    }
}
