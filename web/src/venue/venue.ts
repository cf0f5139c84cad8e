/**
 * The venue screens' pure parts: which screen an address names, the event theme as CSS custom properties, and
 * the hall board's pages (how many tables fit on one screen, and which tables each page shows).
 */
import type { ThemePreset } from '../../../shared/protocol/event';
import { hexColour } from '../lib/live-route';

/** What a venue address shows: the hall board of an event, or the table screen of one of its tables. */
export type VenueRoute = { kind: 'board'; eventId: string } | { kind: 'table'; eventId: string; table: string } | { kind: 'missing' };

/**
 * The screen of `/venue/<eventId>` or `/tableside/<eventId>/<table>` (on the Vite dev server also
 * `?event=<id>` and `?event=<id>&table=<table>`); `missing` when the address names no event (or no table).
 */
export function venueRoute(loc: { pathname: string; search: string }): VenueRoute {
  const q = new URLSearchParams(loc.search);
  const parts = loc.pathname
    .split('/')
    .filter(Boolean)
    .map((p) => decodeURIComponent(p));
  const eventId = q.get('event') ?? (parts[1] && !parts[1].endsWith('.html') ? parts[1] : null);
  if (!eventId) return { kind: 'missing' };
  if (parts[0] === 'tableside' || q.has('table')) {
    const table = q.get('table') ?? parts[2];
    return table ? { kind: 'table', eventId, table } : { kind: 'missing' };
  }
  return { kind: 'board', eventId };
}

/**
 * The event's theme as CSS custom properties for a venue screen (`--bg`, `--fg`, `--accent`, `--a`, `--b`;
 * colours are hex only, anything else is dropped), and whether it is the light theme.
 */
export function themeStyle(theme: ThemePreset): { style: string; light: boolean } {
  const vars: string[] = [];
  const set = (name: string, v: string | undefined) => {
    const c = hexColour(v ?? null);
    if (c) vars.push(`--${name}: ${c}`);
  };
  set('panel', theme.bg);
  set('fg', theme.fg);
  set('accent', theme.accent);
  set('a', theme.a);
  set('b', theme.b);
  return { style: vars.join('; '), light: theme.theme === 'light' };
}

/**
 * How many table tiles one board page shows at a viewport of `width`×`height` CSS pixels: 8 (4×2) on a wide
 * screen, fewer on a narrow one, so a tile's score stays large (≥ 48 px at 1080p).
 */
export function tilesPerPage(width: number, height: number): number {
  return width / height >= 1.5 ? 8 : 6;
}

/** The board's pages: `ids` in chunks of `perPage` (at least one page, empty when there is no table). */
export function boardPages<T>(ids: readonly T[], perPage: number): T[][] {
  const pages: T[][] = [];
  for (let i = 0; i < ids.length; i += perPage) pages.push(ids.slice(i, i + perPage));
  return pages.length ? pages : [[]];
}

/** Grid columns for `n` tiles on a page: 1 → 1, 2 → 2, 3 → 3, 4 → 2 (2×2), 5–6 → 3, 7–8 → 4. */
export function columnsFor(n: number): number {
  return n === 4 ? 2 : n <= 3 ? Math.max(1, n) : n <= 6 ? 3 : 4;
}
