/**
 * The auto-director's pure core (shared/director.ts): the interest ranking and its reasons, "between shots", and
 * the cut decision. Unit cases for each reason and rule, then properties over random runs of a 3–5 table floor
 * (random steps, clock ticks, the producer's picks and resumes, driven through `decideCut` as the page does):
 * the director never cuts by itself inside the hold time, never while a shot is in progress on the table on air,
 * never while the producer holds a table, and never to a table without a scene or with nothing live on it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  betweenShots,
  decideCut,
  overrideActive,
  RANK_DEFAULTS,
  rankTable,
  rankTables,
  type CutInput,
  type Override,
  type RankedTable,
  type TableFacts,
} from '../../shared/director';
import { fcRuns } from '../helpers/fc-runs';

type Line = NonNullable<TableFacts['line']>;
const line = (over: Partial<Line> = {}): Line => ({
  discipline: '14-1',
  score: [0, 0],
  targets: [100, 100],
  turn: 'A',
  run: 0,
  onTwoFouls: [false, false],
  winner: null,
  ...over,
});
const facts = (table: string, l: Line | null, over: Partial<TableFacts> = {}): TableFacts => ({ table, line: l, clock: null, tv: false, ...over });
const kinds = (r: RankedTable) => r.reasons.map((x) => x.kind);

describe('rankTable: the reasons', () => {
  it('scores nothing on an empty table or a won match', () => {
    expect(rankTable(facts('t1', null))).toEqual({ table: 't1', score: 0, reasons: [], state: 'idle' });
    expect(rankTable(facts('t1', line({ score: [100, 40], winner: 'A' })))).toEqual({ table: 't1', score: 0, reasons: [], state: 'finished' });
    expect(rankTable(facts('t1', line())).score).toBe(0);
  });

  it('hill-hill: both need at most 10 % of the race; the shooter on the hill is about to win (more on a run)', () => {
    const r = rankTable(facts('t1', line({ score: [92, 90] })));
    expect(kinds(r)).toEqual(['hill-hill', 'about-to-win']);
    expect(r.reasons[0]).toEqual({ kind: 'hill-hill', points: 35, needs: [8, 10] });
    expect(r.reasons[1]).toEqual({ kind: 'about-to-win', points: 25, player: 'A', needs: 8 });
    const running = rankTable(facts('t1', line({ score: [92, 90], run: 4 })));
    expect(running.reasons.find((x) => x.kind === 'about-to-win')!.points).toBe(35);
    expect(running.reasons.find((x) => x.kind === 'run')).toEqual({ kind: 'run', points: 11, player: 'A', run: 4 });
    // 11 needed of 100 is not the hill.
    expect(kinds(rankTable(facts('t1', line({ score: [89, 95], turn: 'B' }))))).toEqual(['about-to-win', 'close-finish']);
  });

  it('close finish: grows as both near the end and as the gap shrinks; nothing early or far apart', () => {
    const at = (a: number, b: number) => rankTable(facts('t', line({ score: [a, b] }))).reasons.find((x) => x.kind === 'close-finish')?.points ?? 0;
    expect(at(30, 30)).toBe(0);
    expect(at(75, 75)).toBe(15);
    expect(at(85, 85)).toBeGreaterThan(at(75, 75));
    expect(at(85, 80)).toBeLessThan(at(85, 85));
    expect(at(85, 60)).toBe(0);
  });

  it('a run counts from 3 balls, 2 points a ball, at most 40', () => {
    const run = (n: number) => rankTable(facts('t', line({ run: n, turn: 'B' }))).reasons.find((x) => x.kind === 'run');
    expect(run(2)).toBeUndefined();
    expect(run(3)).toEqual({ kind: 'run', points: 9, player: 'B', run: 3 });
    expect(run(14)!.points).toBe(31);
    expect(run(60)!.points).toBe(40);
    // Rotation counts a run in points: 8 points (the average ball) a ball.
    const rot = (n: number) => rankTable(facts('t', line({ discipline: 'rotation', targets: [120, 120], run: n }))).reasons.find((x) => x.kind === 'run');
    expect(rot(23)).toBeUndefined();
    expect(rot(24)).toEqual({ kind: 'run', points: 9, player: 'A', run: 24 });
  });

  it('a shot clock running out counts from 10 s left, more as it runs out; not idle, paused or expired', () => {
    const clock = (status: 'running' | 'idle' | 'paused' | 'expired', ms: number) =>
      rankTable(facts('t', line(), { clock: { status, remainingMs: ms } })).reasons.find((x) => x.kind === 'shot-clock');
    expect(clock('running', 12_000)).toBeUndefined();
    expect(clock('running', 10_000)).toEqual({ kind: 'shot-clock', points: 10, seconds: 10 });
    expect(clock('running', 2_500)).toEqual({ kind: 'shot-clock', points: 25, seconds: 3 });
    expect(clock('running', 0)!.points).toBe(30);
    for (const s of ['idle', 'paused', 'expired'] as const) expect(clock(s, 2_000)).toBeUndefined();
  });

  it('the shooter on two fouls, and the TV table', () => {
    expect(kinds(rankTable(facts('t', line({ onTwoFouls: [false, true], turn: 'B' }))))).toEqual(['two-fouls']);
    expect(kinds(rankTable(facts('t', line({ onTwoFouls: [false, true], turn: 'A' }))))).toEqual([]);
    expect(rankTable(facts('t', line(), { tv: true })).reasons).toEqual([{ kind: 'tv-table', points: 10 }]);
  });

  it('the score is the sum of the reasons, largest first', () => {
    const r = rankTable(
      facts('t', line({ score: [95, 91], run: 9, onTwoFouls: [true, false] }), { tv: true, clock: { status: 'running', remainingMs: 4000 } }),
    );
    expect(r.score).toBe(r.reasons.reduce((a, x) => a + x.points, 0));
    expect(r.reasons.map((x) => x.points)).toEqual([...r.reasons.map((x) => x.points)].sort((a, b) => b - a));
  });
});

describe('rankTables', () => {
  it('most interesting first; a tie goes to live, then the TV table, then the event order', () => {
    const ranked = rankTables([
      facts('t1', null),
      facts('t2', line({ run: 5 })),
      facts('t3', line(), { tv: true }),
      facts('t4', line({ score: [93, 95] })),
      facts('t5', line()),
      facts('t6', line({ winner: 'A' })),
    ]);
    expect(ranked.map((r) => r.table)).toEqual(['t4', 't2', 't3', 't5', 't1', 't6']);
    const tie = rankTables([facts('a', line()), facts('b', line(), { tv: true })], { ...RANK_DEFAULTS });
    expect(tie.map((r) => r.table)).toEqual(['b', 'a']);
  });

  it('refuses a repeated table and options out of range, naming them', () => {
    expect(() => rankTables([facts('t1', null), facts('t1', null)])).toThrow(/tables\[1\]\.table/);
    expect(() => rankTables([], { ...RANK_DEFAULTS, hillShare: 1 })).toThrow(/hillShare/);
    expect(() => rankTables([], { ...RANK_DEFAULTS, runFrom: 0 })).toThrow(/runFrom/);
    expect(() => rankTables([], { ...RANK_DEFAULTS, clockFromMs: Number.NaN })).toThrow(/clockFromMs/);
  });
});

describe('betweenShots', () => {
  it('no live match, the settle window after a step, an idle or paused clock', () => {
    expect(betweenShots({ live: false, sinceStepMs: null, clock: 'running' }, 5000)).toBe(true);
    expect(betweenShots({ live: true, sinceStepMs: 0, clock: null }, 5000)).toBe(true);
    expect(betweenShots({ live: true, sinceStepMs: 5000, clock: null }, 5000)).toBe(true);
    expect(betweenShots({ live: true, sinceStepMs: 5001, clock: null }, 5000)).toBe(false);
    expect(betweenShots({ live: true, sinceStepMs: null, clock: null }, 5000)).toBe(false);
    expect(betweenShots({ live: true, sinceStepMs: 60_000, clock: 'idle' }, 5000)).toBe(true);
    expect(betweenShots({ live: true, sinceStepMs: 60_000, clock: 'paused' }, 5000)).toBe(true);
    expect(betweenShots({ live: true, sinceStepMs: 60_000, clock: 'running' }, 5000)).toBe(false);
    expect(betweenShots({ live: true, sinceStepMs: 60_000, clock: 'expired' }, 5000)).toBe(false);
    expect(() => betweenShots({ live: true, sinceStepMs: 0, clock: null }, -1)).toThrow(/settleMs/);
  });
});

describe('decideCut', () => {
  const ranking = rankTables([facts('t1', line({ run: 10 })), facts('t2', line()), facts('t3', null)]);
  const base: CutInput = {
    ranking,
    onAir: 't2',
    sinceCutMs: 60_000,
    shotInProgress: false,
    holdMs: 20_000,
    margin: 10,
    override: null,
    cuttable: new Set(['t1', 't2', 't3']),
  };

  it('cuts to a better table between shots after the hold, with its reasons', () => {
    expect(decideCut(base)).toEqual({ cut: true, to: 't1', why: 'better', reasons: ranking[0]!.reasons });
    expect(decideCut({ ...base, onAir: null, sinceCutMs: null })).toMatchObject({ cut: true, to: 't1', why: 'first' });
  });

  it('stays: inside the hold, during a shot, not ahead by the margin, already on air, nothing live', () => {
    expect(decideCut({ ...base, sinceCutMs: 19_999 })).toEqual({ cut: false, why: 'hold' });
    expect(decideCut({ ...base, shotInProgress: true })).toEqual({ cut: false, why: 'shot' });
    expect(decideCut({ ...base, margin: 30 })).toEqual({ cut: false, why: 'margin' });
    expect(decideCut({ ...base, onAir: 't1' })).toEqual({ cut: false, why: 'on-top' });
    expect(decideCut({ ...base, cuttable: new Set(['t3']) })).toEqual({ cut: false, why: 'nothing' });
    expect(decideCut({ ...base, cuttable: new Set(['t2', 't3']) })).toEqual({ cut: false, why: 'on-top' });
  });

  it("the producer's pick: cut to it at once (whatever the hold or the shot), then hold it", () => {
    const override: Override = { table: 't3', until: null };
    expect(decideCut({ ...base, override, sinceCutMs: 0, shotInProgress: true })).toEqual({ cut: true, to: 't3', why: 'manual', reasons: [] });
    expect(decideCut({ ...base, override, onAir: 't3' })).toEqual({ cut: false, why: 'override' });
    expect(overrideActive({ table: 't3', until: 1000 }, 999)).toBe(true);
    expect(overrideActive({ table: 't3', until: 1000 }, 1000)).toBe(false);
    expect(overrideActive({ table: 't3', until: null }, 1e12)).toBe(true);
    expect(overrideActive(null, 0)).toBe(false);
  });

  it('refuses a negative hold or margin, naming it', () => {
    expect(() => decideCut({ ...base, holdMs: -1 })).toThrow(/holdMs/);
    expect(() => decideCut({ ...base, margin: Number.NaN })).toThrow(/margin/);
  });
});

/** One moment of a random run: time passes, a step on a table, the producer picks a table or resumes. */
type Event =
  | { kind: 'tick'; ms: number }
  | { kind: 'step'; table: number; points: number; miss: boolean }
  | { kind: 'pick'; table: number; forMs: number | null }
  | { kind: 'resume' };

