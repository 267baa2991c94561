//! The requests the server answers, each converted to the library's
//! question and its answer converted back.

use super::convert::{self, Encoding};
use super::documents::Documents;
use super::parse;
use cardsmith::ide::{Action, CompletionKind, Symbol, SymbolKind, TokenKind};
use cardsmith::source::{FileId, Span};
use lsp_server::ErrorCode;
use lsp_types as lsp;
use serde_json::Value;

type Answer = Result<Value, (ErrorCode, String)>;

/// The highlighting legend: [`TokenKind`]s by index.
const TOKEN_TYPES: &[lsp::SemanticTokenType] = &[
    lsp::SemanticTokenType::KEYWORD,
    lsp::SemanticTokenType::PROPERTY,
    lsp::SemanticTokenType::FUNCTION,
    lsp::SemanticTokenType::STRING,
    lsp::SemanticTokenType::NUMBER,
    lsp::SemanticTokenType::ENUM_MEMBER,
    lsp::SemanticTokenType::COMMENT,
];

fn token_type(kind: TokenKind) -> Option<u32> {
    Some(match kind {
        TokenKind::Item | TokenKind::Keyword => 0,
        TokenKind::Property => 1,
        TokenKind::Function => 2,
        TokenKind::String => 3,
        TokenKind::Number => 4,
        TokenKind::Name => 5,
        TokenKind::Comment => 6,
        // A rule's expression is left to the editor's own colours.
        TokenKind::Expression => return None,
    })
}

pub fn capabilities(encoding: Encoding) -> lsp::ServerCapabilities {
    let legend = lsp::SemanticTokensLegend { token_types: TOKEN_TYPES.to_vec(), token_modifiers: Vec::new() };
    lsp::ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => lsp::PositionEncodingKind::UTF8,
            Encoding::Utf16 => lsp::PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Kind(lsp::TextDocumentSyncKind::FULL)),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec!["{".into(), "*".into(), "\"".into(), " ".into()]),
            ..Default::default()
        }),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        workspace_symbol_provider: Some(lsp::OneOf::Left(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(lsp::CodeActionOptions {
            code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX, lsp::CodeActionKind::SOURCE_FIX_ALL]),
            ..Default::default()
        })),
        semantic_tokens_provider: Some(lsp::SemanticTokensServerCapabilities::SemanticTokensOptions(
            lsp::SemanticTokensOptions {
                legend,
                full: Some(lsp::SemanticTokensFullOptions::Bool(true)),
                ..Default::default()
            },
        )),
        ..Default::default()
    }
}

/// Answers one request about the checked workspace.
pub fn request(docs: &Documents, encoding: Encoding, method: &str, params: Value) -> Answer {
    let cx = Context { docs, encoding };
    match method {
        "textDocument/hover" => cx.hover(parse(params)?),
        "textDocument/definition" => cx.definition(parse(params)?),
        "textDocument/references" => cx.references(parse(params)?),
        "textDocument/completion" => cx.completion(parse(params)?),
        "textDocument/formatting" => cx.formatting(parse(params)?),
        "textDocument/documentSymbol" => cx.document_symbols(parse(params)?),
        "textDocument/codeAction" => cx.code_actions(parse(params)?),
        "textDocument/semanticTokens/full" => cx.semantic_tokens(parse(params)?),
        "workspace/symbol" => cx.workspace_symbols(parse(params)?),
        _ => Err((ErrorCode::MethodNotFound, format!("`{method}` is not supported"))),
    }
}

struct Context<'a> {
    docs: &'a Documents,
    encoding: Encoding,
}

