/**
 * Reading what a page shows from its address: the match id from `/<page>/<matchId>` (or `?match=<id>`
 * on the Vite dev server, where pages live at `/<page>.html`), and small helpers for URL parameters.
 */

/** The match id of `/overlay/abc`, `/dashboard/abc`, `/watch/abc`, or `?match=abc`; null when none. */
export function matchIdFromLocation(loc: { pathname: string; search: string } = location): string | null {
  const q = new URLSearchParams(loc.search).get('match');
  if (q) return q;
  const parts = loc.pathname.split('/').filter(Boolean);
  if (parts.length >= 2 && !parts[1]!.endsWith('.html')) return decodeURIComponent(parts[1]!);
  return null;
}

/**
 * True when a refused subscription means the page's match does not exist: no such match (`not-found`), or
 * an id that cannot be one (`invalid-request` on `matchId`). Pages then say "match not found" instead of
 * waiting or showing a "live" connection chip.
 */
export function isMatchMissing(error: { code: string; field?: string }): boolean {
  return error.code === 'not-found' || (error.code === 'invalid-request' && error.field === 'matchId');
}

/** A CSS colour from a URL parameter: `ff8800`, `#ff8800`, `f80` (hex only, so nothing else reaches CSS). */
export function hexColour(v: string | null): string | null {
  if (!v) return null;
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(v.trim());
  return m ? `#${m[1]}` : null;
}

/** A finite number from a URL parameter within [min, max], else `fallback`. */
export function numberParam(v: string | null, fallback: number, min: number, max: number): number {
  if (v === null || v.trim() === '') return fallback;
  const n = Number(v);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

/**
 * Remember a language the user picked: in the page address (`?lang=`, so a shared or reloaded link keeps it),
 * on `<html lang>`, and in localStorage for pages opened without `?lang=`.
 */
export function rememberLang(lang: string): void {
  const u = new URL(location.href);
  u.searchParams.set('lang', lang);
  history.replaceState(null, '', u);
  document.documentElement.lang = lang;
  try {
    localStorage.setItem('cuecast.lang', lang);
  } catch {
    /* private mode: the address still carries it */
  }
}
