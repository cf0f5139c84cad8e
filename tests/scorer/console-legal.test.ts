/**
 * The scorer console never builds a step the rules refuse as contradictory, foreign or meant for another
 * kind of shot (D-30: `inconsistent-shot`, `foreign-fact`, `not-for-this-shot`), generated over the family:
 * legal states of simulated matches (shared/simulate.ts) in both disciplines, both rulesets and every
 * Rotation option that changes the panel (call shot, push out, single rack), and for each state every input
 * the panels offer — the 14-1 break answers (called ball made × count, cushions, every set of break fouls),
 * the ordinary shot (counter, named balls, miss, safety, every foul of the menu), every path through the
 * rack-area questions, the Rotation picker (picked balls × first hit × called ball × called pocket) with
 * every control `rotationActions` lists (break, record / miss with the R-11 question, safety, push out, the
 * implied foul, the foul menu) and every answer of the choice panel. The panels and their keys go through
 * these same functions, so what they enable is what is checked here.
 *
 * Both directions: a control the console offers enabled is accepted by the engine (no refusal at all), and a
 * control it shows disabled for a conflict (./conflicts) is one the engine refuses with `inconsistent-shot`,
 * so the console never blocks a step the rules would take.
 */
import { describe, expect, test } from 'vitest';
import { applyStep, newMatch, view, type Match, type MatchState, type Shot, type Step } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { plausibleStep, seededRandom } from '../../shared/simulate';
import { choiceOptions } from '../../web/src/scorer/choices';
import {
  BREAK_FOULS,
  RACK_AREA_ANSWERS,
  STRAIGHT_FOULS,
  breakShot,
  madeCount,
  madeShot as straightMadeShot,
  menuFoulShot,
  missShot,
  rackAreaFollowUp,
  rackAreaStep,
  safetyShot as straightSafetyShot,
  straightFoulConflict,
  togglePicked,
  type BreakAnswers,
  type BreakFoul,
} from '../../web/src/scorer/straight';
import {
  contactFromValue,
  emptyDraft,
  firstHitOptions,
  madeShot as rotationMadeShot,
  rotationActions,
  setCalled,
  toggleBall,
  type RotationDraft,
} from '../../web/src/scorer/rotation';
import { rackAreaQuestion, warningOffered } from '../../web/src/scorer/questions';
import type { RackArea } from '../../shared/protocol/steps';
import type { RotationSetup } from '../../shared/protocol/setup';

/** Every state a simulated match passes through (deduplicated), `games` matches of up to `steps` steps each. */
function simulatedStates(setupIn: unknown, games: number, steps: number, skill: number): Match[] {
  const setup = parseSetup(setupIn);
  const seen = new Set<string>();
  const out: Match[] = [];
  for (let g = 0; g < games; g++) {
    const rand = seededRandom(1000 + g * 7919);
    let m = newMatch(setup);
    for (let i = 0; i < steps && !m.core.winner; i++) {
      const key = JSON.stringify(view(m));
      if (!seen.has(key)) {
        seen.add(key);
        out.push(m);
      }
      const r = applyStep(m, plausibleStep(m, rand, skill));
      if (!r.ok) throw new Error(`simulate: ${r.error.message}`);
      m = r.match;
    }
  }
  return out;
}

/** Runs the console's steps against the engine and keeps the figures and the failures. */
class Checker {
  accepted = 0;
  blocked = 0;
  failures: string[] = [];
  /** What was reached (control ids, rack-area paths, conflicts), so the run cannot pass by reaching nothing. */
  reached = new Set<string>();

  /** An enabled control: the engine must accept its step. */
  offered(m: Match, what: string, step: Step): void {
    this.reached.add(what);
    const r = applyStep(m, step);
    if (r.ok) this.accepted++;
    else this.fail(m, what, step, `refused ${r.error.code}: ${r.error.message}`);
  }

