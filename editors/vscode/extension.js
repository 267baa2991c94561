// Starts `cardsmith lsp` over standard input and output for card (`*.cards`)
// and ruleset (`*.rules`) files.  The program is the `cardsmith.server.path`
// setting, `cardsmith` on the PATH by default.

"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("cardsmith").get("server.path") || "cardsmith";
  const server = { command, args: ["lsp"], transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "cardsmith-cards" },
      { scheme: "file", language: "cardsmith-rules" },
    ],
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher("**/{*.cards,*.rules,cardsmith.toml}"),
    },
  };
  client = new LanguageClient("cardsmith", "Cardsmith", { run: server, debug: server }, clientOptions);
  client.start().catch((error) => {
    vscode.window.showErrorMessage(
      `Cardsmith: cannot start \`${command} lsp\` (${error.message || error}). ` +
        "Install cardsmith or set `cardsmith.server.path`.",
    );
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
