#!/usr/bin/env node
// Writes the TextMate grammars of card files (cards.tmLanguage.json) and
// ruleset files (rules.tmLanguage.json) beside this script.
//
// Both follow grammar/cardsmith.pest: a file is a sequence of nodes (a name,
// values, an optional `{ … }` block), a node ends at its line's end, `;` or
// `}`, and `//` starts a comment.  A node at the start of a line is an item
// (`card`, `deck`, `kind`, …); a nested one is a field.  The value forms are
// the grammar's `literal_form`s, tried in its order.  Ruleset files add the
// rule lines (`require`, `recommend`, `play-limit`, `compute`, `def`) and
// the expressions of play (`means`, `ends-when`, `score-by`, `order-by`),
// whose rest of line is an expression (`expr_spec`), and the built-in type
// names.
//
// Run `node generate.js` after changing it; the grammar test fails when the
// committed files differ from what it writes.

"use strict";
const fs = require("fs");
const path = require("path");

const IDENT = "[A-Za-z_][A-Za-z0-9_-]*";
// `atom_char`: the characters of one literal token.
const ATOM = "[A-Za-z0-9_.+/*'%#-]";
const BEFORE = `(?<!${ATOM})`;
const AFTER = `(?!${ATOM})`;
// `slash_item`: a name of a set, with an optional qualifier in brackets.
const SET_ITEM = `${IDENT}(?:[ \\t]*\\(${IDENT}\\))?`;
// Where a node's name can stand: first on its line, or after `{` or `;`.
const NODE_START = "(?:^|(?<=[{;]))[ \\t]*";
// Where a rule's expression stops, as `expr_end` says.
const EXPR_END = "(?=//|;|\\}|$)";

// The type names a ruleset's fields and parameters are written with.
const TYPES = [
  "int", "signed", "decimal", "initiative", "distance", "save", "dice", "range", "coord",
  "text", "string", "ident", "int-or-star", "symbol", "arc", "range-band", "deck-symbol",
  "keyword", "kind", "tag", "new-keyword", "flag", "image", "set", "effects",
];
const MODIFIERS = ["required", "many", "or"];

function words(list) {
  return `(?<![A-Za-z0-9_-])(?:${list.map((w) => w.replace(/[-+*]/g, "\\$&")).join("|")})(?![A-Za-z0-9_-])`;
}

function sharedRepository(suffix) {
  const s = (scope) => `${scope}.${suffix}`;
  return {
    comment: {
      match: "(//).*$",
      name: s("comment.line.double-slash"),
      captures: { 1: { name: s("punctuation.definition.comment") } },
    },
    string: {
      name: s("string.quoted.double"),
      begin: '"',
      beginCaptures: { 0: { name: s("punctuation.definition.string.begin") } },
      end: '(")|$',
      endCaptures: { 1: { name: s("punctuation.definition.string.end") } },
      patterns: [{ include: "#string-content" }],
    },
    "string-content": {
      patterns: [
        { match: '\\\\["\\\\nt{}*]', name: s("constant.character.escape") },
        { match: "\\\\.?", name: s("invalid.illegal.escape") },
        {
          match: `(\\{)(${IDENT})(\\})`,
          name: s("constant.other.placeholder.icon"),
          captures: {
            1: { name: s("punctuation.definition.icon.begin") },
            3: { name: s("punctuation.definition.icon.end") },
          },
        },
        {
          match: '(\\*)((?:[^*"\\\\]|\\\\.)+)(\\*)',
          name: s("markup.italic.card-name"),
          captures: {
            1: { name: s("punctuation.definition.italic.begin") },
            3: { name: s("punctuation.definition.italic.end") },
          },
        },
      ],
    },
    number: {
      patterns: [
        { match: `${BEFORE}\\d*D\\d+(?:[+-]\\d+)?${AFTER}`, name: s("constant.numeric.dice") },
        { match: `${BEFORE}\\d+\\+/\\d+\\+${AFTER}`, name: s("constant.numeric.save") },
        { match: `${BEFORE}[+-]?\\d+,[+-]?\\d+${AFTER}`, name: s("constant.numeric.coord") },
        { match: `${BEFORE}\\d+(?:\\.\\.|-)\\d*${AFTER}`, name: s("constant.numeric.range") },
        {
          match: `${BEFORE}\\d+(?:\\.\\d+)?(["\u201d])`,
          name: s("constant.numeric.distance"),
          captures: { 1: { name: s("keyword.other.unit.inch") } },
        },
        { match: `${BEFORE}\\d+\\+${AFTER}`, name: s("constant.numeric.save") },
        { match: `${BEFORE}[+-]\\d+(?:\\.\\d+)?${AFTER}`, name: s("constant.numeric.signed") },
        { match: `${BEFORE}\\d+\\.\\d+${AFTER}`, name: s("constant.numeric.decimal") },
        { match: `${BEFORE}\\d+${AFTER}`, name: s("constant.numeric.integer") },
        { match: `${BEFORE}x\\d+${AFTER}`, name: s("constant.numeric.copies") },
        { match: `${BEFORE}${IDENT}\\.\\.(?:${IDENT})?${AFTER}`, name: s("constant.other.range-band") },
        { match: `${BEFORE}[*-]${AFTER}`, name: s("constant.language.special") },
      ],
    },
    bracketed: {
      match: `(\\[)(${IDENT})(\\])`,
      captures: {
        1: { name: s("punctuation.definition.tag.begin") },
        2: { name: s("entity.name.tag") },
        3: { name: s("punctuation.definition.tag.end") },
      },
    },
    // `F/S/R`, `F/S (Right)`, `Fighters & Bombers`: a set of names.
    set: {
      match: `${BEFORE}${SET_ITEM}(?:(?:/|[ \\t]*&[ \\t]*)${SET_ITEM})+${AFTER}`,
      captures: {
        0: {
          patterns: [
            { match: IDENT, name: s("variable.other.constant") },
            { match: "/|&", name: s("punctuation.separator.set") },
            { match: "\\(", name: s("punctuation.section.qualifier.begin") },
            { match: "\\)", name: s("punctuation.section.qualifier.end") },
          ],
        },
      },
    },
    call: {
      begin: `(${IDENT})[ \\t]*(\\()`,
      beginCaptures: {
        1: { name: s("entity.name.function.keyword") },
        2: { name: s("punctuation.section.arguments.begin") },
      },
      end: "(\\))|(?=//|;|\\}|$)",
      endCaptures: { 1: { name: s("punctuation.section.arguments.end") } },
      patterns: [{ include: "#value" }],
    },
    value: {
      patterns: [
        { include: "#number" },
        { include: "#string" },
        { include: "#bracketed" },
        { include: "#set" },
        { include: "#call" },
        { include: "#value-word" },
        { match: ",", name: s("punctuation.separator.comma") },
        { match: "/|&", name: s("punctuation.separator.set") },
        { match: `${ATOM}+`, name: s("string.unquoted.token") },
      ],
    },
    "value-word": { match: IDENT, name: s("variable.other.constant") },
    item: {
      // An item and, when it is a plain name, the name it declares.
      match: `^(${IDENT})(?:[ \\t]+(${IDENT})(?![A-Za-z0-9_.+/*'%#(&-]|[ \\t]*[(/&]))?`,
      captures: {
        1: { name: s("storage.type.item") },
        2: { name: s("entity.name.type") },
      },
    },
    field: {
      match: `${NODE_START}(${IDENT})`,
      captures: { 1: { name: s("variable.other.property.field") } },
    },
    punctuation: {
      patterns: [
        { match: "\\{", name: s("punctuation.section.block.begin") },
        { match: "\\}", name: s("punctuation.section.block.end") },
        { match: ";", name: s("punctuation.terminator.node") },
      ],
    },
  };
}