const events = (tables: number): fc.Arbitrary<Event[]> =>
  fc.array(
    fc.oneof(
      { weight: 5, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 15_000 }) }) },
      {
        weight: 5,
        arbitrary: fc.record({ kind: fc.constant('step' as const), table: fc.nat(tables - 1), points: fc.integer({ min: 0, max: 6 }), miss: fc.boolean() }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('pick' as const), table: fc.nat(tables - 1), forMs: fc.option(fc.integer({ min: 1000, max: 60_000 })) }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('resume' as const) }) },
    ),
    { maxLength: 120 },
  );

describe('decideCut driven like the page (properties)', () => {
  it('never cuts by itself inside the hold, during a shot on air, while the producer holds a table, or to a table without a scene or nothing live', () => {
    const total = { cuts: 0, auto: 0 };
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 5 }),
        fc.integer({ min: 0, max: 30_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 30 }),
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        fc.integer({ min: 0, max: 4 }),
        events(5),
        (n, holdMs, settleMs, margin, scenes, tv, all) => {
          const evs = all.filter((e) => !('table' in e) || e.table < n);
          const ids = Array.from({ length: n }, (_, i) => `t${i}`);
          const cuttable = new Set(ids.filter((_, i) => scenes[i] || i === 0));
          const lines: Line[] = ids.map(() => line({ targets: [60, 60] }));
          const lastStep: (number | null)[] = ids.map(() => null);
          let now = 0;
          let onAir: string | null = null;
          let lastCut: number | null = null;
          let override: Override | null = null;
          let cuts = 0;
          let autoCuts = 0;
          const evaluate = () => {
            const ranking = rankTables(ids.map((id, i) => facts(id, lines[i]!, { tv: i === tv })));
            const air = onAir === null ? -1 : ids.indexOf(onAir);
            const shot =
              air >= 0 &&
              !betweenShots({ live: lines[air]!.winner === null, sinceStepMs: lastStep[air] === null ? null : now - lastStep[air]!, clock: null }, settleMs);
            const active = overrideActive(override, now) ? override : null;
            const d = decideCut({
              ranking,
              onAir,
              sinceCutMs: lastCut === null ? null : now - lastCut,
              shotInProgress: shot,
              holdMs,
              margin,
              override: active,
              cuttable,
            });
            if (!d.cut) return;
            expect(cuttable.has(d.to)).toBe(true);
            expect(d.to).not.toBe(onAir);
            if (d.why === 'manual') expect(d.to).toBe(active!.table);
            else {
              expect(active).toBeNull();
              if (lastCut !== null) expect(now - lastCut).toBeGreaterThanOrEqual(holdMs);
              expect(shot).toBe(false);
              expect(ranking.find((r) => r.table === d.to)!.state).toBe('live');
              autoCuts++;
            }
            onAir = d.to;
            lastCut = now;
            cuts++;
          };
          for (const e of evs) {
            if (e.kind === 'tick') now += e.ms;
            else if (e.kind === 'step') {
              const l = lines[e.table]!;
              if (l.winner) continue;
              const p = idx(l.turn);
              const score: [number, number] = [l.score[0], l.score[1]];
              score[p] = Math.min(l.targets[p], score[p] + e.points);
              const won = score[p] >= l.targets[p];
              lines[e.table] = {
                ...l,
                score,
                run: e.miss ? 0 : l.run + e.points,
                turn: e.miss && !won ? (l.turn === 'A' ? 'B' : 'A') : l.turn,
                winner: won ? l.turn : null,
              };
              lastStep[e.table] = now;
            } else if (e.kind === 'pick') override = { table: `t${e.table}`, until: e.forMs === null ? null : now + e.forMs };
            else override = null;
            evaluate();
          }
          total.cuts += cuts;
          total.auto += autoCuts;
        },
      ),
      { numRuns: fcRuns(400) },
    );
    // The runs did make the director cut, by itself too (the checks above were reached).
    expect(total.auto).toBeGreaterThan(0);
    expect(total.cuts).toBeGreaterThan(total.auto);
  });
});

const idx = (p: 'A' | 'B'): 0 | 1 => (p === 'A' ? 0 : 1);
