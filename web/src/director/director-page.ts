/**
 * The auto-director page's pure parts (`/director/<eventId>`, ./DirectorApp.svelte): its address and settings
 * from the URL, the settings kept in this browser (table → OBS scene, hold time, TV table), a first guess of a
 * table's scene from OBS's scene names, and the page's clock (the real one, or one a test moves by hand).
 */
import { numberParam } from '../lib/live-route';
import { readItem, writeItem } from '../lib/storage';

/** What `/director/<eventId>` (on the Vite dev server also `?event=<id>`) names: the event, or nothing. */
export function directorEvent(loc: { pathname: string; search: string }): string | null {
  const q = new URLSearchParams(loc.search).get('event');
  if (q) return q;
  const parts = loc.pathname
    .split('/')
    .filter(Boolean)
    .map((p) => decodeURIComponent(p));
  return parts[0] === 'director' && parts[1] ? parts[1] : null;
}

/** The page's settings from its address, and what was wrong in it (shown with `debug=1`; the default is used). */
export interface DirectorParams {
  /** Minimum time on a table between two cuts, seconds (`hold=`, 3–600, default 20); the page's own field wins once changed. */
  holdS: number | null;
  /** How long after a recorded step a table counts as between shots, seconds (`settle=`, 1–60, default 8). */
  settleS: number;
  /** Interest points the best table must be ahead of the one on air (`margin=`, 0–100, default 10). */
  margin: number;
  /** `tv=<table id>`: the TV table (the page's pick and this browser keep it after); null: not given. */
  tv: string | null;
  /** `clock=test`: the page's clock moves only when a test moves it (`window.cuecastDirectorClock.advance(ms)`). */
  testClock: boolean;
  debug: boolean;
  warnings: string[];
}

/** Hold time bounds and default (seconds). */
export const HOLD = { min: 3, max: 600, fallback: 20 } as const;
const SETTLE = { min: 1, max: 60, fallback: 8 } as const;
const MARGIN = { min: 0, max: 100, fallback: 10 } as const;

/** The settings in `search`; a value out of range or not a number is replaced by its default and named in `warnings`. */
export function directorParams(search: string): DirectorParams {
  const q = new URLSearchParams(search);
  const warnings: string[] = [];
  const num = (key: string, b: { min: number; max: number; fallback: number }): number | null => {
    const raw = q.get(key);
    if (raw === null || raw.trim() === '') return null;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < b.min || n > b.max) {
      warnings.push(`${key}=${raw}: must be a number from ${b.min} to ${b.max}; ${b.fallback} is used`);
      return b.fallback;
    }
    return n;
  };
  const clock = q.get('clock');
  if (clock !== null && clock !== 'test') warnings.push(`clock=${clock}: only clock=test is known; the real clock is used`);
  return {
    holdS: num('hold', HOLD),
    settleS: num('settle', SETTLE) ?? SETTLE.fallback,
    margin: num('margin', MARGIN) ?? MARGIN.fallback,
    tv: q.get('tv'),
    testClock: clock === 'test',
    debug: q.get('debug') === '1',
    warnings,
  };
}

/** What this browser keeps for an event's director: table id → OBS scene name, the hold time (s), the TV table. */
export interface DirectorSettings {
  scenes: Record<string, string>;
  holdS: number;
  /** The TV table picked on the page ('' none: the event's own, if it names one). */
  tv: string;
}

const key = (eventId: string) => `cuecast.director.${eventId}`;

/** The settings kept for `eventId` (defaults for what is missing or unreadable). */
export function loadSettings(storage: Storage | null, eventId: string): DirectorSettings {
  const out: DirectorSettings = { scenes: {}, holdS: HOLD.fallback, tv: '' };
  try {
    const raw = JSON.parse(readItem(storage, key(eventId)) ?? '{}') as Partial<DirectorSettings>;
    if (raw.scenes && typeof raw.scenes === 'object')
      for (const [table, scene] of Object.entries(raw.scenes)) if (typeof scene === 'string' && scene) out.scenes[table] = scene;
    if (typeof raw.holdS === 'number' && raw.holdS >= HOLD.min && raw.holdS <= HOLD.max) out.holdS = raw.holdS;
    if (typeof raw.tv === 'string') out.tv = raw.tv;
  } catch {
    /* unreadable: the defaults */
  }
  return out;
}

/** Keep `settings` for `eventId` in this browser. */
export function saveSettings(storage: Storage | null, eventId: string, settings: DirectorSettings): void {
  writeItem(storage, key(eventId), JSON.stringify(settings));
}

/** Clamp a hold time typed on the page (seconds) to its bounds; not a number → null. */
export function holdOf(v: unknown): number | null {
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? numberParam(String(n), HOLD.fallback, HOLD.min, HOLD.max) : null;
}

/** Loose form of a name for matching: lower case, letters and digits only (`Table 1` = `table-1` = `TABLE1`). */
const loose = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The OBS scene a table most likely has, when none is mapped yet: the scene named like the table's name or id
 * (case, spaces and punctuation aside), else one that contains it as a word ("Cam – Table 2"); null when none
 * or several match.
 */
export function guessScene(table: { id: string; name: string }, scenes: readonly string[]): string | null {
  const names = [loose(table.name), loose(table.id)].filter(Boolean);
  const exact = scenes.filter((s) => names.includes(loose(s)));
  if (exact.length === 1) return exact[0]!;
  const word = (s: string, n: string) => new RegExp(`(^|[^\\p{L}\\p{N}])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}])`, 'iu').test(s);
  const contains = scenes.filter((s) => word(s, table.name));
  return contains.length === 1 ? contains[0]! : null;
}

/** The page's clock: ms, only ever growing; `advance` moves a test clock (the real one ignores it). */
export interface PageClock {
  now(): number;
  onAdvance(cb: () => void): () => void;
  readonly test: boolean;
}

/** The real clock (performance.now), or with `test` one that stands still until `advance(ms)` is called. */
export function pageClock(test: boolean): PageClock & { advance(ms: number): void } {
  let t = 0;
  const listeners = new Set<() => void>();
  return {
    test,
    now: () => (test ? t : performance.now()),
    onAdvance(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    advance(ms) {
      if (!test) return;
      if (!(ms >= 0)) throw new Error(`ms: must be a number ≥ 0, got ${ms}`);
      t += ms;
      for (const cb of [...listeners]) cb();
    },
  };
}
