/**
 * POST /projects/{id}/test (202). Allowed from draft, awaiting_test and ready; leaves the project
 * awaiting_test (or ready at once with autoApproveTests). Each entry renders by the contract's two
 * rules: with `merge_values`, every tag from those values; without, from a sample contact (the
 * first contact not opted out of the project's first contact list); with no list, as empty fields.
 */
import { OPT_OUT_FOOTER } from "../../contract/limits.js";
import type { TestRequest } from "../../contract/resources.js";
import type { ApiRoute } from "../context.js";
import { invalid, ok } from "../http/responses.js";
import { mergeDefaultsFor, renderMergeTags } from "../render.js";
import type { ProjectRecord, TestMessageRecord, World } from "../state/world.js";
import { findProject, isProject, touch } from "./project-access.js";

/** `+15551234100` -> `+1555****100`. */
export function maskPhone(phone: string): string {
  return `${phone.slice(0, 5)}****${phone.slice(-3)}`;
}

export const projectTestRoute: ApiRoute = {
  method: "POST",
  template: "/projects/{id}/test",
  bodySchema: "test",
  handler: ({ params, body, auth, sandbox, idempotencyKey }) => {
    const request = body as TestRequest;
    const { store, clock, config } = sandbox;
    const project = findProject(store.world, auth, params.id ?? "");
    if (!isProject(project)) return project;
    const status = project.status;
    if (status !== "draft" && status !== "awaiting_test" && status !== "ready")
      return invalid(
        ["status"],
        `Test sends need status draft, awaiting_test or ready; the project is ${status}`,
        "invalid_state",
      );
    const now = clock.now().toISOString();
    const messages = store.mutate((w) => {
      const sent = request.test_contacts.map((contact) => {
        const message = renderTest(w, project, contact.merge_values);
        const record: TestMessageRecord = {
          test_message_id: store.nextId(w),
          project_id: project.project_id,
          to: contact.phone,
          sent_to: maskPhone(contact.phone),
          from: w.phoneNumbers[project.phone_number_ids[0] ?? ""]?.number ?? null,
          text: message.text,
          media_urls: [...project.media_urls],
          rendered_from: message.from,
          created_at: now,
        };
        w.testMessages.push(record);
        return record;
      });
      project.status = "awaiting_test";
      touch(project, clock.nowMs());
      store.recordEffect(w, "test", project.project_id, true, idempotencyKey);
      if (config.autoApproveTests) {
        project.status = "ready";
        touch(project, clock.nowMs());
        store.recordEffect(w, "approve", project.project_id, true, null);
      }
      return sent;
    });
    return ok(
      {
        project_id: project.project_id,
        status: "awaiting_test",
        test_messages: messages.map((m) => ({ test_message_id: m.test_message_id, sent_to: m.sent_to })),
      },
      202,
    );
  },
};

function renderTest(
  w: World,
  project: ProjectRecord,
  mergeValues: Record<string, string> | undefined,
): { text: string; from: TestMessageRecord["rendered_from"] } {
  const defaults = mergeDefaultsFor(w, project.organization_id);
  const footer = project.opt_out_footer_enabled ? `\n${OPT_OUT_FOOTER}` : "";
  if (mergeValues !== undefined)
    return {
      text: renderMergeTags(project.message_text, mergeValues, defaults) + footer,
      from: "merge_values",
    };
  const list = w.contactLists[project.contact_list_ids[0] ?? ""];
  const sample = list?.contacts.find((c) => !c.opted_out);
  if (sample === undefined)
    return { text: renderMergeTags(project.message_text, {}, defaults) + footer, from: "empty" };
  return {
    text: renderMergeTags(project.message_text, { phone: sample.phone, ...sample.fields }, defaults) + footer,
    from: "sample_contact",
  };
}
