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

/**
 * True when a refused subscription means the page's match does not exist: no such match (`not-found`), or
 * an id that cannot be one (`invalid-request` on `matchId`). Pages then say "match not found" instead of
 * waiting or showing a "live" connection chip.
 */
export function isMatchMissing(error: { code: string; field?: string }): boolean {
  return error.code === 'not-found' || (error.code === 'invalid-request' && error.field === 'matchId');
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
