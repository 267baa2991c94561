#!/usr/bin/env node
// Tokenizes every bundled card and ruleset file (cards/**/*.cards and
// cards/**/*.rules) with the TextMate grammars, as VS Code does (the
// vscode-textmate engine with the Oniguruma regular expressions), and fails
// when a character that is not a space is left without a scope of its own:
// only the file's root scope, or only `meta.*` scopes, which colour nothing.
// Bundled files are valid, so an `invalid.*` scope on one of them fails too.
// It also fails when the committed grammars differ from what
// syntaxes/generate.js writes.
//
// Usage: node grammar.test.js [REPO_ROOT]   (npm ci first, in this folder)

"use strict";
const fs = require("fs");
const path = require("path");
const textmate = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const extension = path.resolve(__dirname, "..");
const repo = path.resolve(process.argv[2] || path.join(extension, "..", ".."));
// The bundled files are small; anything larger is not one of them.
const MOST_BYTES = 4 * 1024 * 1024;

const GRAMMARS = {
  "source.cardsmith.cards": path.join(extension, "syntaxes", "cards.tmLanguage.json"),
  "source.cardsmith.rules": path.join(extension, "syntaxes", "rules.tmLanguage.json"),
};
const SCOPE_OF_EXTENSION = { ".cards": "source.cardsmith.cards", ".rules": "source.cardsmith.rules" };

function readSmall(file) {
  const size = fs.statSync(file).size;
  if (size > MOST_BYTES) {
    throw new Error(`${file} is ${size} bytes, more than the ${MOST_BYTES} a bundled file may have`);
  }
  return fs.readFileSync(file, "utf8");
}

async function registry() {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
  await oniguruma.loadWASM(wasm);
  return new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scope) => {
      const file = GRAMMARS[scope];
      return file ? textmate.parseRawGrammar(readSmall(file), file) : null;
    },
  });
}

function bundledFiles(folder) {
  const found = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      found.push(...bundledFiles(full));
    } else if (SCOPE_OF_EXTENSION[path.extname(entry.name)]) {
      found.push(full);
    }
  }
  return found.sort();
}

// A scope that gives a character a colour of its own.
function colours(scope, root) {
  return scope !== root && !scope.startsWith("meta.");
}

// The problems of one file: characters without a scope, and invalid ones.
function problemsOf(grammar, root, text, shown) {
  const problems = [];
  let state = textmate.INITIAL;
  text.split(/\r\n|\n|\r/).forEach((line, index) => {
    const result = grammar.tokenizeLine(line, state);
    for (const token of result.tokens) {
      const piece = line.slice(token.startIndex, token.endIndex);
      if (piece.trim() === "") {
        continue;
      }
      const where = `${shown}:${index + 1}:${token.startIndex + 1}`;
      if (!token.scopes.some((scope) => colours(scope, root))) {
        problems.push(`${where}: no scope for ${JSON.stringify(piece)} in: ${line.trim()}`);
      }
      const invalid = token.scopes.find((scope) => scope.startsWith("invalid."));
      if (invalid) {
        problems.push(`${where}: ${invalid} for ${JSON.stringify(piece)} in: ${line.trim()}`);
      }
    }
    state = result.ruleStack;
  });
  return problems;
}

function generatedProblems() {
  const { render } = require(path.join(extension, "syntaxes", "generate.js"));
  const problems = [];
  for (const kind of ["cards", "rules"]) {
    const file = path.join(extension, "syntaxes", `${kind}.tmLanguage.json`);
    if (readSmall(file) !== render(kind)) {
      problems.push(`${path.relative(repo, file)} is not what syntaxes/generate.js writes: run \`node generate.js\` there`);
    }
  }
  return problems;
}

async function main() {
  const tm = await registry();
  const files = bundledFiles(path.join(repo, "cards"));
  if (files.length === 0) {
    throw new Error(`no .cards or .rules files under ${path.join(repo, "cards")}`);
  }
  const problems = generatedProblems();
  let failedFiles = 0;
  for (const file of files) {
    const root = SCOPE_OF_EXTENSION[path.extname(file)];
    const grammar = await tm.loadGrammar(root);
    const found = problemsOf(grammar, root, readSmall(file), path.relative(repo, file));
    problems.push(...found);
    failedFiles += found.length > 0 ? 1 : 0;
  }
  for (const problem of problems.slice(0, 200)) {
    console.error(problem);
  }
  if (problems.length > 200) {
    console.error(`… and ${problems.length - 200} more`);
  }
  console.log(`${files.length} files tokenized, ${failedFiles} with problems; ${problems.length} problems in all`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
