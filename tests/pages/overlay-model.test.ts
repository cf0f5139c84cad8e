/**
 * The overlay's view model, checked against the real rules engine without a browser (overlay/src/):
 * the scorebug view (run beside the shooter, race once, short names), the one caption line (merged, sticky
 * pending choices), moments derived from the previous and new state in both disciplines, the on-air timing
 * (caption cleared after `caption` seconds, 0 keeps it, a moment then the bar), name fitting and dropping
 * characters no font can draw, and the set-up's short names and 60-character names.
 */
import { describe, expect, it } from 'vitest';
import { caption } from '../../web/src/lib/format';
import '../../web/src/lib/i18n-air'; // every language's on-air strings, for the formatter
import { defaultForm, toSetup } from '../../web/src/launcher/setup-form';
import { captionLine, displayNames, nameChoices, overlayView } from '../../overlay/src/model';
import { HIGH_RUN_MIN, type MomentView, momentMemory, nextMoment } from '../../overlay/src/moments';
import { drawableText, fitName, nameForms } from '../../web/src/lib/names';
import { createOnAir, notable, type OnAirState, type Timers } from '../../overlay/src/onair';
import { parseOverlayParams } from '../../overlay/src/params';
import { LANGS } from '../../web/src/lib/i18n';
import { applyStep, newMatch, statsOf, view, type Match } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { scorebugFigures } from '../../shared/stats';
import type { MatchState } from '../../shared/protocol/state';
import type { Step } from '../../shared/protocol/steps';
import { plausibleStep, seededRandom } from '../../shared/simulate';

/** Every state along `steps` (index 0 = the fresh match). */
function states(setup: unknown, steps: Step[]): MatchState[] {
  let m: Match = newMatch(parseSetup(setup));
  const out = [view(m)];
  for (const s of steps) {
    const r = applyStep(m, s);
    if (!r.ok) throw r.error;
    m = r.match;
    out.push(view(m));
  }
  return out;
}

const STRAIGHT = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bo'], targets: [100, 100] };
const ROTATION = { discipline: 'rotation', players: ['Ann', 'Bo'], targets: [200, 200] };
const BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
const BREAKING_FOUL: Step = { shot: { call: 'safety', breakRails: { objectBalls: 1, cueBall: true } } };
const pot = (b: number): Step => ({ shot: { call: { ball: b }, pocketed: [b] } });
/** A standard foul: no rail after contact. */
const FOUL: Step = { shot: { call: { ball: 7 }, rail: false } };
const MISS: Step = { shot: { call: { ball: 13 } } };
/** Bo runs 14 (a continuous re-rack at the 14th ball), then 2 more, then misses: a run of 16. */
const RUN_16: Step[] = [BREAK, ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map(pot), pot(1), pot(2), MISS];
const P = (q = '') => parseOverlayParams(q);

/** Moments along a whole sequence, as the overlay derives them (first state = boot). */
function momentsOf(all: MatchState[], q = ''): (MomentView | null)[] {
  const p = P(q);
  let memory = momentMemory(all[0]!);
  return all.slice(1).map((s, i) => {
    const r = nextMoment(all[i]!, s, memory, p, displayNames(s, null, p));
    memory = r.memory;
    return r.moment;
  });
}

