/**
 * Tunable knobs of the send simulation (`GET|PATCH /_sandbox/simulation`). They live in memory (like
 * fault rules they survive `/_sandbox/reset`) and only affect messages sent after a change: every
 * draw is stored on the message when it is sent.
 */
import type { PriceTable } from "../prices.js";

/** A scripted outcome for one recipient phone, overriding the random draws. */
export interface ScriptedOutcome {
  /** Fail the message with this error code (else it is delivered). */
  readonly fail?: string;
  /** The contact replies with this text (`STOP` opts out). */
  readonly reply?: string;
  /** Delay of the reply after delivery; default `reply_delay_min_ms`. */
  readonly reply_after_ms?: number;
}

/** The simulation's settings. Rates are probabilities in [0, 1]; prices are the one table of `prices.ts`. */
export interface SimulationSettings extends PriceTable {
  /** Messages sent per batch; one batch per `batch_interval_ms` of virtual time. */
  readonly messages_per_batch: number;
  readonly batch_interval_ms: number;
  /** Delay between a send and its carrier receipt (delivered or failed). */
  readonly receipt_delay_ms: number;
  readonly failure_rate: number;
  /**
   * Failure rates by project id, overriding `failure_rate` for that project's messages (so one
   * project's failures can be raised while the others, on the same contact lists, send as usual).
   */
  readonly project_failure_rates: Readonly<Record<string, number>>;
  /** Failure rate of messages sent over a brand's daily cap with `daily_cap_bypass`. */
  readonly over_cap_failure_rate: number;
  /** Share of delivered messages that get a reply. */
  readonly reply_rate: number;
  /**
   * Reply rates by project id, replacing `reply_rate` for that project's messages: the arms of an
   * experiment, each drawing its own rate (docs/experiments.md).
   */
  readonly project_reply_rates: Readonly<Record<string, number>>;
  /** Share of replies that are an opt-out (`STOP`). */
  readonly opt_out_share: number;
  /** Opt-out shares by project id, replacing `opt_out_share` for that project's replies. */
  readonly project_opt_out_shares: Readonly<Record<string, number>>;
  readonly reply_delay_min_ms: number;
  readonly reply_delay_max_ms: number;
  /**
   * Share of delivered messages whose text holds a link (`http://` or `https://`) that the contact
   * clicks (`total_url_clicks` and `unique_url_clicks` +1), within `click_delay_max_ms` of delivery.
   */
  readonly click_rate: number;
  /** Share of those clicks followed by a second one (`total_url_clicks` +1 only), as long after. */
  readonly repeat_click_share: number;
  readonly click_delay_max_ms: number;
  /** Scripted outcomes by recipient phone (E.164). */
  readonly outcomes: Readonly<Record<string, ScriptedOutcome>>;
}

export const DEFAULT_SETTINGS: SimulationSettings = {
  messages_per_batch: 10,
  batch_interval_ms: 1000,
  receipt_delay_ms: 2000,
  failure_rate: 0.02,
  project_failure_rates: {},
  over_cap_failure_rate: 0.5,
  reply_rate: 0.05,
  project_reply_rates: {},
  opt_out_share: 0.2,
  project_opt_out_shares: {},
  reply_delay_min_ms: 30_000,
  reply_delay_max_ms: 600_000,
  click_rate: 0.1,
  repeat_click_share: 0.25,
  click_delay_max_ms: 3_600_000,
  sms_segment_price_e4: 100,
  toll_free_segment_price_e4: 200,
  mms_message_price_e4: 300,
  outcomes: {},
};
