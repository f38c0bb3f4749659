/**
 * The default values of flags, read both by a command's registration (commander's default, the
 * help text) and by its implementation (a flag left out when a test or another command calls it).
 * A leaf: it imports nothing, so `register/*` and `commands/*` can both read it without a circle.
 */

/** The port `campaignctl sandbox` listens on without `--port`. */
export const DEFAULT_SANDBOX_PORT = 4010;

/** The port `webhooks listen` listens on without `--port`. */
export const DEFAULT_WEBHOOKS_PORT = 8787;
/** The environment variable the signing secret is read from without `--secret-env`. */
export const DEFAULT_SECRET_ENV = "CAMPAIGNCTL_WEBHOOK_SECRET";
/** Where the dedupe record is kept without `--state` (relative to the working directory). */
export const DEFAULT_WEBHOOKS_STATE = ".campaignctl/webhooks";

/** Where `replies run` keeps its state without `--state` (relative to the working directory). */
export const DEFAULT_REPLIES_STATE = ".campaignctl/replies";
/** The port `replies run` listens for events on without `--port`. */
export const DEFAULT_REPLIES_PORT = 8788;
/** The address `replies run` listens on without `--host`. */
export const DEFAULT_REPLIES_HOST = "127.0.0.1";

/** The default quiet time of `lsp` after an edit, in milliseconds. */
export const DEFAULT_DEBOUNCE_MS = 200;