  /** A control shown disabled for a conflict: the engine must refuse it as contradictory. */
  refused(m: Match, what: string, step: Step): void {
    this.reached.add(what);
    const r = applyStep(m, step);
    if (!r.ok && r.error.code === 'inconsistent-shot') this.blocked++;
    else this.fail(m, what, step, r.ok ? 'blocked, yet the engine accepts it' : `blocked, engine says ${r.error.code}`);
  }

  /** A step the engine takes that the console does not offer. */
  missing(m: Match, what: string, step: Step): void {
    this.fail(m, what, step, 'the engine takes it, the console does not offer it');
  }

  private fail(m: Match, what: string, step: Step, why: string): void {
    if (this.failures.length < 20) this.failures.push(`${what}: ${JSON.stringify(step)} on ${JSON.stringify(slim(view(m)))} → ${why}`);
    else this.failures.length++;
  }
}

const slim = (s: MatchState) => ({
  d: s.discipline,
  turn: s.turn,
  balls: s.ballsOnTable,
  onTable: s.onTable,
  breakShot: s.breakShot,
  score: s.score,
  awaiting: s.awaiting,
  pushOut: s.pushOutAvailable,
});

/** All subsets of a list (the break fouls: 16). */
const subsets = <T>(xs: readonly T[]): T[][] => xs.reduce<T[][]>((acc, x) => acc.concat(acc.map((s) => [...s, x])), [[]]);

/** Every choice word there is (docs/case-format.md `choice`). */
const CHOICE_WORDS = ['accept', 'rebreak', 'rerack', 'shoot', 'pass'] as const;

/**
 * The pending decision's answers, as the choice panel offers them (both answers of the R-8 question); and the
 * other way: every choice word the engine takes now is one the panel offers.
 */
function checkChoices(c: Checker, m: Match): void {
  const s = view(m);
  const offered = new Set<string>();
  for (const inKitchen of [false, true]) {
    for (const o of choiceOptions(s, inKitchen)) {
      c.offered(m, `choice:${o.label}`, o.step);
      offered.add(JSON.stringify(o.step));
    }
  }
  for (const word of CHOICE_WORDS) {
    const step = { choice: word };
    if (applyStep(m, step).ok && !offered.has(JSON.stringify(step))) c.missing(m, `choice word ${word}`, step);
  }
}

// ── 14-1 ────────────────────────────────────────────────────────────────────────────────────────────────

/** Every path through the rack-area questions after a scoring shot that leaves `left` balls. */
function rackAreaPaths(left: 0 | 1): { path: string; area: RackArea }[] {
  const out: { path: string; area: RackArea }[] = [];
  const walk = (path: string, area: RackArea) => {
    const q = rackAreaFollowUp(left, area);
    if (q === null) return void out.push({ path, area });
    for (const yes of [true, false])
      walk(`${path}>${q}=${yes}`, { ...area, ...(q === 'break-ball-in-kitchen' ? { breakBallInKitchen: yes } : { headSpotTaken: yes }) });
  };
  for (const [name, area] of Object.entries(RACK_AREA_ANSWERS[left])) {
    // "neither" (one ball left) and "no" (none left) record at once, with every fact false.
    if (name === 'neither' || name === 'no') out.push({ path: `${left}:${name}`, area });
    else walk(`${left}:${name}`, area);
  }
  return out;
}

/** A scoring shot as the panel sends it: at once, or with the answers of each rack-area path. */
function checkMade(c: Checker, m: Match, what: string, shot: Shot): void {
  const left = rackAreaQuestion(m.setup, view(m), shot);
  if (left === null) return c.offered(m, what, { shot });
  for (const { path, area } of rackAreaPaths(left)) c.offered(m, `${what}+rack ${path}`, { shot: { ...shot, rackArea: rackAreaStep(left, area) } });
}

/** The balls the scorer can name in the picker: none, each alone, two, and as many as it takes in order. */
function pickSets(s: MatchState): number[][] {
  const list = s.onTable ?? Array.from({ length: 15 }, (_, i) => i + 1);
  const all = list.reduce<number[]>((p, b) => togglePicked(p, b, s), []);
  const sets = [[], ...list.map((b) => togglePicked([], b, s)), togglePicked(togglePicked([], list[0]!, s), list[list.length - 1]!, s), all];
  return sets.filter((p, i) => sets.findIndex((q) => q.join() === p.join()) === i);
}

