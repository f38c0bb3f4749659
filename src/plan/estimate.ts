/**
 * What a project's send will reach and cost. Pure. Recipients and cost are the live project's
 * (`total_recipients`, `estimated_cost_cents`). Segments and encoding come from the message that
 * will go out (the file's when it describes one, else the live text), rendered with fallbacks only
 * (inline fallback, then `merge_defaults`, then empty) and with the opt-out footer when it is on.
 * A project with media is MMS: no segment arithmetic.
 */
import type { ProjectSpec } from "../campaign/model.js";
import type { Project } from "../contract/resources.js";
import { withOptOutFooter } from "../message/footer.js";
import { render } from "../message/render.js";
import { analyzeSegments } from "../message/segments.js";
import type { SendEstimate } from "./types.js";

export function estimateSend(spec: ProjectSpec, project: Project): SendEstimate {
  const base = { recipients: project.total_recipients, estimated_cost_cents: project.estimated_cost_cents };
  const mediaCount = spec.media?.length ?? project.media_ids.length;
  if (mediaCount > 0) return { ...base, segments: null, encoding: "MMS" };
  const text = render(spec.message ?? project.message_text, {}, spec.mergeDefaults).text;
  const info = analyzeSegments(withOptOutFooter(text, spec.optOutFooter ?? project.opt_out_footer_enabled));
  return { ...base, segments: info.segments, encoding: info.encoding };
}
