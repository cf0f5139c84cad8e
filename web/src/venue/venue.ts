/**
 * The venue screens' pure parts: which screen an address names, the event theme as CSS custom properties, and
 * the hall board's pages (how many tables fit on one screen, and which tables each page shows), and its "next up"
 * band from the event's draw.
 */
import { drawPlaceLabel, type DrawMatchView } from '../../../shared/draw/index';
import type { RosterPlayer, ThemePreset } from '../../../shared/protocol/event';
import type { Pair } from '../../../shared/protocol/vocabulary';
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

/** Most matches the hall board's "next up" band lists. */
export const NEXT_UP_MAX = 4;

/** The parts of `GET /api/events/<id>/draw`'s `draw` the hall board reads (pins, the TV table, matches, ready list). */
export interface BoardDraw {
  settings: { pins: Record<string, string>; featured: string[]; tvTable: string | null };
  draw: { matches: DrawMatchView[]; ready: string[] };
}

/** One match of the "next up" band: its place in the draw, its players and the table it is planned for. */
export interface NextUpItem {
  /** Draw match id (`W2-1`). */
  id: string;
  /** Round and place (shared/draw `drawPlaceLabel`): "Semi-finals · Match 1". */
  label: string;
  /** Full names from the roster (the roster id when a player is not on it). */
  players: Pair<string>;
  countries: Pair<string | null>;
  /** Name of the table it must go on (pinned there, or a featured match for the TV table), else null. */
  table: string | null;
}

/**
 * The hall board's "next up" (issue 27 §5): the draw's ready matches that are not on a table yet, earliest round
 * first (the draw's ready order, which autopilot follows), at most `max`, with the planned table when the organiser
 * pinned the match or featured it for the TV table. No draw (null): empty, and the band is hidden.
 */
export function nextUp(d: BoardDraw | null, roster: readonly RosterPlayer[], tables: readonly { id: string; name: string }[], max = NEXT_UP_MAX): NextUpItem[] {
  if (!d) return [];
  const byId = new Map(d.draw.matches.map((m) => [m.id, m]));
  const player = (id: string | null) => roster.find((p) => p.id === id);
  const tableName = (id: string | undefined | null) => (id ? (tables.find((t) => t.id === id)?.name ?? id) : null);
  const out: NextUpItem[] = [];
  for (const id of d.draw.ready) {
    const m = byId.get(id);
    if (!m || m.status !== 'ready') continue;
    const [a, b] = m.players;
    if (!a || !b || a === 'bye' || b === 'bye') continue;
    const planned = d.settings.pins[id] ?? (d.settings.featured.includes(id) ? d.settings.tvTable : null);
    out.push({
      id,
      label: drawPlaceLabel(m),
      players: [player(a)?.name ?? a, player(b)?.name ?? b],
      countries: [player(a)?.country ?? null, player(b)?.country ?? null],
      table: tableName(planned),
    });
    if (out.length >= max) break;
  }
  return out;
}

/** The round and place of the draw match scored as cuecast match `matchId` (null: not a match of the draw). */
export function drawPlaceOf(d: BoardDraw | null, matchId: string | null): string | null {
  const m = matchId && d ? d.draw.matches.find((x) => x.matchId === matchId) : undefined;
  return m ? drawPlaceLabel(m) : null;
}
