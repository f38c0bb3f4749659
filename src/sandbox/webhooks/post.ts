/**
 * One webhook HTTP POST: a real request from the sandbox (node:http or node:https, no connection
 * reuse). The outcome is the response status once the headers arrive, or an error (connection
 * refused, timeout after `timeoutMs` real milliseconds, unsupported URL).
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";

/** `status` set when the receiver answered; `error` when it did not. */
export interface PostOutcome {
  readonly status: number | null;
  readonly error: string | null;
}

export function postJson(
  url: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<PostOutcome> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ status: null, error: `invalid URL ${url}` });
  }
  const request =
    target.protocol === "http:" ? httpRequest : target.protocol === "https:" ? httpsRequest : undefined;
  if (request === undefined)
    return Promise.resolve({ status: null, error: `unsupported protocol ${target.protocol}` });
  const bytes = Buffer.from(body, "utf8");
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = request(
      target,
      {
        method: "POST",
        agent: false,
        headers: { ...headers, "content-length": String(bytes.length), connection: "close" },
      },
      (res: IncomingMessage) => {
        res.resume();
        finish({ status: res.statusCode ?? null, error: null });
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, error: `timeout after ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on("error", (error: Error) => finish({ status: null, error: error.message }));
    req.end(bytes);
  });
}
