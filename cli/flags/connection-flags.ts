/**
 * The connection options of the commands that talk to the API (`plan`, `apply`, `import`, and
 * `preview --html`), declared once: `--sandbox`, `--fixture`, `--base-url`, `--api-key-env`, which
 * commander parses into the command's `SessionFlags` (see session.ts). `--base-url` names another API
 * than the embedded sandbox, so it conflicts with `--sandbox` and `--fixture`: commander refuses the
 * pair as a usage error (exit 1, the error document with `--json`) before the command runs.
 */
import { type Command, Option } from "commander";
// The defining module, not the src/api barrel: registering a command must not load the client.
import { API_KEY_ENV } from "../../src/api/config.js";

/**
 * Adds the connection options to `command`, in that order, and returns it for chaining. `action` is
 * what the command does with the sandbox, as `--sandbox`'s help says it ("plan against", "import from").
 */
export function addConnectionOptions(command: Command, action: string): Command {
  return command
    .option("--sandbox", `${action} the embedded sandbox (state in .campaignctl/sandbox/)`)
    .option("--fixture <file>", "with --sandbox: the world to start from (own state per file)")
    .addOption(
      new Option(
        "--base-url <url>",
        "API base URL (default: $CAMPAIGNCTL_BASE_URL, else production; not with --sandbox)",
      ).conflicts(["sandbox", "fixture"]),
    )
    .option("--api-key-env <name>", "environment variable holding the API key", API_KEY_ENV);
}
