// The floor of `webhooks listen` (issue 36; not part of campaignctl): the least a durable receiver
// does. HMAC-SHA256 of the raw body against the secret, X-Timestamp within 5 minutes, the body
// parsed as JSON, dedupe by X-Event-ID, then one line per event appended and ONE fdatasync per batch
// (group commit: what arrives while a sync runs goes in the next) before any of the batch is
// answered. Usage: node bench/webhooks-floor-server.mjs STATE_DIR SECRET_ENV; prints {"url"} first.
import { createHmac, timingSafeEqual } from "node:crypto";
import { fdatasync, openSync, writeSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

const secret = process.env[process.argv[3]];
const fd = openSync(join(process.argv[2], "floor.jsonl"), "a", 0o600);
const seen = new Set();
let waiting = []; // answers of events appended but not yet synced
let syncing = false;
const answer = (res, status, body) => res.writeHead(status, { "content-type": "application/json" }).end(body);
function syncNext() {
  syncing = waiting.length > 0;
  if (!syncing) return;
  const batch = waiting;
  waiting = [];
  fdatasync(fd, (error) => {
    for (const done of batch) done(error ? 503 : 200);
    syncNext();
  });
}
function receive(req, body, res) {
  const mac = createHmac("sha256", secret).update(body).digest();
  const given = /^sha256=([0-9a-f]{64})$/i.exec(req.headers["x-webhook-signature"] ?? "");
  if (given === null || !timingSafeEqual(mac, Buffer.from(given[1], "hex"))) return answer(res, 401, "{}");
  if (Math.abs(Number(req.headers["x-timestamp"]) * 1000 - Date.now()) > 300_000)
    return answer(res, 401, "{}");
  const id = req.headers["x-event-id"];
  let payload;
  try {
    payload = JSON.parse(body.toString("utf8"));
  } catch {
    return answer(res, 400, "{}");
  }
  if (!id || typeof payload !== "object" || payload === null) return answer(res, 400, "{}");
  if (seen.has(id)) return answer(res, 200, '{"duplicate":true}');
  seen.add(id);
  writeSync(fd, `${JSON.stringify({ event_id: id, body: body.toString("base64") })}\n`);
  waiting.push((status) => answer(res, status, JSON.stringify({ received: status === 200, event_id: id })));
  if (!syncing) syncNext();
}
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => receive(req, Buffer.concat(chunks), res));
});
server.listen(0, "127.0.0.1", () =>
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })),
);
process.on("SIGINT", () => server.close(() => console.log(JSON.stringify({ accepted: seen.size }))));
