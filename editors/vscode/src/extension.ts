/**
 * The VS Code client of `campaignctl lsp`: starts the language server over stdio for YAML files
 * (the server itself leaves alone any YAML file that is not a campaign file: a policy file, a
 * workflow, a file whose modeline names another schema) and shows its diagnostics, quick fixes,
 * hover and completion. The command is `campaignctl` on the PATH unless `campaignctl.command`
 * says otherwise. Nothing here talks to the network; neither does the server.
 */
import { type ExtensionContext, workspace } from "vscode";
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

/** The server's command line from the settings: the command's words, then `lsp --stdio`. */
function serverCommand(): { command: string; args: string[] } {
  const settings = workspace.getConfiguration("campaignctl");
  const words = settings.get<string[]>("command", ["campaignctl"]).filter((w) => w !== "");
  const [command = "campaignctl", ...rest] = words;
  const policy = settings.get<string>("policy", "");
  return { command, args: [...rest, "lsp", "--stdio", ...(policy === "" ? [] : ["--policy", policy])] };
}

export async function activate(context: ExtensionContext): Promise<void> {
  const { command, args } = serverCommand();
  const server: ServerOptions = { command, args };
  const options: LanguageClientOptions = {
    documentSelector: [{ scheme: "file", language: "yaml" }],
    // Files changed outside the editor (a policy file, a closed campaign file): checked again.
    synchronize: { fileEvents: workspace.createFileSystemWatcher("**/*.{yaml,yml}") },
  };
  client = new LanguageClient("campaignctl", "campaignctl", server, options);
  context.subscriptions.push({ dispose: () => void client?.stop() });
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
