/**
 * Outcomes in every language: the engine gives facts only, the pages' one formatter (web/src/lib/format.ts)
 * words them with one table per language (complete: i18n-tables.test.ts). 200 simulated matches (14-1 NBA and
 * WPA, with the two-foul warning; Rotation race, single rack 61, illegal break as a foul, call shot) are
 * rendered step by step — caption (with and without the situation line), situation, recent-step line and,
 * after an undo, the undo line — in en, ja and zh-TW. A text fails on a leftover `{placeholder}` or key, on
 * English in ja / zh-TW (besides the players' names), on Japanese or Chinese in English, and on a missing
 * fact: the points, penalty, run, balls and fouls of a step, and the name of who took it.
 * Pure: no browser, no server.
 */
import { describe, expect, it } from 'vitest';
import { applyStep, newMatch, statsOf, view, type Match, type Step } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { MatchState, Outcome } from '../../shared/protocol/state';
import { plausibleStep, seededRandom } from '../../shared/simulate';
import { caption, situation, stepLine, stepText, undoLine } from '../../web/src/lib/format';
// On-air strings only (./i18n-air, never ./i18n-pages): the formatter must word every outcome with what the OBS
// overlay ships; a page string would show as its bare key, in English, and fail the checks below.
import { type AirKey, LANGS, type Lang, t } from '../../web/src/lib/i18n-air';

const NAMES: [string, string] = ['Ann', 'Bob'];
const SETUPS = [
  { discipline: '14-1', ruleset: 'nba', targets: [40, 40] },
  { discipline: '14-1', ruleset: 'wpa', targets: [40, 40] },
  { discipline: '14-1', ruleset: 'nba', targets: [40, 40], options: { requireTwoFoulWarning: true } },
  { discipline: 'rotation', targets: [150, 150] },
  { discipline: 'rotation', targets: [61, 61], options: { format: 'single-rack-61' } },
  { discipline: 'rotation', targets: [120, 120], options: { illegalBreakPolicy: 'foul' } },
  { discipline: 'rotation', targets: [120, 120], options: { callShot: true } },
] as const;

const number = (n: number) => new RegExp(`(?<![\\d.])${n}(?!\\d)`);
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/;

/** What is wrong with a worded outcome in `lang` (empty when nothing); `o` is the step it words (facts that must show). */
function problems(text: string, lang: Lang, o: Outcome): string[] {
  const out: string[] = [];
  const must = (ok: boolean, what: string) => ok || out.push(what);
  must(text !== '', 'empty');
  must(!/\{\w+\}/.test(text), 'placeholder left');
  must(!/\b(o|foul|pl)\.[a-z]/.test(text), 'untranslated key');
  if (lang === 'en') must(!CJK.test(text), 'Japanese or Chinese in English');
  else must(!/[A-Za-z]/.test(text.replaceAll(NAMES[0], '').replaceAll(NAMES[1], '')), 'English words');
  if (o.kind !== 'stalemate') must(text.includes(NAMES[o.by === 'A' ? 0 : 1]), 'no name');
  if (o.points > 0) {
    must(text.includes(`+${o.points}`), 'no points');
    must(number(o.run).test(text), 'no run');
  }
  if (o.penalty > 0) must(text.includes(`\u2212${o.penalty}`), 'no penalty');
  for (const b of o.balls ?? []) must(number(b).test(text), `no ball ${b}`);
  for (const r of o.fouls ?? []) must(text.includes(t(lang, `foul.${r}` as AirKey, { n: o.firstContact ?? '' })), `no foul ${r}`);
  return out;
}

/** Fail on any problem of a worded outcome, saying which text and which facts. */
function checkText(text: string, lang: Lang, o: Outcome, where: string): void {
  const p = problems(text, lang, o);
  if (p.length) expect.fail(`${lang} ${where}: ${p.join(', ')}: ${JSON.stringify(text)} for ${JSON.stringify({ ...o, next: undefined, undone: undefined })}`);
}

/** Word the state's last step every way the pages do, in every language, and check each text. */
function checkState(s: MatchState): void {
  const o = s.last!;
  for (const lang of LANGS) {
    const cap = caption(s, lang);
    const sit = situation(s, lang);
    checkText(cap, lang, o, 'caption');
    checkText(stepLine(o, s.names, lang), lang, o, 'recent line');
    // Each fact once: the caption leaves what is pending to the situation line, unless it stands alone.
    const alone = caption(s, lang, true);
    if (alone !== (sit ? `${cap} \u00b7 ${sit}` : cap) || (sit && cap.includes(sit))) {
      expect.fail(`${lang}: caption ${JSON.stringify(cap)}, alone ${JSON.stringify(alone)}, situation ${JSON.stringify(sit)}`);
    }
  }
}

/** A kind of outcome, for the coverage check: what it was, and the facts that change its words. */
function kindsOf(o: Outcome): string[] {
  const k = [
    o.kind,
    o.choice,
    o.placement && 'placement',
    o.foul,
    o.turnEnd,
    o.rerack && `rerack:${o.rerack.reason}`,
    o.onBreak && 'on-break',
    o.onPushOut && 'on-push-out',
    o.clinched && 'clinched',
    o.tieBreak && 'tie-break',
    o.spottedBalls ? 'respotted' : o.spotted && 'spotted',
    o.foul === 'foul' && o.standingFouls === 2 && 'on-two-fouls',
    o.points > 0 && (o.balls ? 'points-balls' : 'points'),
    o.kind === 'shot' && !o.points && o.run > 0 && 'run-ended',
    ...(o.fouls ?? []).map((f) => `reason:${f}`),
  ];
  return k.filter((x): x is string => typeof x === 'string');
}

