//! Going to a name's declaration, finding its uses, and hover text.

use super::decls::Decl;
use super::sites::{sites, Site};
use super::{covers, parse, Analysis};
use crate::ir::Card;
use crate::source::{FileId, Span};

/// Hover text: Markdown, and the span it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    pub span: Span,
    pub markdown: String,
}

/// How many lines of a card its hover shows.
const CARD_LINES: usize = 16;

impl Analysis {
    /// Where the name at an offset is declared: a card, or a line of the
    /// ruleset.
    pub fn definition(&self, file: FileId, offset: usize) -> Vec<Span> {
        let Some((at, site)) = self.site_at(file, offset) else { return Vec::new() };
        let Some(game) = self.game_of_file(file) else { return Vec::new() };
        match &site {
            Site::Card(name) => self.card(&game, name).map(|c| vec![self.card_name_span(c)]).unwrap_or_default(),
            Site::Deck(name) => self.decks(&game, name).map(|d| d.span).collect(),
            _ => self.decls_at(&game, at, &site).iter().map(|d| d.span).collect(),
        }
    }

    /// The declaration whose id is written at `at`, else those `site` may
    /// mean.
    fn decls_at(&self, game: &str, at: Span, site: &Site) -> Vec<&Decl> {
        let chain = self.decls_of(game);
        let own = chain.iter().flat_map(|r| r.decls.iter()).find(|d| d.span == at);
        match own {
            Some(decl) => vec![decl],
            None => self.decls_for(game, site),
        }
    }

    /// The declarations a site may mean, the most likely first.
    fn decls_for(&self, game: &str, site: &Site) -> Vec<&Decl> {
        let chain = self.decls_of(game);
        let all = || chain.iter().flat_map(|r| r.decls.iter());
        let field = |d: &Decl, name: &str| d.what == "field" && d.id == name;
        let found: Vec<&Decl> = match site {
            Site::Kind(kind) => all().filter(|d| d.what == "kind" && d.id == *kind).collect(),
            // The kind's own field, else one of a shape the kind uses.
            Site::Field { kind, name } => {
                let own: Vec<&Decl> = all().filter(|d| field(d, name) && d.parent.as_ref() == Some(kind)).collect();
                if own.is_empty() {
                    all().filter(|d| field(d, name)).collect()
                } else {
                    own
                }
            }
            Site::Card(_) | Site::Name(_) | Site::Icon(_) | Site::Lint(_) | Site::Deck(_) => Vec::new(),
        };
        if !found.is_empty() {
            return first_of_each_ruleset(found);
        }
        // A line in an effect block is a role; a value may be anything the
        // ruleset names, fields aside.
        let name = site.text();
        first_of_each_ruleset(all().filter(|d| d.id == name && d.what != "field").collect())
    }

    /// A card of a game by name.
    pub fn card(&self, game: &str, name: &str) -> Option<&Card> {
        self.game(game)?.cards.iter().map(|c| &**c).find(|c| c.name == name)
    }

