/**
 * Applying a `StatsDelta` (what changed in a match's statistics between two versions) to the whole
 * statistics a page holds. Pure and dependency-free (no rules engine, no zod), so the pages' live client
 * bundles it at the cost of a few hundred bytes. The server side that builds deltas is `statsDelta` in
 * shared/stats.ts.
 */
import type { PlayerStats, SheetRow } from './state';
import type { MatchStats, PlayerTotals, StatsDelta, TailPatch, WindowPatch } from './wire';

/** Runs of each inning of player `k` (0 = A), in order: the points column of that player's sheet rows. */
export function runsOf(sheet: readonly SheetRow[], k: 0 | 1): number[] {
  const player = k === 0 ? 'A' : 'B';
  const runs: number[] = [];
  for (const r of sheet) if (r.player === player) runs.push(r.points);
  return runs;
}

/** Player statistics: the totals plus each player's runs from the sheet. */
export function playersOf(totals: readonly [PlayerTotals, PlayerTotals], sheet: readonly SheetRow[]): [PlayerStats, PlayerStats] {
  return [
    { ...totals[0], runs: runsOf(sheet, 0) },
    { ...totals[1], runs: runsOf(sheet, 1) },
  ];
}

/** `list` patched (a new array), or null when the patch does not fit it (it starts past the end). */
function patched<T>(list: readonly T[], p: TailPatch<T>): T[] | null {
  if (!Number.isInteger(p.from) || p.from < 0 || p.from > list.length || !Array.isArray(p.rows)) return null;
  return list.slice(0, p.from).concat(p.rows);
}

/** `list` patched (a new array), or null when the patch does not fit it (a kept range past the end). */
function windowed<T>(list: readonly T[], p: WindowPatch<T>): T[] | null {
  if (!Array.isArray(p.before) || !Array.isArray(p.after) || !Number.isInteger(p.from) || !Number.isInteger(p.to)) return null;
  if (p.from < 0 || p.to < p.from || p.to > list.length) return null;
  return [...p.before, ...list.slice(p.from, p.to), ...p.after];
}

/**
 * The statistics at the delta's version, from `stats` at version `delta.since` (new arrays; `stats` is not
 * changed). O(rows), like rendering them.
 * @returns null when the delta does not fit `stats` (a patch reaching past the end of a list): resync.
 */
export function applyStatsDelta(stats: MatchStats, delta: StatsDelta): MatchStats | null {
  const sheet = patched(stats.sheet, delta.sheet);
  const racks = patched(stats.racks, delta.racks);
  const recent = windowed(stats.recent, delta.recent);
  if (!sheet || !racks || !recent) return null;
  return { players: playersOf(delta.players, sheet), sheet, racks, recent, check: delta.check };
}