function checkStraight(c: Checker, m: Match): void {
  const s = view(m);
  if (s.awaiting) return checkChoices(c, m);
  if (s.breakShot) {
    for (const fouls of subsets<BreakFoul>(BREAK_FOULS)) {
      for (let n = 1; n <= Math.min(15, s.ballsOnTable); n++) {
        c.offered(m, 'break-made', { shot: breakShot({ calledMade: true, pocketed: n, cueBall: 'rail', objectBalls: 2, fouls }) });
      }
      for (const cueBall of ['rail', 'no-rail'] as const) {
        for (const objectBalls of [0, 1, 2] as const) {
          const a: BreakAnswers = { calledMade: false, pocketed: 1, cueBall, objectBalls, fouls };
          c.offered(m, 'break-record', { shot: breakShot(a) });
        }
      }
    }
    return;
  }
  for (let n = 1; n <= Math.max(1, s.ballsOnTable); n++) {
    const mc = madeCount(n, false, []);
    checkMade(c, m, 'made', straightMadeShot(mc.n));
  }
  for (const picked of pickSets(s)) {
    const tag = picked.length ? '+named' : '';
    if (picked.length) {
      const mc = madeCount(1, true, picked);
      checkMade(c, m, 'made+named', straightMadeShot(mc.n, mc.fromNumbers ? picked : undefined));
    }
    const dropped = picked.length ? picked : undefined;
    c.offered(m, `miss${tag}`, { shot: missShot(dropped) });
    c.offered(m, `safety${tag}`, { shot: straightSafetyShot(dropped) });
    for (const f of STRAIGHT_FOULS) {
      const conflict = straightFoulConflict(f, s, picked);
      const step = { shot: menuFoulShot(f, s, picked) };
      if (conflict) c.refused(m, `foul:${f}${tag} (${conflict})`, step);
      else c.offered(m, `foul:${f}${tag}`, step);
    }
  }
  for (const breaker of ['A', 'B'] as const) c.offered(m, 'stalemate', { stalemate: { breaker } });
  for (const p of ['A', 'B'] as const) if (warningOffered(m.setup, s, p)) c.offered(m, 'warning', { warning: p });
}

// ── Rotation ────────────────────────────────────────────────────────────────────────────────────────────

/** Drafts the picker can make: picked balls × first hit (the select's values) × call (call mode). */
function drafts(s: MatchState, callShot: boolean): { tag: string; d: RotationDraft }[] {
  const table = s.onTable ?? [];
  const low = table[0]!;
  const other = table.find((b) => b !== low);
  const tap = (balls: number[]) => balls.reduce((d, b) => toggleBall(d, b, table), emptyDraft());
  const picks: [string, number[]][] = [
    ['none', []],
    ['lowest', [low]],
    ['all', [...table]],
  ];
  if (other !== undefined) picks.push(['other', [other]], ['lowest+other', [low, other]]);
  const hits = firstHitOptions(s)
    .map((o) => o.value)
    .filter((v, i, vs) => i < 2 || v === 'none' || i === vs.length - 2);
  const out: { tag: string; d: RotationDraft }[] = [];
  for (const [pname, balls] of picks) {
    for (const hit of hits) {
      const d: RotationDraft = { ...tap(balls), firstContact: contactFromValue(s, hit) };
      out.push({ tag: `${pname}/hit ${hit}`, d });
      if (callShot && !s.breakShot && balls.length > 0) {
        out.push({ tag: `${pname}/hit ${hit}/pocket missed`, d: { ...d, calledMade: false } });
        const notPicked = table.find((b) => !balls.includes(b));
        if (notPicked !== undefined) out.push({ tag: `${pname}/hit ${hit}/called ${notPicked}`, d: setCalled(d, notPicked, table) });
      }
    }
  }
  return out;
}