describe('scorebug view', () => {
  it('puts the run beside the shooter, shows the race once, and offers the full name, then the short name', () => {
    const all = states(STRAIGHT, RUN_16.slice(0, 4));
    const s = all.at(-1)!;
    const setup = { shortNames: [null, 'B.'] as [null, string] };
    const v = overlayView(s, P(), [nameChoices(s, setup, 0, P()), nameChoices(s, setup, 1, P())], ['DE', null]);
    expect(v.players.map((p) => [p.names, p.fullName, p.country])).toEqual([
      [['Ann'], 'Ann', 'DE'],
      [['Bo', 'B.'], 'Bo', null],
    ]);
    expect(v.run).toEqual({ slot: 1, label: 'Run', value: '3' });
    expect(v.turnSlot).toBe(1);
    expect(v.centre).toBe('Race to 100');
    expect(v.handicap).toBe(false); // the panels show no "/100" next to "Race to 100"
    expect(v.info.map((i) => i.id)).toEqual(['rack', 'balls']);
    // side=B: Bo on the left, so the run is in slot 0; hide=run: no run at all.
    expect(overlayView(s, P('?side=B')).run?.slot).toBe(0);
    expect(overlayView(s, P('?hide=run')).run).toBeNull();
    expect(overlayView(s, P('?lang=ja')).run?.label).toBe('ラン');
    expect(overlayView(s, P('?show=innings')).players[0].items.map((i) => [i.id, i.value])).toEqual([
      ['highrun-A', '0'],
      ['innings-A', '1'],
    ]);
  });

  it('a handicap race names each target by its player, in display order; Rotation: rack points and the ball row', () => {
    const s = states({ ...STRAIGHT, targets: [60, 40] }, [])[0]!;
    expect(overlayView(s, P()).centre).toBe('Race to 60/40');
    expect(overlayView(s, P('?side=B')).centre).toBe('Race to 40/60');
    const r = states(ROTATION, [{ shot: { pocketed: [1, 9] } }]).at(-1)!;
    const v = overlayView(r, P('?show=balls'));
    expect(v.ballRow).toEqual(r.onTable);
    expect(v.ballRow![0]).toBe(2);
    expect(v.info.map((i) => i.id)).toEqual(['rack']); // the ball row stands for lowest ball, balls and points left
    expect(v.players.map((p) => p.items.map((i) => [i.id, i.value]))).toEqual([
      [
        ['rack-points-A', '10'],
        ['highrun-A', '10'],
      ],
      [
        ['rack-points-B', '0'],
        ['highrun-B', '0'],
      ],
    ]);
    expect(overlayView(r, P()).ballRow).toBeNull();
  });

  it('per player: a Rotation race adds the racks won, 14-1 the innings and the average with show=innings,average, from the figures the server sends (the statistics’ own)', () => {
    const items = (v: ReturnType<typeof overlayView>) => v.players.map((p) => p.items.map((i) => `${i.id} ${i.label} ${i.value}`));
    // Rotation race: Ann clears rack 1 (1…15); in rack 2 a dry shot, then 1 and 2 (3 points).
    let m: Match = newMatch(parseSetup(ROTATION));
    const rack1: Step[] = Array.from({ length: 15 }, (_, i) => ({ shot: { pocketed: [i + 1] } }));
    for (const step of [...rack1, { shot: { pocketed: [] } }, { shot: { pocketed: [1, 2] } }] as Step[]) {
      const r = applyStep(m, step);
      if (!r.ok) throw r.error;
      m = r.match;
    }
    const rot = scorebugFigures(m.setup, m.stats, m.core);
    expect(rot.racksWon).toEqual([1, 0]);
    const s = view(m);
    expect(items(overlayView(s, P(), undefined, null, rot))).toEqual([
      ['racks-won-A Racks won 1', `rack-points-A Rack points ${s.rackPoints[0]}`, `highrun-A High run ${s.highRun[0]}`],
      ['racks-won-B Racks won 0', `rack-points-B Rack points ${s.rackPoints[1]}`, `highrun-B High run ${s.highRun[1]}`],
    ]);
    expect(s.rackPoints[0] + s.rackPoints[1]).toBe(3);
    // The corner bug: the high run beside the name, the figures as pairs in its bottom row, top player first (side=B: Bo).
    const corner = overlayView(s, P('?layout=corner&side=B'), undefined, null, rot);
    expect(corner.players.map((pl) => pl.items.map((i) => i.id))).toEqual([['highrun-B'], ['highrun-A']]);
    // Then Rotation's rack facts: the lowest ball and points left, balls left and the rack (issue 29: the rack last).
    expect(corner.info.map((i) => `${i.id} ${i.label} ${i.value}`)).toEqual([
      'racks-won Racks 0\u20131',
      `rack-points This rack ${s.rackPoints[1]}\u2013${s.rackPoints[0]}`,
      `lowest Lowest ball ${s.lowestBall}`,
      `points-left Points left ${s.pointsLeft}`,
      `balls Balls left ${s.ballsOnTable}`,
      'rack Rack 2',
    ]);
    expect(corner.lead).toEqual([]);
    // Without the figures (an older server), no racks won and no average: never a made-up 0.
    expect(
      items(overlayView(s, P('?show=average')))
        .flat()
        .some((i) => /racks-won|average/.test(i)),
    ).toBe(false);
    // A single rack to 61: its one rack is the match, no racks won.
    const single = newMatch(parseSetup({ ...ROTATION, options: { format: 'single-rack-61' } }));
    expect(scorebugFigures(single.setup, single.stats, single.core).racksWon).toBeNull();

    // 14-1 picked up at 10 : 4 after 3 innings each: Bo runs 3 and misses, Ann misses; the average is the statistics' own.
    let k: Match = newMatch(parseSetup({ ...STRAIGHT, start: { score: [10, 4], innings: [3, 3], turn: 'B' } }));
    for (const step of [pot(1), pot(2), pot(3), MISS, MISS]) {
      const r = applyStep(k, step);
      if (!r.ok) throw r.error;
      k = r.match;
    }
    const fig = scorebugFigures(k.setup, k.stats, k.core);
    expect(fig).toEqual({ average: statsOf(k).players.map((p) => p.average), racksWon: null });
    const ks = view(k);
    expect(ks.innings).toEqual([4, 4]);
    expect(items(overlayView(ks, P('?show=innings,average&lang=ja'), undefined, null, fig))).toEqual([
      [`highrun-A ハイラン ${ks.highRun[0]}`, 'innings-A イニング 4', 'average-A アベレージ 2.50'],
      [`highrun-B ハイラン ${ks.highRun[1]}`, 'innings-B イニング 4', 'average-B アベレージ 1.75'],
    ]);
    expect(fig.average).toEqual([2.5, 1.75]); // 10 ÷ 4 and 7 ÷ 4
    // hide=highrun drops the high run only.
    expect(items(overlayView(ks, P('?show=average&hide=highrun'), undefined, null, fig))[1]).toEqual(['average-B Average 1.75']);
  });

  it('falls back to the full name, then to "Player A", when nothing of a name can be drawn', () => {
    const s = states({ ...STRAIGHT, players: ['🎱🎱', 'Bo 🎱'] }, [])[0]!;
    const noEmoji = (t: string) => drawableText(t, (c) => c !== '🎱');
    expect(displayNames(s, null, P(), noEmoji)).toEqual(['Player A', 'Bo']);
    expect(displayNames(s, { shortNames: ['🎱', null] }, P('?lang=zh-TW'), noEmoji)).toEqual(['選手 A', 'Bo']);
    expect(displayNames(s, { shortNames: ['Annie', null] }, P(), noEmoji)).toEqual(['Annie', 'Bo']);
  });
});