describe('every outcome of 200 simulated matches in en, ja and zh-TW', () => {
  it('words each step with its facts (points, penalty, run, balls, fouls, who), each fact once', () => {
    const seen = new Map<string, number>();
    let steps = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const setup = parseSetup({ ...SETUPS[seed % SETUPS.length], players: NAMES });
      const rand = seededRandom(seed);
      let match: Match = newMatch(setup);
      for (let i = 0; i < 500 && !match.core.winner; i++) {
        const step = nextStep(match, rand);
        const r = applyStep(match, step);
        if (!r.ok) throw new Error(`seed ${seed} step ${i} ${JSON.stringify(step)}: ${r.error.message}`);
        match = r.match;
        steps++;
        for (const k of kindsOf(r.outcome)) seen.set(k, (seen.get(k) ?? 0) + 1);
        if (r.outcome.kind === 'undo') {
          const undone = r.outcome.undone!;
          for (const lang of LANGS) {
            const line = undoLine(undone, NAMES, lang);
            checkText(line, lang, undone, 'undo line');
            expect(line).toContain(stepText(undone, NAMES, lang));
            expect(stepLine(r.outcome, NAMES, lang).startsWith(line)).toBe(true);
          }
        }
        if (match.history) checkState(view(match));
      }
      // The recent steps the dashboard and the scorer list are the last outcomes, worded the same way.
      const recent = statsOf(match).recent;
      expect(recent.length).toBeGreaterThan(0);
      for (const o of recent) for (const lang of LANGS) checkText(stepLine(o, NAMES, lang), lang, o, 'stats.recent');
    }
    const must = [
      'shot',
      'choice',
      'undo',
      'stalemate',
      'warning',
      'points',
      'points-balls',
      'miss',
      'safety',
      'spotted',
      'respotted',
      'run-ended',
      'foul',
      'breaking-foul',
      'third-foul',
      'on-two-fouls',
      'on-break',
      'on-push-out',
      'push-out',
      'illegal-break',
      'win',
      'lost-break',
      'clinched',
      'rerack:continuous',
      'rerack:three-foul',
      'rerack:rebreak',
      'rerack:stalemate',
      'rerack:new-rack',
      'rerack:illegal-break',
      'accept',
      'rebreak',
      'rerack',
      'shoot',
      'pass',
      'placement',
      'reason:scratch',
      'reason:no-rail',
      'reason:no-contact',
      'reason:wrong-ball',
      'reason:touched-ball',
      'reason:double-hit',
      'reason:illegal-break',
    ];
    const missing = must.filter((k) => !seen.has(k));
    expect(missing, `never reached in ${steps} steps: ${JSON.stringify([...seen])}`).toEqual([]);
  });

  it('the Rotation single-rack tie-break (+1 to the last ball, R-3a) is worded with its point', () => {
    const setup = parseSetup({
      discipline: 'rotation',
      players: NAMES,
      targets: [61, 61],
      options: { format: 'single-rack-61' },
      start: { turn: 'B', onTable: [15], score: [60, 45] },
    });
    const r = applyStep(newMatch(setup), { shot: { firstContact: 15, pocketed: [15] } });
    if (!r.ok) throw r.error;
    expect(r.outcome).toMatchObject({ tieBreak: true, points: 15, run: 15, next: { winner: 'B' } });
    const s = view(r.match);
    checkState(s);
    expect(caption(s, 'en')).toBe('Bob +15, run 15, tie-break +1');
    expect(caption(s, 'ja')).toBe('Bob +15、ラン15、同点のため +1');
    expect(caption(s, 'zh-TW')).toBe('Bob +15，連續得分 15，同分，最後進球者 +1');
  });
});

/**
 * A plausible next step (shared/simulate), now and then replaced by what the simulator never plays: an undo,
 * a 14-1 stalemate, the referee's two-foul warning when the set-up asks for it, a Rotation safety that drops
 * a ball (respotted).
 */
function nextStep(match: Match, rand: () => number): Step {
  const c = match.core;
  const r = rand();
  if (match.history && r < 0.04) return { undo: true };
  if (match.setup.discipline === '14-1' && !c.awaiting && r < 0.05) return { stalemate: { breaker: rand() < 0.5 ? 'A' : 'B' } };
  if (match.setup.discipline === '14-1' && match.setup.options.requireTwoFoulWarning) {
    for (const p of ['A', 'B'] as const) {
      const i = p === 'A' ? 0 : 1;
      if (c.fouls[i] === 2 && !c.warned[i] && !c.awaiting) return { warning: p };
    }
  }
  const low = c.table?.[0];
  if (match.setup.discipline === 'rotation' && match.setup.options.callShot && !c.awaiting && !c.breakShot && low && r < 0.08) {
    return { shot: { firstContact: low, call: 'safety', pocketed: [low] } }; // R-6a: a safety that drops a ball
  }
  return plausibleStep(match, rand, 0.65);
}