fn json(value: impl serde::Serialize) -> Answer {
    serde_json::to_value(value).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

impl Context<'_> {
    /// The file and byte offset of a position; `None` for a document the
    /// server does not check.
    fn at(&self, at: &lsp::TextDocumentPositionParams) -> Option<(FileId, usize)> {
        let file = self.docs.file(&at.text_document.uri)?;
        let source = self.docs.analysis.files.get(file);
        Some((file, convert::offset(source, at.position, self.encoding)))
    }

    fn range(&self, span: Span) -> lsp::Range {
        convert::range(&self.docs.analysis.files, span, self.encoding)
    }

    fn location(&self, span: Span) -> Option<lsp::Location> {
        Some(lsp::Location { uri: self.docs.uri(span.file)?, range: self.range(span) })
    }

    fn hover(&self, params: lsp::HoverParams) -> Answer {
        let Some((file, offset)) = self.at(&params.text_document_position_params) else { return Ok(Value::Null) };
        let Some(hover) = self.docs.analysis.hover(file, offset) else { return Ok(Value::Null) };
        json(lsp::Hover {
            contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                kind: lsp::MarkupKind::Markdown,
                value: hover.markdown,
            }),
            range: Some(self.range(hover.span)),
        })
    }

    fn definition(&self, params: lsp::GotoDefinitionParams) -> Answer {
        let Some((file, offset)) = self.at(&params.text_document_position_params) else { return Ok(Value::Null) };
        let found = self.docs.analysis.definition(file, offset);
        json(found.into_iter().filter_map(|s| self.location(s)).collect::<Vec<_>>())
    }

    fn references(&self, params: lsp::ReferenceParams) -> Answer {
        let Some((file, offset)) = self.at(&params.text_document_position) else { return Ok(Value::Null) };
        let mut found = self.docs.analysis.references(file, offset);
        if !params.context.include_declaration {
            let declared = self.docs.analysis.definition(file, offset);
            found.retain(|s| !declared.contains(s));
        }
        json(found.into_iter().filter_map(|s| self.location(s)).collect::<Vec<_>>())
    }

    fn completion(&self, params: lsp::CompletionParams) -> Answer {
        let Some((file, offset)) = self.at(&params.text_document_position) else { return Ok(Value::Null) };
        let items: Vec<lsp::CompletionItem> = self
            .docs
            .analysis
            .completions(file, offset)
            .into_iter()
            .map(|c| lsp::CompletionItem {
                label: c.label,
                detail: c.detail,
                kind: Some(match c.kind {
                    CompletionKind::Field => lsp::CompletionItemKind::FIELD,
                    CompletionKind::Kind => lsp::CompletionItemKind::CLASS,
                    CompletionKind::Name => lsp::CompletionItemKind::KEYWORD,
                    CompletionKind::EnumValue => lsp::CompletionItemKind::ENUM_MEMBER,
                    CompletionKind::Card => lsp::CompletionItemKind::REFERENCE,
                    CompletionKind::Icon => lsp::CompletionItemKind::CONSTANT,
                    CompletionKind::Keyword => lsp::CompletionItemKind::KEYWORD,
                }),
                ..Default::default()
            })
            .collect();
        json(items)
    }

    fn formatting(&self, params: lsp::DocumentFormattingParams) -> Answer {
        let Some(file) = self.docs.file(&params.text_document.uri) else { return Ok(Value::Null) };
        let files = &self.docs.analysis.files;
        let source = files.get(file);
        // A file whose formatting fails its own check is left as it is.
        let Ok((text, _)) = cardsmith::fmt::format_keeping_errors(files, file) else { return Ok(Value::Null) };
        if text == source.text {
            return json(Vec::<lsp::TextEdit>::new());
        }
        let whole = Span::new(file, 0, source.text.len());
        json(vec![lsp::TextEdit { range: self.range(whole), new_text: text }])
    }

    fn document_symbols(&self, params: lsp::DocumentSymbolParams) -> Answer {
        let Some(file) = self.docs.file(&params.text_document.uri) else { return Ok(Value::Null) };
        let symbols: Vec<lsp::DocumentSymbol> =
            self.docs.analysis.symbols(file).into_iter().map(|s| self.document_symbol(s)).collect();
        json(symbols)
    }

    #[allow(deprecated)] // `deprecated` is a field every symbol must give.
    fn document_symbol(&self, symbol: Symbol) -> lsp::DocumentSymbol {
        let children: Vec<lsp::DocumentSymbol> = symbol.children.into_iter().map(|c| self.document_symbol(c)).collect();
        lsp::DocumentSymbol {
            name: symbol.name,
            detail: Some(symbol.detail),
            kind: symbol_kind(symbol.kind),
            tags: None,
            deprecated: None,
            range: self.range(symbol.span),
            selection_range: self.range(symbol.selection),
            children: (!children.is_empty()).then_some(children),
        }
    }

    fn workspace_symbols(&self, params: lsp::WorkspaceSymbolParams) -> Answer {
        let symbols: Vec<lsp::WorkspaceSymbol> = self
            .docs
            .analysis
            .workspace_symbols(&params.query)
            .into_iter()
            .filter_map(|s| {
                Some(lsp::WorkspaceSymbol {
                    name: s.name,
                    kind: symbol_kind(s.kind),
                    tags: None,
                    container_name: Some(s.detail),
                    location: lsp::OneOf::Left(self.location(s.selection)?),
                    data: None,
                })
            })
            .collect();
        json(symbols)
    }

    fn code_actions(&self, params: lsp::CodeActionParams) -> Answer {
        let uri = params.text_document.uri;
        let Some(file) = self.docs.file(&uri) else { return Ok(Value::Null) };
        let source = self.docs.analysis.files.get(file);
        let start = convert::offset(source, params.range.start, self.encoding);
        let end = convert::offset(source, params.range.end, self.encoding);
        let actions: Vec<lsp::CodeAction> =
            self.docs.analysis.actions(file, start, end).into_iter().map(|a| self.code_action(&uri, a)).collect();
        json(actions)
    }

    fn code_action(&self, uri: &lsp::Uri, action: Action) -> lsp::CodeAction {
        let analysis = &self.docs.analysis;
        let diagnostic = action.diagnostic.and_then(|i| analysis.diagnostics.get(i));
        let diagnostics = diagnostic
            .and_then(|d| convert::diagnostic(&analysis.files, d, self.encoding, |f| self.docs.uri(f)))
            .map(|d| vec![d]);
        let edits = action
            .edits
            .iter()
            .map(|fix| lsp::TextEdit { range: self.range(fix.span), new_text: fix.replacement.clone() })
            .collect();
        let kind = if action.diagnostic.is_some() || action.preferred {
            lsp::CodeActionKind::QUICKFIX
        } else {
            lsp::CodeActionKind::SOURCE_FIX_ALL
        };
        lsp::CodeAction {
            title: action.title,
            kind: Some(kind),
            diagnostics,
            edit: Some(lsp::WorkspaceEdit {
                changes: Some([(uri.clone(), edits)].into_iter().collect()),
                ..Default::default()
            }),
            is_preferred: Some(action.preferred),
            ..Default::default()
        }
    }

    fn semantic_tokens(&self, params: lsp::SemanticTokensParams) -> Answer {
        let Some(file) = self.docs.file(&params.text_document.uri) else { return Ok(Value::Null) };
        let source = self.docs.analysis.files.get(file);
        let mut data = Vec::new();
        let mut last = lsp::Position { line: 0, character: 0 };
        for (range, kind) in self.docs.analysis.highlights(file) {
            let Some(token_type) = token_type(kind) else { continue };
            let start = convert::position(source, range.start, self.encoding);
            let end = convert::position(source, range.end, self.encoding);
            let delta_line = start.line.saturating_sub(last.line);
            let delta_start =
                if delta_line == 0 { start.character.saturating_sub(last.character) } else { start.character };
            data.push(lsp::SemanticToken {
                delta_line,
                delta_start,
                length: end.character.saturating_sub(start.character),
                token_type,
                token_modifiers_bitset: 0,
            });
            last = start;
        }
        json(lsp::SemanticTokens { result_id: None, data })
    }
}

fn symbol_kind(kind: SymbolKind) -> lsp::SymbolKind {
    match kind {
        SymbolKind::Card => lsp::SymbolKind::OBJECT,
        SymbolKind::Deck => lsp::SymbolKind::ARRAY,
        SymbolKind::Declaration => lsp::SymbolKind::CLASS,
        SymbolKind::Member => lsp::SymbolKind::FIELD,
    }
}
