/**
 * Reading what a page shows from its address: the match id from `/<page>/<matchId>` (or `?match=<id>`
 * on the Vite dev server, where pages live at `/<page>.html`), and small helpers for URL parameters.
 */

/** The match id of `/overlay/abc`, `/dashboard/abc`, `/watch/abc`, or `?match=abc`; null when none (or a table route). */
export function matchIdFromLocation(loc: { pathname: string; search: string } = location): string | null {
  const q = new URLSearchParams(loc.search).get('match');
  if (q) return q;
  const parts = loc.pathname.split('/').filter(Boolean);
  if (parts[1] === 'table') return null;
  if (parts.length >= 2 && !parts[1]!.endsWith('.html')) return decodeURIComponent(parts[1]!);
  return null;
}

/** A table of an event, as the table-following pages name it. */
export interface TableRef {
  eventId: string;
  table: string;
}

/**
 * The table of `/overlay/table/<eventId>/<table>` (the same under `/watch/` and `/dashboard/`), or of
 * `?event=<id>&table=<table>` on the Vite dev server; null when the address names none.
 */
export function tableFromLocation(loc: { pathname: string; search: string } = location): TableRef | null {
  const q = new URLSearchParams(loc.search);
  const eventId = q.get('event');
  const table = q.get('table');
  if (eventId && table) return { eventId, table };
  const parts = loc.pathname.split('/').filter(Boolean);
  if (parts[1] === 'table' && parts.length >= 4) return { eventId: decodeURIComponent(parts[2]!), table: decodeURIComponent(parts[3]!) };
  return null;
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
