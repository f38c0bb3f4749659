/**
 * A generated world with every field the contract has, in every lifecycle status: survey intros,
 * MMS media, link tracking (URL and whole-URL merge tag), toll-free, suppression lists, footers,
 * merge tags with fallbacks and custom fields, non-GSM and awkward text (emoji, curly quotes,
 * trailing newlines, leading spaces, CR, tab, zero-width space), names two records share.
 */
import type { Fixture, FixtureProject } from "../../src/sandbox/fixture/types.js";
import {
  DOMAIN,
  LIST,
  LIST2,
  liveProject,
  MEDIA,
  MEDIA2,
  NUM_TF,
  NUM1,
  NUM2,
  pid,
  SUPPRESS,
  TFV,
  world,
} from "../plan-command/fixture-builder.js";

/** A second list named like the first: references to either must be written by id. */
export const TWIN_LIST = "00000000-0000-4000-8000-0000000000f4";

const DAY = 86_400_000;
const at = (now: Date, days: number) => new Date(now.getTime() + days * DAY).toISOString();

export function richProjects(now: Date): FixtureProject[] {
  const tollFree = {
    channel: "toll-free" as const,
    campaign_id: undefined,
    toll_free_verification_id: TFV,
    phone_number_ids: [NUM_TF],
  };
  return [
    liveProject(1, now, {
      name: "Café rally — día 1",
      message_text:
        "¡Hola {{first_name|amiga}}! 🎉 Rally at {{polling_place|the park}} “tonight”.\nReply STOP to opt out\n\n",
      suppression_list_ids: [SUPPRESS],
    }),
    liveProject(2, now, {
      name: "Survey: priorities",
      type: "survey",
      status: "awaiting_test",
      message_text:
        "  Which issue matters most to you, {{first_name}}? Reply 1, 2 or 3. Reply STOP to opt out",
      questions: [{ text: "Which issue matters most?" }, { text: "Why?" }],
    }),
    liveProject(3, now, {
      ...tollFree,
      name: "Volunteer MMS",
      status: "ready",
      protocol: "mms",
      media_ids: [MEDIA, MEDIA2],
      contact_list_ids: [LIST2],
      suppression_list_ids: [SUPPRESS],
      message_text: "Volunteer with us this weekend: https://test.vote/volunteer",
      link_tracking_enabled: true,
      link_tracking_destination_url: "https://test.vote/volunteer",
      link_tracking_domain_id: DOMAIN,
      link_tracking_param_field: "volunteer_shift",
      link_tracking_fallback_url: "https://test.vote/",
      opt_out_footer_enabled: true,
    }),
    liveProject(4, now, {
      name: "Scheduled in Denver",
      status: "scheduled",
      phone_number_ids: [NUM1, NUM2],
      message_text: "Early voting starts tomorrow. Reply STOP to opt out",
      scheduled_at: at(now, 3),
      scheduled_timezone: "America/Denver",
      daily_cap_bypass: true,
    }),
    liveProject(5, now, {
      name: "Already sending",
      status: "active",
      message_text: "Polls are open now!\tGo vote. Reply STOP to opt out",
      scheduled_at: at(now, -1),
      scheduled_timezone: "America/New_York",
      daily_cap_bypass: false,
    }),
    liveProject(6, now, {
      name: "Held back",
      status: "paused",
      message_text: "Line one\r\nline two\rline three\u200b. Reply STOP to opt out",
      scheduled_at: at(now, 2),
      scheduled_timezone: "Pacific/Honolulu",
      pause_reason: "polling place changed",
    }),
    liveProject(7, now, {
      name: "Done and dusted",
      status: "completed",
      message_text: "Thanks for voting! Reply STOP to opt out",
      scheduled_at: at(now, -5),
      scheduled_timezone: "America/Chicago",
      completed_at: at(now, -4),
      contact_list_ids: [TWIN_LIST],
    }),
    liveProject(8, now, {
      name: "Done and dusted",
      message_text: "{{website}}: personal link. Reply STOP to opt out",
      contact_list_ids: [LIST, TWIN_LIST],
      link_tracking_enabled: true,
      link_tracking_destination_url: "{{website}}",
      link_tracking_param_field: "",
      link_tracking_fallback_url: "https://test.vote/fallback",
    }),
  ];
}

export function richWorld(now: Date): Fixture {
  const fixture = world(richProjects(now), { now });
  const lists = fixture.contact_lists ?? [];
  const voters = lists.find((l) => l.id === LIST);
  if (voters !== undefined) lists.push({ ...voters, id: TWIN_LIST, name: "Twin List" });
  const twin = lists.find((l) => l.id === LIST2);
  if (twin !== undefined) twin.name = "Twin List";
  return fixture;
}

/** Ids of the rich world's projects. */
export const RICH_IDS = [1, 2, 3, 4, 5, 6, 7, 8].map(pid);