    /// A game's decks of a name (decks inside two others may share one).
    fn decks<'a>(&'a self, game: &str, name: &'a str) -> impl Iterator<Item = &'a crate::ir::Deck> + 'a {
        self.game(game).into_iter().flat_map(|g| g.decks.iter()).filter(move |d| d.name == name)
    }

    /// The name in a card's head (its head when it cannot be found).
    fn card_name_span(&self, card: &Card) -> Span {
        let (_, tree) = parse(&self.files, card.span.file);
        let head = tree.nodes.iter().find(|n| n.span.start == card.extent.start);
        head.and_then(|n| n.values.first()).map_or(card.span, |v| v.span)
    }

    /// Every use of the name at an offset in the files of its game, its
    /// declaration included, in file order.
    pub fn references(&self, file: FileId, offset: usize) -> Vec<Span> {
        let Some((_, site)) = self.site_at(file, offset) else { return Vec::new() };
        let Some(game) = self.game_of_file(file) else { return Vec::new() };
        let chain: Vec<String> = self.decls_of(&game).iter().map(|r| r.id.clone()).collect();
        let name = site.text();
        // Only files that hold the name's text can use it: most are never
        // parsed.
        let candidates: Vec<FileId> = self.files.ids().filter(|id| self.files.get(*id).text.contains(name)).collect();
        let found = crate::parallel::map(&candidates, |id| {
            let (_, tree) = parse(&self.files, *id);
            let of_game = crate::check::game_of(&tree)
                .or_else(|| crate::check::ruleset_id(&tree))
                .is_some_and(|g| g == game || chain.iter().any(|c| c == g));
            if !of_game {
                return Vec::new();
            }
            sites(&self.files, &tree, &self.deck_words(&tree))
                .into_iter()
                .filter(|(_, s)| same_target(s, &site))
                .map(|(span, _)| span)
                .collect()
        });
        found.into_iter().flatten().collect()
    }

    /// What the name at an offset means, and the explanation of each
    /// diagnostic there.
    pub fn hover(&self, file: FileId, offset: usize) -> Option<Hover> {
        let site = self.site_at(file, offset);
        let mut parts = Vec::new();
        let mut span = None;
        let (_, tree) = super::parse(&self.files, file);
        if crate::check::is_ruleset(&tree) {
            if let Some((at, text)) = super::language::line_named_at(&tree, offset) {
                parts.push(text);
                span = Some(at);
            }
        }
        if let (Some((at, site)), Some(game)) = (&site, self.game_of_file(file)) {
            let text = match site {
                Site::Card(name) => self.card(&game, name).map(|c| self.card_summary(c)),
                Site::Deck(name) => self.decks(&game, name).next().map(|deck| {
                    let ruleset = self.game(&game).map(|g| &g.ruleset);
                    let kind = ruleset.and_then(|r| r.deck_type_of(&deck.deck_type)).map(|t| t.display.as_str());
                    let cards: i64 = deck.cards.iter().map(|c| c.count).sum();
                    format!("**{}** — {}, {cards} cards", deck.name, kind.unwrap_or(""))
                }),
                Site::Lint(name) => crate::lint::lint(name).map(|lint| {
                    let code = lint.code;
                    format!(
                        "lint `{}` ({}), {} by default\n\n{}",
                        lint.name,
                        code.id,
                        lint.default.word(),
                        code.explanation
                    )
                }),
                _ => self.decls_at(&game, *at, site).first().map(|d| self.decl_summary(d)),
            };
            if let Some(text) = text {
                parts.push(text);
                span = Some(*at);
            }
        }
        for diagnostic in self.diagnostics_in(file) {
            let Some(at) = diagnostic.primary_span().filter(|s| covers(*s, offset)) else { continue };
            let code = diagnostic.code;
            parts.push(format!("**{}** `{}`: {}\n\n{}", code.id, code.name, diagnostic.message, code.explanation));
            span.get_or_insert(at);
        }
        Some(Hover { span: span?, markdown: parts.join("\n\n---\n\n") })
    }

    /// A declaration as written (its head and the lines of its block), and
    /// its doc.
    fn decl_summary(&self, decl: &Decl) -> String {
        let mut code = self.files.text(decl.head).to_string();
        if decl.enum_value {
            code = format!("{} (a value of enum `{}`)", decl.id, decl.parent.as_deref().unwrap_or(""));
        }
        for detail in decl.details.iter().take(CARD_LINES) {
            code.push_str("\n  ");
            code.push_str(self.files.text(*detail));
        }
        let mut out = format!("```cardsmith\n{code}\n```");
        if let Some(doc) = &decl.doc {
            out.push_str("\n\n");
            out.push_str(doc);
        }
        out
    }

    /// A card's kind and its first lines.
    fn card_summary(&self, card: &Card) -> String {
        let text = self.files.text(card.extent);
        let mut lines: Vec<&str> = text.lines().take(CARD_LINES + 1).collect();
        if lines.len() > CARD_LINES {
            lines[CARD_LINES] = "  …";
        }
        let kind = self.game_of_card(card).and_then(|g| g.ruleset.kind_of(&card.kind)).map(|k| k.display.as_str());
        let file = &self.files.get(card.span.file).name;
        let (line, _) = self.files.get(card.span.file).line_column(card.span.start as usize);
        format!(
            "**{}** — {}\n\n```cardsmith\n{}\n```\n\n{file}:{line}",
            card.name,
            kind.unwrap_or(""),
            lines.join("\n")
        )
    }

    fn game_of_card(&self, card: &Card) -> Option<&crate::ir::Game> {
        self.project.games.iter().find(|g| g.cards.iter().any(|c| c.span == card.span))
    }
}

/// Whether two sites name the same thing: a card, or a name of the ruleset
/// (used as a kind, a field, a value or an icon alike).
fn same_target(a: &Site, b: &Site) -> bool {
    match (a, b) {
        (Site::Card(x), Site::Card(y)) | (Site::Lint(x), Site::Lint(y)) | (Site::Deck(x), Site::Deck(y)) => x == y,
        (Site::Card(_) | Site::Lint(_) | Site::Deck(_), _) | (_, Site::Card(_) | Site::Lint(_) | Site::Deck(_)) => {
            false
        }
        _ => a.text() == b.text(),
    }
}

/// A declaration of an extension replaces the base's of the same name: the
/// first ruleset's declarations that match are the answer.
fn first_of_each_ruleset(found: Vec<&Decl>) -> Vec<&Decl> {
    let Some(first) = found.first() else { return found };
    let file = first.span.file;
    found.into_iter().filter(|d| d.span.file == file).collect()
}
