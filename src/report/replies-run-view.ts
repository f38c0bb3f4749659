/**
 * The view of `campaignctl replies run`: one JSON line per event with `--json`
 * (schemas/replies-run-line.schema.json), else one line per event in words. Diagnostics also go
 * to stderr in words (info notes left out). The format is chosen once, here.
 */
import { diagnosticJson } from "../diagnostics/json.js";
import type { RunEvent } from "../replies/events.js";

export interface RepliesRunSink {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

export function createRepliesRunView(sink: RepliesRunSink, json: boolean): (event: RunEvent) => void {
  return (event) => {
    if (event.type === "problem" && event.diagnostic.severity !== "info")
      sink.stderr(`${event.diagnostic.severity}: ${event.diagnostic.message} [${event.diagnostic.code}]\n`);
    if (json) {
      const line =
        event.type === "problem" ? { ...event, diagnostic: diagnosticJson(event.diagnostic) } : event;
      sink.stdout(`${JSON.stringify(line)}\n`);
      return;
    }
    const line = words(event);
    if (line !== null) sink.stdout(`${line}\n`);
  };
}

function words(e: RunEvent): string | null {
  switch (e.type) {
    case "started":
      return [
        `replies run: ${e.projects.length} project${e.projects.length === 1 ? "" : "s"} with reply rules (${e.projects.join(", ")}); state ${e.state}`,
        e.listening === null ? "  events: off (polling only)" : `  events: listening on ${e.listening}`,
        `  polling from ${e.updated_since ?? "the last day"}; ${e.answered_before} inbound${e.answered_before === 1 ? "" : "s"} settled before`,
      ].join("\n");
    case "pass":
      return `${e.at}  pass: ${e.conversations} conversation${e.conversations === 1 ? "" : "s"} since ${e.updated_since} (${e.unchanged} unchanged); cursor ${e.cursor}; next pass at ${e.next_pass_at}`;
    case "inbound": {
      const who = e.address ?? (e.project_id === null ? "unknown project" : `project ${e.project_id}`);
      const rule = e.rule === null ? "" : ` ${e.rule}`;
      const answer = e.answer_message_id === null ? "" : ` -> ${e.answer_message_id}`;
      const detail = e.detail === null ? "" : ` (${e.detail})`;
      return `${e.at}  ${e.outcome.padEnd(10)} ${who}${rule}  ${e.conversation_id}/${e.message_id} via ${e.via}${answer}${detail}`;
    }
    case "problem":
      return null;
    case "stopped": {
      const t = e.totals;
      return `${e.at}  stopped (${e.reason}): ${t.answered} answered (${t.segments} segment${t.segments === 1 ? "" : "s"}), ${t.recorded} settled before, ${t.opt_out} opt-outs, ${t.unmatched} unmatched, ${t.limit} at a limit, ${t.refused} refused, ${t.unknown} unknown; ${t.passes} passes, ${t.events} events`;
    }
  }
}
