/**
 * Round-robin group tables (pure): matches won, then head-to-head among the players level on wins (matches
 * won between them), then the points or racks difference (for minus against, over all the group's matches),
 * then the high run, then the seed (the better seed first: the draw order breaks a tie nothing else does).
 */
import type { DrawResult } from './types';

/** A row of a group table. Points are the discipline's score (points in 14-1, points or racks in Rotation). */
export interface GroupRow {
  player: string;
  played: number;
  won: number;
  lost: number;
  /** Points (or racks) for and against, over the decided matches with a score. */
  for: number;
  against: number;
  /** The best run in the group's matches (0 when none was given). */
  highRun: number;
  /** 1-based place in the group (every row has its own: ties are broken down to the seed). */
  place: number;
}

/** A decided match of the group: seed indexes of its players (A first) and its result. */
export interface GroupGame {
  a: number;
  b: number;
  result: DrawResult;
}

/**
 * The table of one group: `members` (seed indexes, best seed first), `ids` (player id by seed index) and the
 * decided `games`. @returns the rows in place order.
 */
export function groupTable(members: readonly number[], ids: readonly string[], games: readonly GroupGame[]): GroupRow[] {
  const rows = new Map<number, GroupRow & { seed: number }>();
  for (const s of members) rows.set(s, { player: ids[s]!, played: 0, won: 0, lost: 0, for: 0, against: 0, highRun: 0, place: 0, seed: s });
  for (const g of games) {
    const winnerIsA = g.result.winner === ids[g.a];
    const [w, l] = winnerIsA ? [g.a, g.b] : [g.b, g.a];
    const rw = rows.get(w)!;
    const rl = rows.get(l)!;
    rw.played++;
    rl.played++;
    rw.won++;
    rl.lost++;
    const sc = g.result.score;
    if (sc) {
      rows.get(g.a)!.for += sc[0];
      rows.get(g.a)!.against += sc[1];
      rows.get(g.b)!.for += sc[1];
      rows.get(g.b)!.against += sc[0];
    }
    const hr = g.result.highRun;
    if (hr) {
      rows.get(g.a)!.highRun = Math.max(rows.get(g.a)!.highRun, hr[0]);
      rows.get(g.b)!.highRun = Math.max(rows.get(g.b)!.highRun, hr[1]);
    }
  }
  // Head-to-head: wins against the players level with you on wins.
  const h2h = (seed: number, level: ReadonlySet<number>): number =>
    games.filter((g) => (g.a === seed || g.b === seed) && level.has(g.a) && level.has(g.b) && g.result.winner === ids[seed]).length;
  const all = [...rows.values()];
  const byWins = new Map<number, Set<number>>();
  for (const r of all) byWins.set(r.won, (byWins.get(r.won) ?? new Set()).add(r.seed));
  const key = new Map(all.map((r) => [r.seed, h2h(r.seed, byWins.get(r.won)!)]));
  all.sort(
    (x, y) => y.won - x.won || key.get(y.seed)! - key.get(x.seed)! || y.for - y.against - (x.for - x.against) || y.highRun - x.highRun || x.seed - y.seed,
  );
  return all.map(({ seed: _seed, ...row }, i) => ({ ...row, place: i + 1 }));
}
