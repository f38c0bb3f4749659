/** Diagnostic codes of the `api` area (configuration and API responses). Each entry: a stable code and what it means. */
export const API_CODES = {
  "api.no-key": "the environment variable that should hold the API key is unset or empty",
  "api.bad-key-env":
    "`--api-key-env` was given something that is not an environment variable's name (perhaps the key itself); it is not echoed",
  "api.bad-url":
    "the API base URL is not a well-formed http(s) URL, or is a bare origin without the `/v1` path",
  "api.insecure-url": "the API base URL uses plain http to a host other than loopback",
  "api.unauthorized": "the API answered 401: the key is missing, malformed, revoked or expired",
  "api.forbidden":
    "the API answered 403: the key lacks a scope or the resource is outside its organization tree",
  "api.missing-scope":
    "the API answered 403 with its authentication body: the key's type or scopes do not allow the request (a write-only key cannot read, and plan and apply read first: they need `public:read`)",
  "api.not-found": "the API answered 404: the resource does not exist or is not visible to the key",
  "api.rejected":
    "the API rejected the request with another 4xx (validation, conflict, balance, idempotency)",
  "api.rate-limited": "the API kept answering 429 after the client waited out Retry-After",
  "api.rate-limit-stuck":
    "the client gave up waiting for the rate limit instead of waiting for ever: a wait longer than two of the contract's 60-second windows (a Retry-After of hours), or waits adding up past that while the clock did not move (a sandbox whose clock is frozen, `--time-scale 0`); the request and those after it were not sent",
  "api.server-error": "the API answered 5xx to a request that had no effect",
  "api.network": "the request failed in transport (connection, timeout, TLS, unreadable body)",
  "api.unknown-outcome": "a write failed in a way that leaves unknown whether it took effect; re-read state",
  "api.no-organization-key":
    "a project's (or email list's, or email campaign's) organization has no key (`CAMPAIGNCTL_API_KEY_<SLUG>`) and there is no default key to read for it; the message names the variable to set",
  "api.key-organization-mismatch":
    "the key in `CAMPAIGNCTL_API_KEY_<SLUG>` belongs to another organization than the one its name says",
  "api.listing-incomplete":
    "a listing of everything the keys see (`status --all` or `--organization`, `import`) missed what one key sees: the key could not be used, or one of its reads failed after the client's retries while the other keys' succeeded; the rest is listed, and the run fails (exit 1)",
  "api.key-usable-again":
    "a long run (`watch`, `replies run`) checked again, a minute or more later, an organization's key that could not be used at its start, and it answers now: that organization's projects are read from then on",
} as const;

export type ApiCode = keyof typeof API_CODES;
