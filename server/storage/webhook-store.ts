/**
 * The storage port of webhooks (issue 27 §6): per event, the hooks an organiser registered (URL, signing
 * secret, creation time) and each hook's delivery status (last success, failures in a row, last error), kept
 * apart so a status write never races a registration. Three adapters, each small: memory-webhook-store.ts,
 * sqlite-webhook-store.ts, redis-webhook-store.ts; the contract suite (tests/server/store-port.test.ts) runs all.
 */
import type { WebhookStatus } from '../../shared/protocol/webhooks';

/** A registered hook as stored (its secret signs every delivery; it is shown to the organiser once). */
export interface StoredWebhook {
  id: string;
  url: string;
  secret: string;
  /** ms since the epoch. */
  createdAt: number;
}

/** A hook with its status, as `list` reads it. */
export interface StoredWebhookWithStatus extends StoredWebhook {
  status: WebhookStatus;
}

/** Webhook storage. Methods reject only on I/O failure, never for a refusal. */
export interface WebhookStore {
  /**
   * Register `hook` for event `eventId` unless the event already has `max` hooks (checked and written together).
   * @returns false when it had `max` (nothing written).
   */
  add(eventId: string, hook: StoredWebhook, max: number): Promise<boolean>;
  /** The event's hooks with their status, oldest first (none: []). */
  list(eventId: string): Promise<StoredWebhookWithStatus[]>;
  /** Remove a hook and its status; false when there was none. */
  remove(eventId: string, id: string): Promise<boolean>;
  /** Keep a hook's status (nothing when the hook was removed meanwhile). */
  setStatus(eventId: string, id: string, status: WebhookStatus): Promise<void>;
}

/** The status of a hook nothing was sent to yet. */
export function freshStatus(): WebhookStatus {
  return { lastSuccess: null, lastAttempt: null, consecutiveFailures: 0, lastError: null, dropped: 0 };
}