describe('the caption line', () => {
  it('merges the event with what comes next; a pending choice is sticky; hide picks one part', () => {
    const [, foul] = states(STRAIGHT, [BREAKING_FOUL]);
    const merged = captionLine(foul!, P());
    expect(merged).toEqual({ text: caption(foul!, 'en', true), sticky: true, names: foul!.names });
    expect(merged.text).toContain('Bo'); // names the player who must choose
    expect(captionLine(foul!, P('?hide=situation')).text).toBe(caption(foul!, 'en'));
    expect(captionLine(foul!, P('?hide=caption')).text).toBe('Bo to choose: accept the table or re-break');
    expect(captionLine(foul!, P('?hide=caption,situation'))).toMatchObject({ text: '', sticky: false });
    const run = states(STRAIGHT, [BREAK, pot(3)]).at(-1)!;
    expect(captionLine(run, P()).sticky).toBe(false);
  });

  it('names the player of every step as the scorebug names them (short names too), in every language, in one line', () => {
    const full = ['Annabelle Lee', 'Bartholomew Smith'];
    const short = ['Annie', 'Bart'];
    let lines = 0;
    for (const [i, base] of [STRAIGHT, ROTATION, { ...ROTATION, options: { illegalBreakPolicy: 'foul' } }].entries()) {
      const setup = { ...base, players: full };
      const rand = seededRandom(40 + i);
      let m: Match = newMatch(parseSetup(setup));
      for (let n = 0; n < 250 && !view(m).winner; n++) {
        const r = applyStep(m, plausibleStep(m, rand));
        if (!r.ok) continue;
        m = r.match;
        const s = view(m);
        for (const lang of LANGS) {
          const p = P(`?lang=${lang}`);
          const names = displayNames(s, { shortNames: [short[0]!, short[1]!] }, p);
          const line = captionLine(s, p, names);
          const ctx = `${lang} ${JSON.stringify(s.last)}: ${line.text}`;
          expect(line.text, ctx).not.toContain('\n');
          expect(line.text.match(/ \u00b7 /g)?.length ?? 0, ctx).toBeLessThanOrEqual(1); // event · what comes next, once
          if (s.last!.kind !== 'stalemate') expect(line.text, ctx).toContain(short[s.last!.by === 'A' ? 0 : 1]);
          for (const f of full) expect(line.text, ctx).not.toContain(f); // the short name, never the full one
          expect(line.text, ctx).toBe(caption({ ...s, names: [short[0]!, short[1]!] }, lang, true));
          lines++;
        }
      }
    }
    expect(lines).toBeGreaterThan(600);
  });
});

