/**
 * Webhooks of an event (issue 27 §6), typed once for the server, the organiser page and the tests. An organiser
 * registers a URL; the server POSTs each of the event's happenings to it as JSON (`WebhookPayload`), signed with
 * HMAC-SHA256 of the body under the hook's secret (header `X-Cuecast-Signature: sha256=<hex>`), retried with
 * exponential back-off. Delivery never runs in the path of a recorded shot.
 */

/** What is sent: a match started on a table, a match was won, the draw changed, the event's draw was decided. */
export const WEBHOOK_KINDS = ['match.started', 'match.finished', 'draw.changed', 'event.finished'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** Limits of the webhooks. */
export const WEBHOOK_LIMITS = {
  /** Hooks per event. */
  perEvent: 10,
  /** URL length, characters. */
  url: 2000,
} as const;

/** The header carrying the signature: `sha256=` + hex HMAC-SHA256 of the raw body, keyed with the hook's secret. */
export const SIGNATURE_HEADER = 'X-Cuecast-Signature';

/** How a hook is doing: the organiser page shows a hook that keeps failing. Times are ms since the epoch. */
export interface WebhookStatus {
  lastSuccess: number | null;
  lastAttempt: number | null;
  /** Deliveries that failed in a row since the last success (0 when the last one went through). */
  consecutiveFailures: number;
  /** The last failure ("HTTP 500", "timed out after 5000 ms", "connect ECONNREFUSED …"), null after a success. */
  lastError: string | null;
  /** Deliveries given up after every retry failed. */
  dropped: number;
}

/** A hook as the organiser sees it (never its secret, which is shown once when it is registered). */
export interface WebhookInfo {
  /** `h` + random characters, unique in the event. */
  id: string;
  url: string;
  createdAt: number;
  status: WebhookStatus;
}

/** The JSON body of a delivery. `data` depends on `type` (docs/api.md, Webhooks). */
export interface WebhookPayload {
  /** Unique per delivery (the same on its retries): a receiver drops a repeat by it. */
  id: string;
  type: WebhookKind;
  eventId: string;
  /** When it happened, ISO 8601 UTC. */
  at: string;
  data: Record<string, unknown>;
}
