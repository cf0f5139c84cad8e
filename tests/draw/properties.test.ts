/**
 * Property tests of the draw (issue 27 §2, "done when"): over random fields (2–40 players, so most are not a
 * power of two), random seeds and random results in random orders —
 * - single elimination: everyone but the champion loses exactly once; n − 1 matches are played;
 * - double elimination: everyone but the champion is out after exactly two losses (true double); with a final
 *   played once, the hot seat's winner may go out after one (the final); the champion lost at most once;
 * - a bye never meets a bye where the field enters; on the losers' side two byes make a void match that is never
 *   ready, never played;
 * - no player is ever in two ready matches, or in a ready match while on a table;
 * - the state is the same however it is rebuilt: from scratch from the entries as from one entry at a time,
 *   and whatever order the independent results came in (each match's winner fixed by its id and players);
 * - groups: every pair of a group meets exactly once; groups then knockout runs to one champion.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyDrawEntry,
  drawState,
  drawView,
  matchViews,
  readyMatches,
  standings,
  champion,
  type DrawDefinition,
  type DrawMatchView,
  type DrawState,
} from '../../shared/draw/index';
import { fcRuns } from '../helpers/fc-runs';
import { apply, draw, field, playOut } from './play';

/** A winner's slot fixed by the match and its players (so two play orders give each match the same winner). */
function fixedWinner(salt: number): (m: DrawMatchView) => 0 | 1 {
  return (m) => {
    let h = salt >>> 0;
    for (const ch of `${m.id}|${m.players.join(',')}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    return (h >>> 7) % 2 === 0 ? 0 : 1;
  };
}

/** A picker of ready matches driven by random numbers (each in [0, 1)). */
function picker(rs: number[]): (ready: string[]) => string {
  let k = 0;
  return (ready) => ready[Math.floor(rs[k++ % rs.length]! * ready.length)]!;
}

const eliminationDef = fc.record({
  format: fc.constantFrom('single' as const, 'double' as const),
  n: fc.integer({ min: 2, max: 40 }),
  seed: fc.integer({ min: 0, max: 0xffffffff }),
  trueDouble: fc.boolean(),
});

const toDef = (d: { format: 'single' | 'double'; n: number; seed: number; trueDouble: boolean }): DrawDefinition => ({
  format: d.format,
  players: field(d.n),
  seeding: { by: 'random', seed: d.seed },
  races: { default: 5 },
  trueDouble: d.trueDouble,
});

/** Each player's losses over the decided matches. */
function losses(s: DrawState): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of matchViews(s)) {
    if (!m.result) continue;
    const loser = m.players[0] === m.result.winner ? m.players[1]! : m.players[0]!;
    out.set(loser, (out.get(loser) ?? 0) + 1);
  }
  return out;
}

/** No player in two ready matches, nor in a ready match while playing. */
function checkReady(s: DrawState): void {
  const views = matchViews(s);
  const seen = new Set<string>();
  for (const m of views.filter((v) => v.status === 'ready' || v.status === 'playing')) {
    for (const p of m.players) {
      expect(p === null || p === 'bye', `${m.id} has both players`).toBe(false);
      expect(seen.has(p!), `${p} in two ready or playing matches`).toBe(false);
      seen.add(p!);
    }
  }
  expect(new Set(readyMatches(s))).toEqual(new Set(views.filter((v) => v.status === 'ready').map((v) => v.id)));
}

describe('elimination draws over random fields and results', () => {
  it('single: everyone but the champion loses exactly once; double: out after exactly two losses', () => {
    fc.assert(
      fc.property(
        eliminationDef,
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 20 }),
        fc.integer(),
        (d, rs, salt) => {
          const def = toDef(d);
          const { state } = playOut(draw(def), picker(rs), fixedWinner(salt), checkReady);
          const champ = champion(state);
          expect(champ).not.toBeNull();
          const lost = losses(state);
          const played = matchViews(state).filter((m) => m.status === 'done').length;
          if (d.format === 'single') {
            expect(lost.get(champ!) ?? 0).toBe(0);
            for (const p of def.players) if (p.id !== champ) expect(lost.get(p.id), p.id).toBe(1);
            expect(played).toBe(d.n - 1);
          } else {
            expect(lost.get(champ!) ?? 0).toBeLessThanOrEqual(1);
            const final = matchViews(state).find((m) => m.id === 'F')!;
            for (const p of def.players) {
              if (p.id === champ) continue;
              // Without a reset the hot seat's winner who loses the final is out after that one loss.
              const once = !d.trueDouble && final.players[0] === p.id;
              expect(lost.get(p.id), p.id).toBe(once ? 1 : 2);
            }
          }
          // Everyone is out but the champion, and the standings give every player a place.
          const rows = standings(state);
          expect(rows.filter((r) => !r.out).map((r) => r.player)).toEqual([champ]);
          expect(rows.every((r) => r.place !== null)).toBe(true);
          expect(rows[0]).toMatchObject({ player: champ, place: 1 });
          expect(rows.filter((r) => r.place === 2)).toHaveLength(1);
        },
      ),
      { numRuns: fcRuns(60) },
    );
  });

  it("a bye never meets a bye where the field enters; two byes on the losers' side make a void match, never ready; no result for a match not to be played", () => {
    fc.assert(
      fc.property(eliminationDef, (d) => {
        const s = draw(toDef(d));
        const views = matchViews(s);
        const entry = views.filter((m) => m.round === 'R1' || m.round === 'W1' || (d.n === 2 && (m.id === 'F' || m.id === 'HS')));
        for (const m of entry) expect(m.players.filter((p) => p === 'bye').length, m.id).toBeLessThanOrEqual(1);
        for (const m of views) {
          if (m.players[0] === 'bye' && m.players[1] === 'bye') {
            expect(m.side).toBe('L');
            expect(m.status).toBe('void');
          }
        }
        // A bye's match is never to be played: its player is through.
        for (const m of views.filter((v) => v.players.includes('bye'))) {
          if (m.status === 'waiting') expect(m.players, m.id).toContain(null);
          else expect(['bye', 'void'], m.id).toContain(m.status);
        }
        // No result can be recorded for a match that is not to be played (a bye, void, a player not known).
        for (const m of views.filter((v) => v.status !== 'ready')) {
          const r = applyDrawEntry(s, { t: 'result', match: m.id, winner: m.players.find((p) => p !== null && p !== 'bye') ?? 'p1', kind: 'walkover' });
          expect('error' in r && r.error.code, m.id).toBe('not-ready');
        }
      }),
      { numRuns: fcRuns(150) },
    );
  });

  it('the state is the same rebuilt from scratch as one entry at a time, and whatever order the independent results came in', () => {
    fc.assert(
      fc.property(
        eliminationDef,
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 20 }),
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 20 }),
        fc.integer(),
        (d, rs1, rs2, salt) => {
          const def = toDef(d);
          const one = playOut(draw(def), picker(rs1), fixedWinner(salt));
          const two = playOut(draw(def), picker(rs2), fixedWinner(salt));
          const rebuilt = drawState(def, one.entries);
          if ('error' in rebuilt) throw new Error(rebuilt.error.message);
          expect(drawView(rebuilt)).toEqual(drawView(one.state));
          expect(drawView(two.state)).toEqual(drawView(one.state));
          // Midway too: any prefix rebuilt equals the incremental state at that point.
          const cut = Math.floor(one.entries.length / 2);
          let s = draw(def);
          for (const e of one.entries.slice(0, cut)) s = apply(s, e);
          const half = drawState(def, one.entries.slice(0, cut));
          if ('error' in half) throw new Error(half.error.message);
          expect(drawView(half)).toEqual(drawView(s));
        },
      ),
      { numRuns: fcRuns(40) },
    );
  });
});

describe('groups over random fields', () => {
  it('round robin: every pair of a group meets exactly once, nobody is in two ready matches; groups then knockout ends with one champion', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 30 }),
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 20 }),
        fc.integer(),
        fc.constantFrom('single' as const, 'double' as const),
        (n, size, seed, rs, salt, knockout) => {
          const groups = Math.ceil(n / size);
          const smallest = Math.floor(n / groups);
          const advance = Math.max(1, Math.min(2, smallest - 1));
          const knockoutDef: DrawDefinition = {
            format: 'groups-knockout',
            players: field(n),
            seeding: { by: 'random', seed },
            races: { default: 5 },
            groupSize: size,
            advance,
            knockout,
            trueDouble: true,
          };
          const def: DrawDefinition = smallest < 2 || advance * groups < 2 ? { ...knockoutDef, format: 'round-robin' } : knockoutDef;
          const { state } = playOut(draw(def), picker(rs), fixedWinner(salt), checkReady);
          const groupMatches = matchViews(state).filter((m) => m.side === 'G');
          const pairs = new Set(groupMatches.map((m) => [...m.players].sort().join('|')));
          expect(pairs.size).toBe(groupMatches.length);
          expect(groupMatches.every((m) => m.status === 'done')).toBe(true);
          const sizes = new Map<string, number>();
          for (const m of groupMatches) sizes.set(m.group!, (sizes.get(m.group!) ?? 0) + 1);
          const rebuilt = drawState(def, playOut(draw(def), picker(rs), fixedWinner(salt)).entries);
          if ('error' in rebuilt) throw new Error(rebuilt.error.message);
          expect(drawView(rebuilt)).toEqual(drawView(state));
          if (def.format === 'groups-knockout') {
            expect(champion(state)).not.toBeNull();
            expect(standings(state).every((r) => r.place !== null)).toBe(true);
          }
        },
      ),
      { numRuns: fcRuns(25) },
    );
  });
});
