/**
 * Scorer tokens kept in the browser, one per match (`cuecast.token.<matchId>` in localStorage). The launcher
 * stores the token it got at creation; another device joins with a scorer link carrying it in the URL
 * fragment (`/scorer/<id>#token=…`, never sent to the server or its logs), which the console saves and
 * strips from the address bar. The console checks a token with the server as it opens (`checkScorerToken`)
 * and forgets one found not valid.
 */
import type { OutboxStorage } from '../lib/outbox';
import { readItem, writeItem } from '../lib/storage';

export const tokenKey = (matchId: string) => `cuecast.token.${matchId}`;

export function loadToken(storage: OutboxStorage | null, matchId: string): string | null {
  return readItem(storage, tokenKey(matchId));
}

export function saveToken(storage: OutboxStorage | null, matchId: string, token: string): void {
  writeItem(storage, tokenKey(matchId), token);
}

/**
 * Forget the stored token of a match when it is `token` (found not valid); a different token stored since
 * (another tab, the launcher) is left alone.
 */
export function forgetToken(storage: OutboxStorage | null, matchId: string, token: string): void {
  try {
    if (storage?.getItem(tokenKey(matchId)) === token) storage.removeItem(tokenKey(matchId));
  } catch {
    /* nothing stored */
  }
}

/** A token carried by a scorer link: `#token=…` (preferred) or `?token=…`. */
export function tokenFromUrl(hash: string, search: string): string | null {
  const h = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return h || new URLSearchParams(search).get('token') || null;
}

/** The scorer link for another device (token in the fragment). */
export function scorerLink(origin: string, matchId: string, token?: string | null): string {
  const base = `${origin}/scorer/${encodeURIComponent(matchId)}`;
  return token ? `${base}#token=${encodeURIComponent(token)}` : base;
}

/** Match id from a `/scorer/<id>` path (or `?match=<id>`), null when absent. */
export function matchIdFromLocation(pathname: string, search: string): string | null {
  const m = /\/scorer\/([^/?#]+)/.exec(pathname);
  if (m) return decodeURIComponent(m[1]!);
  return new URLSearchParams(search).get('match');
}

/**
 * The token in what the scorer pasted: a whole scorer link (`…/scorer/<id>#token=…`) or the bare token,
 * white space trimmed. Null when nothing is left.
 */
export function tokenFromPaste(text: string): string | null {
  const t = text.trim();
  if (!t) return null;
  const link = /[#?&]token=([^&#\s]*)/.exec(t);
  if (link) {
    try {
      return decodeURIComponent(link[1]!) || null;
    } catch {
      return link[1] || null;
    }
  }
  return t;
}

/**
 * What the server says of a scorer token: it may record for this match (`valid`), it may not (`wrong`), the
 * match does not exist (`not-found`), or no answer could be had (`unreachable`: offline, timeout, an
 * answer that is not the API's, a rate limit) — the last says nothing about the token.
 */
export type TokenCheck = 'valid' | 'wrong' | 'not-found' | 'unreachable';

/** How long the console waits for the token check before it counts as unreachable, ms. */
export const TOKEN_CHECK_TIMEOUT_MS = 5000;

/** Tokens are printable ASCII without spaces (the server's are base64url); anything else is not one. */
const TOKEN_SHAPE = /^[\x21-\x7e]{1,200}$/;

/**
 * Ask the server whether `token` may record for `matchId`: `GET /api/matches/<id>/scorer-check` with the
 * token in the `Authorization` header (the answer is yes / no, never the token). Never rejects. A string
 * that cannot be a token (spaces, non-ASCII, over 200 characters) is `wrong` without asking.
 */
export async function checkScorerToken(matchId: string, token: string, fetchFn: typeof fetch = fetch, timeoutMs = TOKEN_CHECK_TIMEOUT_MS): Promise<TokenCheck> {
  if (!TOKEN_SHAPE.test(token)) return 'wrong';
  // An AbortController and a timer, not AbortSignal.timeout: Chromium 92 (OBS 27's browser source) lacks it.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const res = await fetchFn(`/api/matches/${encodeURIComponent(matchId)}/scorer-check`, {
      headers: { authorization: `Bearer ${token}` },
      cache: 'no-store',
      signal: abort.signal,
    });
    const body = (await res.json().catch(() => null)) as { valid?: unknown; error?: { code?: unknown; field?: unknown } } | null;
    if (res.status === 404 && body?.error?.code === 'not-found') return 'not-found';
    // An id the server could never have made (400 naming matchId): no such match either.
    if (res.status === 400 && body?.error?.field === 'matchId') return 'not-found';
    if (res.ok && typeof body?.valid === 'boolean') return body.valid ? 'valid' : 'wrong';
    return 'unreachable';
  } catch {
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ask the server whether a table scorer token may record for `matchId`, the match the tablet at table `table` of
 * event `eventId` shows (issue 27 §4). When it may not, the table is asked for its current match: if the table has
 * moved on to another match that the token does score, the answer is `unreachable` (it says nothing against the
 * token: the tablet is switching matches), so the token is not forgotten. Never rejects.
 */
export async function checkTableToken(eventId: string, table: string, matchId: string, token: string, fetchFn: typeof fetch = fetch): Promise<TokenCheck> {
  const first = await checkScorerToken(matchId, token, fetchFn);
  if (first !== 'wrong') return first;
  try {
    const res = await fetchFn(`/api/events/${encodeURIComponent(eventId)}/tables/${encodeURIComponent(table)}`, { cache: 'no-store' });
    const current = ((await res.json().catch(() => null)) as { current?: unknown } | null)?.current;
    if (typeof current === 'string' && current !== matchId && (await checkScorerToken(current, token, fetchFn)) === 'valid') return 'unreachable';
  } catch {
    /* the table could not be asked: the first answer stands */
  }
  return 'wrong';
}
