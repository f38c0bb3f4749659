/**
 * The example fixture plus conversations and email records for the conversation and email tests:
 * one conversation per reply rule, a child-organization conversation, a test conversation, and an
 * email product enabled for the child organization only.
 */
import type { Fixture } from "../../src/sandbox/fixture/types.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { CHILD_ORG, exampleFixture, GOTV_REMINDER, ORG, sandbox, TCR_CAMPAIGN } from "./helpers.js";

export const NUMBER_1 = "a1000000-0000-4000-8000-000000000001";
export const SHARED_NUMBER = "a1000000-0000-4000-8000-000000000002";
export const TOLL_FREE_NUMBER = "a1000000-0000-4000-8000-000000000003";
export const RELEASED_NUMBER = "a1000000-0000-4000-8000-000000000009";
export const CHILD_PROJECT = "9a000000-0000-4000-8000-000000000011";
export const DELETED_PROJECT = "9a000000-0000-4000-8000-000000000012";
export const POOR_PROJECT = "9a000000-0000-4000-8000-000000000013";
export const POOR_ORG = "0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a09";

const conv = (n: number): string => `c0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
/** Active, one inbound a day ago (Maria). */
export const CONV_ACTIVE = conv(1);
/** Last inbound 11 days ago: outside the default window. */
export const CONV_OLD = conv(2);
export const CONV_NO_INBOUND = conv(3);
export const CONV_TEST = conv(4);
export const CONV_CHILD = conv(5);
export const CONV_RELEASED = conv(6);
export const CONV_NO_NUMBER = conv(7);
export const CONV_DELETED = conv(8);
export const CONV_OPTED_OUT = conv(9);
export const CONV_POOR = conv(10);
/** 85 days ago: inside the 90-day limit, outside the default window. */
export const CONV_85_DAYS = conv(11);

export const EMAIL_LIST_CHILD = "e2000000-0000-4000-8000-000000000001";
export const EMAIL_LIST_PARENT = "e2000000-0000-4000-8000-000000000002";
export const DOMAIN_CHILD = "e3000000-0000-4000-8000-000000000001";
export const DOMAIN_PARENT = "e3000000-0000-4000-8000-000000000002";

/** The virtual start of the example fixture. */
export const START = Date.parse("2026-12-01T15:00:00Z");
export const daysAgo = (days: number, plusMs = 0): string =>
  new Date(START - days * 86_400_000 + plusMs).toISOString();

const thread = (inboundDaysAgo: number | null, contactText = "Thanks, see you there") => [
  {
    direction: "outbound" as const,
    text: "Hi, the runoff is tomorrow",
    at: daysAgo((inboundDaysAgo ?? 2) + 0.5),
  },
  ...(inboundDaysAgo === null
    ? []
    : [{ direction: "inbound" as const, text: contactText, at: daysAgo(inboundDaysAgo) }]),
];

export function conversationFixture(extraConversations = 0): Fixture {
  const f = exampleFixture();
  f.organizations.push({ id: POOR_ORG, name: "Riverside Precinct 9", parent_id: ORG, balance_cents: 0 });
  // Email for the child organization only (the example world gives it to the root, and so to all).
  for (const o of f.organizations) delete o.email_available;
  const child = f.organizations.find((o) => o.id === CHILD_ORG);
  if (child) child.email_available = true;
  f.phone_numbers?.push({
    id: RELEASED_NUMBER,
    number: "+15035550109",
    organization_id: ORG,
    channel: "10dlc",
    campaign_id: TCR_CAMPAIGN,
    status: "released",
  });
  const project = (id: string, org: string, name: string, extra: object = {}) => ({
    project_id: id,
    organization_id: org,
    name,
    status: "completed" as const,
    campaign_id: TCR_CAMPAIGN,
    phone_number_ids: [NUMBER_1],
    message_text: "Hi {{first_name}}",
    contact_list_ids: ["e1000000-0000-4000-8000-000000000001"],
    ...extra,
  });
  f.projects?.push(
    project(CHILD_PROJECT, CHILD_ORG, "Youth GOTV", { phone_number_ids: [SHARED_NUMBER] }),
    project(DELETED_PROJECT, ORG, "Old Canvass", { deleted: true }),
    project(POOR_PROJECT, POOR_ORG, "Precinct 9 Reminder"),
  );
  const c = (
    id: string,
    projectId: string,
    phone: string | null,
    contact: string,
    inbound: number | null,
    extra = {},
  ) => ({
    conversation_id: id,
    project_id: projectId,
    phone_number_id: phone,
    contact_phone: contact,
    messages: thread(inbound),
    ...extra,
  });
  f.conversations = [
    c(CONV_ACTIVE, GOTV_REMINDER, NUMBER_1, "+15035550110", 1),
    c(CONV_OLD, GOTV_REMINDER, NUMBER_1, "+15035550111", 11),
    c(CONV_NO_INBOUND, GOTV_REMINDER, NUMBER_1, "+15035550113", null),
    c(CONV_TEST, GOTV_REMINDER, NUMBER_1, "+15035550114", 0.5, { is_test: true }),
    c(CONV_CHILD, CHILD_PROJECT, SHARED_NUMBER, "+15035550115", 2),
    c(CONV_RELEASED, GOTV_REMINDER, RELEASED_NUMBER, "+15035550116", 3),
    c(CONV_NO_NUMBER, GOTV_REMINDER, null, "+15035550117", 3),
    c(CONV_DELETED, DELETED_PROJECT, NUMBER_1, "+15035550118", 3),
    c(CONV_OPTED_OUT, GOTV_REMINDER, NUMBER_1, "+15035550119", 3, { opted_out: true }),
    c(CONV_POOR, POOR_PROJECT, NUMBER_1, "+15035550120", 3),
    c(CONV_85_DAYS, GOTV_REMINDER, NUMBER_1, "+15035550121", 85),
  ];
  for (let i = 0; i < extraConversations; i++)
    f.conversations.push(
      c(
        conv(1000 + i),
        GOTV_REMINDER,
        NUMBER_1,
        `+1971555${String(1000 + i).padStart(4, "0")}`,
        4 + i / 1000,
      ),
    );
  f.email = {
    lists: [
      { id: EMAIL_LIST_CHILD, name: "Youth Newsletter", organization_id: CHILD_ORG },
      { id: EMAIL_LIST_PARENT, name: "Donors", organization_id: ORG },
    ],
    domains: [
      { id: DOMAIN_CHILD, domain: "mail.youngdems.example", organization_id: CHILD_ORG },
      { id: DOMAIN_PARENT, domain: "mail.riverside.example", organization_id: ORG },
    ],
    campaigns: [
      ...Array.from({ length: 7 }, (_, i) => ({
        id: `e4000000-0000-4000-8000-00000000000${i + 1}`,
        name: i % 2 === 0 ? `Youth Rally Invite ${i + 1}` : `Volunteer Digest ${i + 1}`,
        organization_id: CHILD_ORG,
        status: i < 3 ? "draft" : "completed",
        created_at: daysAgo(20 - i),
      })),
      {
        id: "e4000000-0000-4000-8000-000000000099",
        name: "Donor Thanks",
        organization_id: ORG,
        status: "draft",
      },
    ],
    suppressions: [{ email: "Gone@Example.com", organization_id: CHILD_ORG, reason: "unsubscribed" }],
  };
  return f;
}

/** A sandbox on the conversation fixture. */
export function conversationSandbox(extraConversations = 0): Promise<SandboxHandle> {
  return sandbox({ fixture: conversationFixture(extraConversations) });
}
