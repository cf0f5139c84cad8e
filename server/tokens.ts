/** Match ids, scorer tokens and their constant-time check. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new match id: 12 URL-safe characters (72 random bits). */
export function newMatchId(): string {
  return randomBytes(9).toString('base64url');
}

/** A new scorer token: 32 URL-safe characters (192 random bits), shown once to the match creator. */
export function newScorerToken(): string {
  return randomBytes(24).toString('base64url');
}

/** sha256 hex of a token: what the store keeps. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** True when `token` hashes to `tokenHash`; compares the fixed-length digests in constant time. */
export function tokenMatches(token: unknown, tokenHash: string): boolean {
  if (typeof token !== 'string' || token.length === 0 || token.length > 200) return false;
  const a = Buffer.from(hashToken(token), 'hex');
  const b = Buffer.from(tokenHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Constant-time comparison of two secrets of any length (for the admin token). */
export function secretEquals(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

/** A new event id: made like a match id (12 URL-safe characters). */
export const newEventId = newMatchId;

/** A new organiser token: made like a scorer token (192 random bits), shown once to the event's creator. */
export const newOrganiserToken = newScorerToken;

/**
 * A new table scorer token (issue 27 §4): `<eventId>.<tableId>.<secret>` (the secret made like a scorer
 * token), so the server finds the event and table a token belongs to without a search; only the whole
 * token's hash is stored (TournamentDoc `tablets`).
 */
export function newTableToken(eventId: string, tableId: string): string {
  return `${eventId}.${tableId}.${newScorerToken()}`;
}

/** The event and table a table scorer token names, or null when `token` is not shaped like one. */
export function tableTokenParts(token: unknown): { eventId: string; table: string } | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const m = /^([A-Za-z0-9_-]{1,64})\.([a-z0-9-]{1,32})\.[A-Za-z0-9_-]{32}$/.exec(token);
  return m ? { eventId: m[1]!, table: m[2]! } : null;
}