function checkRotation(c: Checker, m: Match): void {
  const s = view(m);
  if (s.awaiting) return checkChoices(c, m);
  const setup = m.setup as RotationSetup;
  const opts = setup.options;
  for (const { d } of drafts(s, opts.callShot)) {
    for (const a of rotationActions(s, d, setup)) {
      const what = `${s.breakShot ? 'break ' : ''}${a.id}`;
      if (a.conflict) c.refused(m, `${what} (${a.conflict})`, { shot: a.shot });
      else if (a.kitchen) for (const yes of [true, false]) c.offered(m, `${what}+kitchen`, { shot: rotationMadeShot(s, d, opts.callShot, yes) });
      else c.offered(m, what, { shot: a.shot });
    }
  }
}

// ── the runs ────────────────────────────────────────────────────────────────────────────────────────────

/** Set-ups and the simulated skill (high: runs that re-rack; low: fouls, three-foul choices). */
const STRAIGHT_SETUPS: [object, number][] = [
  [{ discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [60, 60], options: { requireTwoFoulWarning: true } }, 0.85],
  [{ discipline: '14-1', ruleset: 'wpa', players: ['Ann', 'Bob'], targets: [40, 50] }, 0.85],
  // Picked up with the ball numbers unknown (counts only) and three balls left: the rack-area questions at once.
  [{ discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [30, 30], start: { turn: 'A', ballsOnTable: 3, score: [10, 20] } }, 0.85],
  // Both on two fouls: the two-foul warning (S-15), the third foul and its choice or mandatory re-rack (S-14).
  [
    {
      discipline: '14-1',
      ruleset: 'wpa',
      players: ['Ann', 'Bob'],
      targets: [30, 30],
      options: { requireTwoFoulWarning: true },
      start: { turn: 'A', ballsOnTable: 12, fouls: [2, 2] },
    },
    0.5,
  ],
  [{ discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [30, 30], start: { turn: 'B', ballsOnTable: 8, fouls: [2, 2] } }, 0.5],
];
const ROTATION_SETUPS = [
  { discipline: 'rotation', ruleset: 'nba', players: ['Cleo', 'Dan'] },
  { discipline: 'rotation', ruleset: 'nba', players: ['Cleo', 'Dan'], options: { callShot: true } },
  { discipline: 'rotation', ruleset: 'nba', players: ['Cleo', 'Dan'], options: { callShot: true, pushOut: false } },
  { discipline: 'rotation', ruleset: 'nba', players: ['Cleo', 'Dan'], options: { format: 'single-rack-61' } },
  { discipline: 'rotation', ruleset: 'nba', players: ['Cleo', 'Dan'], start: { turn: 'A', onTable: [6, 11], score: [10, 20] } },
];