describe('moments from the previous and the new state', () => {
  it('14-1: a re-rack with the run so far, a new high run when the run ends, and none after an undo or with hide=moments', () => {
    const all = states(STRAIGHT, RUN_16);
    const ms = momentsOf(all);
    const rerack = ms[14]!; // the 14th ball of Bo's run
    expect(rerack).toMatchObject({ kind: 'rerack', player: 'B', name: 'Bo', figure: '14', title: 'Re-rack' });
    const high = ms.at(-1)!;
    expect(high).toMatchObject({ kind: 'high-run', player: 'B', figure: '16' });
    expect(ms.filter(Boolean)).toHaveLength(2);
    expect(momentsOf(all, '?hide=moments').filter(Boolean)).toEqual([]);
    // Ann then runs 10 (not a record: 16 stands): no moment.
    const more = states(STRAIGHT, [...RUN_16, ...[3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(pot), MISS]);
    expect(more.at(-1)!.highRun).toEqual([10, 16]);
    expect(momentsOf(more).slice(RUN_16.length).filter(Boolean)).toEqual([]);
    // An undo of the miss shows nothing.
    const undone = states(STRAIGHT, [...RUN_16, { undo: true }]);
    expect(momentsOf(undone).at(-1)).toBeNull();
  });

  it('a short run is no moment even when it is the best so far', () => {
    const ms = momentsOf(states(STRAIGHT, [BREAK, pot(1), pot(2), MISS]));
    expect(HIGH_RUN_MIN['14-1']).toBe(10);
    expect(ms.filter(Boolean)).toEqual([]);
  });

  it('the match won: the winner, the final score in display order, the race and high runs', () => {
    const all = states({ ...STRAIGHT, targets: [15, 15] }, [BREAK, ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map(pot)]);
    expect(all.at(-1)!.winner).toBe('B');
    const won = momentsOf(all, '?side=B').at(-1)!;
    expect(won).toMatchObject({ kind: 'match-won', player: 'B', name: 'Bo', title: 'Match won' });
    // Each score by its own name (display order: side=B puts Bo first), the winner marked.
    expect(won.sides).toEqual([
      { key: 'B', name: 'Bo', value: '15', winner: true },
      { key: 'A', name: 'Ann', value: '0', winner: false },
    ]);
    expect(won.details).toEqual([
      { id: 'moment-race', label: '', value: 'Race to 15' },
      { id: 'moment-high-runs', label: 'High runs', value: 'Bo\u00a015 \u00b7 Ann\u00a00' },
    ]);
  });

  it('Rotation: a rack won, with the rack points of the finished rack', () => {
    const steps: Step[] = [{ shot: { pocketed: [1] } }, ...[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map((b) => ({ shot: { pocketed: [b] } }))];
    const all = states(ROTATION, steps);
    expect(all.at(-1)!.rack).toBe(2);
    const ms = momentsOf(all, '?lang=ja');
    expect(ms.at(-1)).toMatchObject({ kind: 'rack-won', player: 'A', name: 'Ann', title: 'ラック1獲得' });
    expect(ms.at(-1)!.sides!.map((x) => [x.key, x.value, x.winner])).toEqual([
      ['A', '120', true],
      ['B', '0', false],
    ]);
    expect(ms.slice(0, -1).filter(Boolean)).toEqual([]);
  });

  it('Rotation: a rack is won by the player who reached 61 (R-13), as the statistics count it; one shared 60–60 shows no rack won', () => {
    const pots = (balls: number[]): Step[] => balls.map((b) => ({ shot: { pocketed: [b] } }));
    const miss: Step = { shot: {} };
    // Ann 1–9 and 15 (60), Bo 10–14 (60); Ann pockets the last ball.
    const racksWon = (steps: Step[]) => {
      const m = steps.reduce(
        (acc, st) => {
          const r = applyStep(acc, st);
          if (!r.ok) throw r.error;
          return r.match;
        },
        newMatch(parseSetup(ROTATION)),
      );
      return scorebugFigures(m.setup, m.stats, m.core).racksWon;
    };
    const tiedSteps = [...pots([1, 2, 3, 4, 5, 6, 7, 8, 9]), miss, ...pots([10, 11, 12, 13, 14]), miss, ...pots([15])];
    const tied = states(ROTATION, tiedSteps);
    expect([tied.at(-1)!.rack, tied.at(-2)!.rackPoints]).toEqual([2, [45, 60]]);
    expect(momentsOf(tied).filter((m) => m?.kind === 'rack-won')).toEqual([]);
    expect(racksWon(tiedSteps)).toEqual([0, 0]);
    // Ann 1–8, 11 and 14 (61), Bo 9, 10, 12, 13 and the last ball 15 (59): the rack is Ann's.
    const wonSteps = [
      ...pots([1, 2, 3, 4, 5, 6, 7, 8]),
      miss,
      ...pots([9, 10]),
      miss,
      ...pots([11]),
      miss,
      ...pots([12, 13]),
      miss,
      ...pots([14]),
      miss,
      ...pots([15]),
    ];
    const won = states(ROTATION, wonSteps);
    expect(won.at(-1)!.rack).toBe(2);
    expect(racksWon(wonSteps)).toEqual([1, 0]);
    expect(momentsOf(won).at(-1)).toMatchObject({ kind: 'rack-won', player: 'A' });
    expect(
      momentsOf(won)
        .at(-1)!
        .sides!.map((x) => [x.key, x.value, x.winner]),
    ).toEqual([
      ['A', '61', true],
      ['B', '59', false],
    ]);
  });
});

describe('on air over time', () => {
  /** Fake one-shot timers: `advance(ms)` fires what is due. */
  function clock() {
    let now = 0;
    const due: { at: number; fn: () => void; id: number }[] = [];
    let ids = 0;
    const timers: Timers = {
      set: (fn, ms) => {
        due.push({ at: now + ms, fn, id: ++ids });
        return ids;
      },
      clear: (id) => {
        const i = due.findIndex((d) => d.id === id);
        if (i >= 0) due.splice(i, 1);
      },
    };
    return {
      timers,
      pending: () => due.length,
      advance(ms: number) {
        now += ms;
        for (const d of due.filter((d) => d.at <= now)) {
          due.splice(due.indexOf(d), 1);
          d.fn();
        }
      },
    };
  }
  function run(q: string) {
    const c = clock();
    const seen: OnAirState[] = [];
    const air = createOnAir(P(q), (s) => seen.push(s), undefined, c.timers);
    const last = () => seen.at(-1)!;
    return { c, air, last, feed: (s: MatchState) => air.feed(s, null) };
  }

  it('boots without replaying the last caption; a new step shows one line for `caption` seconds; 0 keeps it', () => {
    const all = states(STRAIGHT, [BREAK, pot(3), pot(4)]);
    const t = run('?caption=8&captions=all');
    t.feed(all[2]!);
    expect(t.last().caption).toBeNull();
    t.feed(all[3]!);
    expect(t.last().caption?.text).toBe(caption(all[3]!, 'en', true));
    t.c.advance(7999);
    expect(t.last().caption).not.toBeNull();
    t.c.advance(1);
    expect(t.last().caption).toBeNull();
    expect(t.c.pending()).toBe(0); // idle: no timer left

    const keep = run('?caption=0&captions=all');
    keep.feed(all[2]!);
    expect(keep.last().caption?.text).toBe(caption(all[2]!, 'en', true)); // kept captions show from boot
    keep.feed(all[3]!);
    expect(keep.c.pending()).toBe(0);
  });

  it('captions=notable (the default): a routine pot, a miss or a safety is not captioned; a foul, a re-rack, a choice are; off: none', () => {
    const all = states(STRAIGHT, [BREAK, pot(1), pot(2), MISS, FOUL]);
    const t = run('');
    t.feed(all[0]!);
    const shown: (string | null)[] = [];
    for (const s of all.slice(1)) {
      t.feed(s);
      shown.push(t.last().caption?.text ?? null);
    }
    // The break (a safety), the routine pots and the miss: nothing; Ann's foul with its point.
    expect(shown.slice(0, 4)).toEqual([null, null, null, null]);
    expect(shown[4]).toBe(caption(all[5]!, 'en', true));
    expect(shown[4]).toContain('\u22121');
    expect(notable(all[2]!, false)).toBe(false);
    expect(notable(all.at(-1)!, false)).toBe(true);
    const off = run('?captions=off');
    off.feed(all[0]!);
    for (const s of all.slice(1)) off.feed(s);
    expect(off.last().caption).toBeNull();
  });

  it('an undo shows no old caption as new: "Correction" when the score changed, else nothing', () => {
    const all = states(STRAIGHT, [BREAK, pot(3), { undo: true }, MISS, { undo: true }]);
    const t = run('?captions=all');
    t.feed(all[0]!);
    t.feed(all[1]!);
    t.feed(all[2]!);
    t.feed(all[3]!); // the undo of the pot: the score changed
    expect(t.last().caption?.text).toBe('Correction');
    t.feed(all[4]!);
    t.feed(all[5]!); // the undo of a miss: nothing changed on the scorebug
    expect(t.last().caption).toBeNull();
  });

  it('a pending choice stays until it is made, also on boot', () => {
    const all = states(STRAIGHT, [BREAKING_FOUL, { choice: 'accept' }]);
    const t = run('?caption=1');
    t.feed(all[1]!);
    expect(t.last().caption?.sticky).toBe(true);
    t.c.advance(60_000);
    expect(t.last().caption?.text).toBe(caption(all[1]!, 'en', true));
    t.feed(all[2]!);
    expect(t.last().caption?.sticky).toBe(false);
    t.c.advance(1000);
    expect(t.last().caption).toBeNull();
  });

  it('a moment is on air for `moment` seconds, then leaves; the next step ends it at once', () => {
    const all = states(STRAIGHT, RUN_16);
    const t = run('?moment=5&captions=all');
    t.feed(all[13]!);
    t.feed(all[14]!);
    t.feed(all[15]!); // the re-rack
    expect(t.last()).toMatchObject({ caption: null, moment: { kind: 'rerack' } });
    t.c.advance(5000);
    expect(t.last()).toMatchObject({ caption: null, moment: null });
    t.feed(all[16]!);
    t.feed(all[17]!);
    t.feed(all[18]!); // the miss: new high run
    expect(t.last().moment?.kind).toBe('high-run');
    t.feed(states(STRAIGHT, [...RUN_16, pot(3)]).at(-1)!); // Ann pots: current news
    expect(t.last().moment).toBeNull();
    expect(t.last().caption?.text).toContain('+1');
    t.air.stop();
    expect(t.c.pending()).toBe(0);
  });
});

describe('names on air', () => {
  const measure = (s: string, px: number) => s.length * px * 0.5; // a monospace-like font: 0.5 em per character

  it('the full name at the largest size that fits down to the floor, then the short name, then the family name; never cut', () => {
    expect(fitName(['Ann Lee'], 400, measure, 48, 40)).toMatchObject({ text: 'Ann Lee', px: 48, form: 0 });
    expect(fitName(['Alexandra Lee'], 300, measure, 48, 40)).toMatchObject({ text: 'Alexandra Lee', px: 46, form: 0 });
    const forms = nameForms('Marcus Holloway-Brennan', 'Marcus H.');
    expect(forms).toEqual(['Marcus Holloway-Brennan', 'Marcus H.', 'M. Holloway-Brennan', 'Holloway-Brennan']);
    expect(fitName(forms, 300, measure, 34, 28)).toMatchObject({ text: 'Marcus H.', px: 34, form: 1 });
    expect(fitName(nameForms('Marcus Holloway-Brennan'), 300, measure, 34, 28)).toMatchObject({ text: 'M. Holloway-Brennan', px: 31 });
    expect(fitName(nameForms('Marcus Holloway-Brennan'), 240, measure, 34, 28)).toMatchObject({ text: 'Holloway-Brennan', px: 30 });
    expect(nameForms('Jan van der Berg')).toEqual(['Jan van der Berg', 'J. van der Berg', 'van der Berg', 'Berg']);
    expect(nameForms('渡辺 健二郎')).toEqual(['渡辺 健二郎']); // a CJK name whole
    // Nothing fits at the floor: the shortest form below it, whole (no ellipsis, no word cut).
    const tight = fitName(nameForms('Wolfeschlegelsteinhausenbergerdorff'), 200, measure, 48, 40);
    expect(tight.text).toBe('Wolfeschlegelsteinhausenbergerdorff');
    expect(tight.px).toBeLessThan(40);
    expect(measure(tight.text, tight.px)).toBeLessThanOrEqual(200);
  });

  it('drops whole characters no font can draw (emoji sequences included) and collapses the spaces left', () => {
    const can = (c: string) => !/[\u{1F3B1}\u{1F9D1}\u{1F3FD}]/u.test(c);
    expect(drawableText('Ann 🎱 Lee', can)).toBe('Ann Lee');
    expect(drawableText('Bo 😀', can)).toBe('Bo 😀');
    expect(drawableText('山田 🧑🏽‍💻 太郎', can)).toBe('山田 太郎'); // ZWJ sequence with a missing part: all of it goes
    expect(drawableText('Zoë', () => false)).toBe('Zo'); // a font without ë
    expect(drawableText('Plain ASCII', () => false)).toBe('Plain ASCII');
  });
});

describe('set-up: short names and long names', () => {
  it('takes a short name per player (or null), strictly validated like names; 60-character names', () => {
    const s = parseSetup({ ...STRAIGHT, players: ['A'.repeat(60), 'Bo'], shortNames: ['Ann', null] });
    expect(s.shortNames).toEqual(['Ann', null]);
    expect(s.players[0]).toHaveLength(60);
    expect(parseSetup(STRAIGHT).shortNames).toBeUndefined();
    const bad: [unknown, string, RegExp][] = [
      [['', null], 'setup.shortNames.0', /empty/],
      [[null, 'x'.repeat(17)], 'setup.shortNames.1', /at most 16/],
      [['A\u202eB', null], 'setup.shortNames.0', /text-direction/],
      [['Ann'], 'setup.shortNames', /./],
    ];
    for (const [shortNames, field, msg] of bad) {
      expect(() => parseSetup({ ...STRAIGHT, shortNames }), JSON.stringify(shortNames)).toThrow(msg);
      try {
        parseSetup({ ...STRAIGHT, shortNames });
      } catch (e) {
        expect((e as { field?: string }).field).toBe(field);
      }
    }
    expect(() => parseSetup({ ...STRAIGHT, players: ['A'.repeat(61), 'Bo'] })).toThrow(/at most 60/);
  });

  it('the launcher form sends short names only when one is filled in', () => {
    const f = { ...defaultForm(), players: ['Ann Lee', 'Bo Smith'] as [string, string] };
    expect(toSetup(f)).toMatchObject({ ok: true, setup: { players: ['Ann Lee', 'Bo Smith'] } });
    expect((toSetup(f) as { setup: object }).setup).not.toHaveProperty('shortNames');
    expect(toSetup({ ...f, shortNames: ['', ' Bo '] })).toMatchObject({ ok: true, setup: { shortNames: [null, 'Bo'] } });
  });
});