function rulesRepository(suffix) {
  const s = (scope) => `${scope}.${suffix}`;
  return {
    rule: {
      begin: `${NODE_START}(require|recommend|play-limit|compute|means|ends-when|score-by|order-by)(?![A-Za-z0-9_-])`,
      beginCaptures: { 1: { name: s("keyword.control.rule") } },
      end: EXPR_END,
      patterns: [{ include: "#expression" }],
    },
    definition: {
      begin: `${NODE_START}(def)[ \\t]+(${IDENT})(?:(\\()([^)]*)(\\)))?`,
      beginCaptures: {
        1: { name: s("keyword.control.rule") },
        2: { name: s("entity.name.function.definition") },
        3: { name: s("punctuation.section.parameters.begin") },
        4: {
          patterns: [
            { match: IDENT, name: s("variable.parameter") },
            { match: ",", name: s("punctuation.separator.comma") },
          ],
        },
        5: { name: s("punctuation.section.parameters.end") },
      },
      end: EXPR_END,
      patterns: [{ include: "#expression" }],
    },
    expression: {
      patterns: [
        { include: "#string" },
        { match: "==|!=|<=|>=|<|>", name: s("keyword.operator.comparison") },
        { match: words(["and", "or", "not"]), name: s("keyword.operator.logical") },
        { match: `(${IDENT})[ \\t]*(?=\\()`, captures: { 1: { name: s("support.function") } } },
        { match: `${IDENT}`, name: s("variable.other.expression") },
        { match: "\\d+", name: s("constant.numeric.integer") },
        { match: "[+\\-*/]", name: s("keyword.operator.arithmetic") },
        { match: "\\(", name: s("punctuation.section.group.begin") },
        { match: "\\)", name: s("punctuation.section.group.end") },
        { match: ",", name: s("punctuation.separator.comma") },
      ],
    },
    "value-word": {
      patterns: [
        { match: words(TYPES), name: s("support.type.builtin") },
        { match: words(MODIFIERS), name: s("keyword.other.modifier") },
        { match: IDENT, name: s("variable.other.constant") },
      ],
    },
  };
}

function grammar(kind) {
  const suffix = "cardsmith";
  const rules = kind === "rules";
  const repository = sharedRepository(suffix);
  if (rules) {
    Object.assign(repository, rulesRepository(suffix));
  }
  const patterns = [{ include: "#comment" }];
  if (rules) {
    patterns.push({ include: "#definition" }, { include: "#rule" });
  }
  patterns.push({ include: "#item" }, { include: "#field" }, { include: "#punctuation" }, { include: "#value" });
  return {
    $schema: "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
    name: rules ? "Cardsmith Rules" : "Cardsmith Cards",
    scopeName: `source.cardsmith.${kind}`,
    fileTypes: [kind],
    comment: "Generated by generate.js from the shape of grammar/cardsmith.pest: edit that script, not this file.",
    patterns,
    repository,
  };
}

function render(kind) {
  return JSON.stringify(grammar(kind), null, 2) + "\n";
}

module.exports = { render };

if (require.main === module) {
  for (const kind of ["cards", "rules"]) {
    fs.writeFileSync(path.join(__dirname, `${kind}.tmLanguage.json`), render(kind));
  }
}