describe('the console builds only steps the rules take (D-30 family)', () => {
  test('14-1: break, ordinary shot, named balls, every foul, rack-area paths, choices', { timeout: 120_000 }, () => {
    const c = new Checker();
    let states = 0;
    for (const [setup, skill] of STRAIGHT_SETUPS) {
      for (const m of simulatedStates(setup, 3, 140, skill)) {
        states++;
        checkStraight(c, m);
      }
    }
    console.log(
      `[console-legal] 14-1: ${states} states, ${c.accepted} offered steps accepted, ${c.blocked} blocked steps refused, ${c.reached.size} distinct controls/paths`,
    );
    expect(c.failures).toEqual([]);
    // The run reached the family's every corner (so it cannot pass by reaching nothing).
    for (const k of [
      'break-made',
      'break-record',
      'made',
      'made+named',
      'miss+named',
      'safety+named',
      'foul:off-table+named',
      'stalemate',
      'warning',
      'choice:acceptTable',
      'choice:rebreak',
      'choice:rerack15',
      'foul:no-rail+named (rail)',
      'foul:no-contact+named (no-hit)',
    ])
      expect(c.reached, k).toContain(k);
    const rack = [...c.reached].filter((k) => k.includes('+rack '));
    expect(new Set(rack.map((k) => k.slice(k.indexOf('+rack ') + 6))).size).toBe(rackAreaPaths(1).length + rackAreaPaths(0).length);
  });

  test('Rotation: break, picker × first hit × call, R-11 question, push out, implied and menu fouls, choices', { timeout: 120_000 }, () => {
    const c = new Checker();
    let states = 0;
    for (const setup of ROTATION_SETUPS) {
      for (const m of simulatedStates(setup, 3, 90, 0.6)) {
        states++;
        checkRotation(c, m);
      }
    }
    console.log(
      `[console-legal] Rotation: ${states} states, ${c.accepted} offered steps accepted, ${c.blocked} blocked steps refused, ${c.reached.size} distinct controls`,
    );
    expect(c.failures).toEqual([]);
    for (const k of [
      'break break',
      'break break-4',
      'break break-under4',
      'break implied',
      'break foul:scratch',
      'record',
      'record+kitchen',
      'miss',
      'safety',
      'push-out',
      'implied',
      'foul:no-rail',
      'foul:no-contact',
      'foul:wrong-ball',
      'foul:off-table',
      'foul:touched-ball',
      'choice:shoot',
      'choice:pass',
      'choice:placement',
      'choice:acceptIllegal',
      'choice:rerackIllegal',
      'foul:no-rail (rail)',
      'foul:no-contact (no-hit)',
      'implied (no-hit)',
      'push-out (no-hit)',
      'foul:scratch (no-hit)',
      'foul:off-table (no-hit)',
      'break foul:no-contact (no-hit)',
    ])
      expect(c.reached, k).toContain(k);
    // No rail is never offered on the break (its cushions are the break question): the known refusal.
    expect([...c.reached].filter((k) => k.startsWith('break foul:no-rail'))).toEqual([]);
  });

  test('the three known refusals are exactly what the console now blocks', () => {
    const m = newMatch(parseSetup({ discipline: 'rotation', players: ['Cleo', 'Dan'], start: { turn: 'A', onTable: [3, 5, 9] } }));
    const s = view(m);
    const setup = m.setup as RotationSetup;
    const d = toggleBall(emptyDraft(), 5, s.onTable!);
    const byId = (draft: RotationDraft, st = s) => new Map(rotationActions(st, draft, setup).map((a) => [a.id, a]));
    // "No rail" after tapping a dropped ball: blocked (rail), not sent with `pocketed`.
    expect(byId(d).get('foul:no-rail')).toMatchObject({ shot: { rail: false, pocketed: [5] }, conflict: 'rail' });
    // "No contact" with a picked ball, and first hit "none" with a picked ball: blocked (no-hit).
    expect(byId(d).get('foul:no-contact')?.conflict).toBe('no-hit');
    expect(byId({ ...d, firstContact: null }).get('implied')).toMatchObject({ shot: { firstContact: null, pocketed: [5] }, conflict: 'no-hit' });
    expect(byId({ ...d, firstContact: null }).get('foul:touched-ball')?.conflict).toBeNull(); // a touched ball can drop
    // 14-1: the same two with named balls.
    const st = view(newMatch(parseSetup({ discipline: '14-1', players: ['Ann', 'Bob'], start: { turn: 'A', ballsOnTable: 9 } })));
    expect([straightFoulConflict('no-rail', st, [4]), straightFoulConflict('no-contact', st, [4]), straightFoulConflict('no-rail', st, [])]).toEqual([
      'rail',
      'no-hit',
      null,
    ]);
    // "No rail" on the Rotation break: not in the break's foul menu at all.
    const brk = view(newMatch(parseSetup({ discipline: 'rotation', players: ['Cleo', 'Dan'] })));
    expect(byId(emptyDraft(), brk).has('foul:no-rail')).toBe(false);
    expect(byId(emptyDraft(), brk).has('foul:scratch')).toBe(true);
  });
});
