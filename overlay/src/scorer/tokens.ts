/**
 * Scorer tokens kept in the browser, one per match (`cuecast.token.<matchId>` in localStorage). The launcher
 * stores the token it got at creation; another device joins with a scorer link carrying it in the URL
 * fragment (`/scorer/<id>#token=…`, never sent to the server or its logs), which the console saves and
 * strips from the address bar.
 */
import type { OutboxStorage } from '../lib/outbox';

export const tokenKey = (matchId: string) => `cuecast.token.${matchId}`;

export function loadToken(storage: OutboxStorage | null, matchId: string): string | null {
  try {
    return storage?.getItem(tokenKey(matchId)) ?? null;
  } catch {
    return null;
  }
}

export function saveToken(storage: OutboxStorage | null, matchId: string, token: string): void {
  try {
    storage?.setItem(tokenKey(matchId), token);
  } catch {
    /* private mode: the token lives for this page only */
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
