/**
 * What the draw page receives (pure): the whole draw once (`drawView`, on subscribing or a reload) and then,
 * per change, only what changed (`drawDelta`): the matches whose players, status, race, table or result
 * changed, and the standings rows that changed. A 128-player double elimination's delta per result is a few
 * matches (the decided one, the one or two its players go to), well under the 8 KB budget
 * (`npm run bench:draw` measures it).
 */
import type { DrawDefinition } from './types';
import { champion, groupTables, matchViews, readyMatches, standings, type DrawMatchView, type DrawState, type GroupTableView, type StandingRow } from './state';

/** The whole draw as the draw page shows it. */
export interface DrawView {
  format: DrawDefinition['format'];
  trueDouble: boolean;
  /** Player ids by seed (index 0 = seed 1). */
  seeds: string[];
  /** The random draw's seed (shown and stored), when the field was drawn at random. */
  randomSeed?: number;
  matches: DrawMatchView[];
  ready: string[];
  groups: GroupTableView[];
  standings: StandingRow[];
  champion: string | null;
  /** Entries applied (grows with each change; a page that missed one reloads the whole view). */
  entries: number;
}

/** Changes from one draw view to the next: apply to a view at `from` entries to get the view at `to`. */
export interface DrawDelta {
  from: number;
  to: number;
  /** Matches that changed, whole. */
  matches: DrawMatchView[];
  ready: string[];
  /** Group tables that changed, whole. */
  groups: GroupTableView[];
  /** Standings rows that changed, whole. */
  standings: StandingRow[];
  champion: string | null;
}

/** The whole view of `s`. */
export function drawView(s: DrawState): DrawView {
  const v: DrawView = {
    format: s.def.format,
    trueDouble: s.def.trueDouble === true,
    seeds: s.structure.seeds,
    matches: matchViews(s),
    ready: readyMatches(s),
    groups: groupTables(s),
    standings: standings(s),
    champion: champion(s),
    entries: s.entries,
  };
  if (s.def.seeding.by === 'random') v.randomSeed = s.def.seeding.seed;
  return v;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What changed from `before` to `after` (two views of the same draw). */
export function drawDelta(before: DrawView, after: DrawView): DrawDelta {
  const old = new Map(before.matches.map((m) => [m.id, m]));
  const oldRows = new Map(before.standings.map((r) => [r.player, r]));
  return {
    from: before.entries,
    to: after.entries,
    matches: after.matches.filter((m) => !same(old.get(m.id), m)),
    ready: after.ready,
    groups: after.groups.filter((g, i) => !same(before.groups[i], g)),
    standings: after.standings.filter((r) => !same(oldRows.get(r.player), r)),
    champion: after.champion,
  };
}

/** `view` with `delta` applied (a page's side; the standings re-sorted by place as `standings` orders them). */
export function withDelta(view: DrawView, delta: DrawDelta): DrawView {
  const matches = new Map(delta.matches.map((m) => [m.id, m]));
  const groups = new Map(delta.groups.map((g) => [g.group, g]));
  const rows = new Map(delta.standings.map((r) => [r.player, r]));
  const seed = new Map(view.seeds.map((p, i) => [p, i]));
  return {
    ...view,
    matches: view.matches.map((m) => matches.get(m.id) ?? m),
    ready: delta.ready,
    groups: view.groups.map((g) => groups.get(g.group) ?? g),
    standings: view.standings.map((r) => rows.get(r.player) ?? r).sort((x, y) => (x.place ?? 0) - (y.place ?? 0) || seed.get(x.player)! - seed.get(y.player)!),
    champion: delta.champion,
    entries: delta.to,
  };
}
