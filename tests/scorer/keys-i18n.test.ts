/** Keyboard shortcuts, scorer strings in en / ja / zh-TW, step words, tokens and the launcher's set-up form. */
import { describe, expect, test } from 'vitest';
import { applyStep, newMatch, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { keyAction } from '../../web/src/scorer/keys';
import { t } from '../../web/src/lib/i18n-pages';
import { describeStep } from '../../web/src/scorer/words';
import { matchIdFromLocation, scorerLink, tokenFromUrl } from '../../web/src/scorer/tokens';
import { afterCreate, defaultForm, toSetup } from '../../web/src/launcher/setup-form';

describe('keyboard shortcuts', () => {
  test('14-1 common actions', () => {
    expect(keyAction({ key: 'Enter' }, '14-1', false)).toEqual({ type: 'made' });
    expect(keyAction({ key: 'm' }, '14-1', false)).toEqual({ type: 'made' });
    expect(keyAction({ key: '+' }, '14-1', false)).toEqual({ type: 'count', delta: 1 });
    expect(keyAction({ key: '-' }, '14-1', false)).toEqual({ type: 'count', delta: -1 });
    expect(keyAction({ key: 'X' }, '14-1', false)).toEqual({ type: 'miss' });
    expect(keyAction({ key: 's' }, '14-1', false)).toEqual({ type: 'safety' });
    expect(keyAction({ key: 'f' }, '14-1', false)).toEqual({ type: 'foul-menu' });
    expect(keyAction({ key: '3', code: 'Digit3' }, '14-1', true)).toEqual({ type: 'option', index: 2 });
    expect(keyAction({ key: 'z', ctrlKey: true }, '14-1', false)).toEqual({ type: 'undo' });
    expect(keyAction({ key: 'u' }, 'rotation', false)).toEqual({ type: 'undo' });
    expect(keyAction({ key: 'a' }, '14-1', false)).toEqual({ type: 'choice', index: 0 });
    expect(keyAction({ key: 'r' }, '14-1', false)).toEqual({ type: 'choice', index: 1 });
    expect(keyAction({ key: 'c', ctrlKey: true }, '14-1', false)).toBeNull();
  });
  test('rotation ball keys: 1–9, 0 = 10, Shift+1–5 = 11–15', () => {
    expect(keyAction({ key: '7', code: 'Digit7' }, 'rotation', false)).toEqual({ type: 'ball', ball: 7 });
    expect(keyAction({ key: '0', code: 'Digit0' }, 'rotation', false)).toEqual({ type: 'ball', ball: 10 });
    expect(keyAction({ key: '!', code: 'Digit1', shiftKey: true }, 'rotation', false)).toEqual({ type: 'ball', ball: 11 });
    expect(keyAction({ key: '%', code: 'Digit5', shiftKey: true }, 'rotation', false)).toEqual({ type: 'ball', ball: 15 });
    expect(keyAction({ key: '^', code: 'Digit6', shiftKey: true }, 'rotation', false)).toBeNull();
    expect(keyAction({ key: 'Enter' }, 'rotation', false)).toEqual({ type: 'record' });
    expect(keyAction({ key: 'p' }, 'rotation', false)).toEqual({ type: 'push-out' });
    expect(keyAction({ key: 'c' }, 'rotation', false)).toEqual({ type: 'next-called' });
    expect(keyAction({ key: 'c' }, '14-1', false)).toBeNull();
    expect(keyAction({ key: '2', code: 'Digit2' }, 'rotation', true)).toEqual({ type: 'option', index: 1 });
  });
});

describe('scorer strings', () => {
  test('rulebook terms', () => {
    expect(t('zh-TW', 'safety')).toBe('防守');
    expect(t('zh-TW', 'foul')).toBe('犯規');
    expect(t('zh-TW', 'pushOut')).toBe('推桿');
    expect(t('zh-TW', 'c.three-foul-choice', { name: 'Bob' })).toContain('連續三次犯規');
    expect(t('zh-TW', 'breakTitle', { name: 'Ann' })).toContain('開球');
    expect(t('ja', 'pushOut')).toBe('プッシュアウト');
    expect(t('en', 'offlineQueued', { n: 3 })).toBe('offline — 3 queued');
  });
  test('steps in words', () => {
    expect(describeStep('en', { shot: { call: { made: true }, pocketed: 3 } })).toBe('3 balls made');
    expect(describeStep('en', { shot: { call: { made: false }, cueBall: 'scratch' } })).toBe('foul: Scratch');
    expect(describeStep('en', { shot: { firstContact: 2, pocketed: [2, 9] } })).toBe('pocketed 2 9');
    expect(describeStep('en', { shot: { call: 'safety' } })).toBe('safety');
    expect(describeStep('en', { shot: { call: { made: false } } })).toBe('miss');
    expect(describeStep('en', { choice: { cueBall: 'kitchen', lowestBall: 'foot-spot' } }, 4)).toBe(
      'placement: cue ball behind the head string · 4 on the foot spot',
    );
    expect(describeStep('zh-TW', { undo: true })).toBe('復原');
  });
});

describe('tokens and links', () => {
  test('the scorer link carries the token in the fragment', () => {
    expect(scorerLink('http://h', 'abc', 't 1')).toBe('http://h/scorer/abc#token=t%201');
    expect(tokenFromUrl('#token=t%201', '')).toBe('t 1');
    expect(tokenFromUrl('', '?token=x')).toBe('x');
    expect(tokenFromUrl('', '')).toBeNull();
    expect(matchIdFromLocation('/scorer/m-42', '')).toBe('m-42');
    expect(matchIdFromLocation('/scorer.html', '?match=m7')).toBe('m7');
  });
});

describe('launcher set-up form', () => {
  test('builds a set-up the shared parser accepts, for both disciplines, with handicap and a score in progress', () => {
    const f = { ...defaultForm(), players: ['Ann ', 'Bob'] as [string, string], targets: [100, 60] as [number, number] };
    const r = toSetup(f);
    expect(r.ok).toBe(true);
    if (r.ok) expect(parseSetup(r.setup)).toMatchObject({ discipline: '14-1', players: ['Ann', 'Bob'], targets: [100, 60] });
    const rot = toSetup({
      ...f,
      discipline: 'rotation',
      callShot: true,
      format: 'single-rack-61',
      targets: [61, 61],
      inProgress: true,
      startScore: [10, 5],
      turn: 'B',
    });
    expect(rot.ok).toBe(true);
    if (rot.ok) expect(parseSetup(rot.setup)).toMatchObject({ options: { callShot: true, format: 'single-rack-61' }, start: { score: [10, 5], turn: 'B' } });
    const wip = toSetup({ ...f, inProgress: true, ballsOnTable: 7, startScore: [40, 12] });
    expect(wip.ok && parseSetup(wip.setup).start).toEqual({
      score: [40, 12],
      turn: 'A',
      ballsOnTable: 7,
      fouls: [0, 0],
      innings: [0, 0],
      highRun: [0, 0],
      rack: 1,
    });
  });
  test('a match picked up mid-way keeps its fouls, innings, high runs and rack (a third foul stays a third foul)', () => {
    const f = {
      ...defaultForm(),
      players: ['Ann', 'Bob'] as [string, string],
      inProgress: true,
      startScore: [40, 12] as [number, number],
      ballsOnTable: 9,
      fouls: [2, 1] as [number, number],
      innings: [7, 6] as [number, number],
      highRun: [14, 5] as [number, number],
      rack: 3,
      turn: 'A' as const,
    };
    const r = toSetup(f);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const setup = parseSetup(r.setup);
    expect(setup.start).toEqual({ score: [40, 12], turn: 'A', ballsOnTable: 9, fouls: [2, 1], innings: [7, 6], highRun: [14, 5], rack: 3 });
    const s = view(newMatch(setup));
    expect([s.fouls, s.onTwoFouls, s.innings, s.highRun, s.rack]).toEqual([[2, 1], [true, false], [7, 6], [14, 5], 3]);
    // Ann's next foul is her third: −1 and −15 (S-14), Bob decides.
    const third = applyStep(newMatch(setup), { shot: { call: { made: false }, cueBall: 'scratch' } });
    expect(third.ok && [view(third.match).score, view(third.match).awaiting]).toEqual([[24, 12], 'three-foul-choice']);
    // Rotation too (R-9: ball in hand anywhere on the third).
    const rot = toSetup({ ...f, discipline: 'rotation', targets: [120, 120], fouls: [0, 2], turn: 'B' });
    expect(rot.ok).toBe(true);
    if (!rot.ok) return;
    const rotMatch = newMatch(parseSetup(rot.setup));
    const rs = view(rotMatch);
    const low = rs.lowestBall!;
    const foul = applyStep(rotMatch, { shot: { firstContact: low, rail: false } });
    expect(foul.ok && view(foul.match).foulPlacement?.thirdFoul).toBe(true);
  });

  test('names the field to fix', () => {
    expect(toSetup({ ...defaultForm(), players: ['', 'Bob'] })).toMatchObject({ ok: false, field: 'players.0' });
    expect(toSetup({ ...defaultForm(), players: ['A', 'B'], targets: [0, 100] })).toMatchObject({ ok: false, field: 'targets.0' });
    expect(toSetup({ ...defaultForm(), players: ['A', 'B'], inProgress: true, ballsOnTable: 1 })).toMatchObject({ ok: false, field: 'ballsOnTable' });
    expect(toSetup({ ...defaultForm(), players: ['A', 'B'], inProgress: true, startScore: [100, 0] })).toMatchObject({ ok: false, field: 'startScore.0' });
    const wip = { ...defaultForm(), players: ['A', 'B'] as [string, string], inProgress: true };
    expect(toSetup({ ...wip, fouls: [3, 0] })).toMatchObject({ ok: false, field: 'fouls.0' });
    expect(toSetup({ ...wip, innings: [0, -1] })).toMatchObject({ ok: false, field: 'innings.1' });
    expect(toSetup({ ...wip, highRun: [1.5, 0] })).toMatchObject({ ok: false, field: 'highRun.0' });
    expect(toSetup({ ...wip, rack: 0 })).toMatchObject({ ok: false, field: 'rack' });
    // …in the page's language, naming the player.
    const bad = toSetup({ ...wip, fouls: [0, 3] });
    if (bad.ok) throw new Error('expected a problem');
    expect(t('en', bad.key, bad.params)).toBe('fouls B: 0 to 2 in a row');
    expect(t('ja', bad.key, bad.params)).toBe('ファウル B：連続 0〜2 回');
    expect(t('zh-TW', bad.key, bad.params)).toBe('犯規 B：連續 0 到 2 次');
    // Rotation: no foul costs points, so a score below 0 is refused (lowestScore), with its own words.
    const rot = toSetup({ ...wip, discipline: 'rotation', startScore: [-1, 0] });
    if (rot.ok) throw new Error('expected a problem');
    expect([rot.field, t('en', rot.key, rot.params)]).toEqual(['startScore.0', 'score A: a whole number from 0 to 10000 (no Rotation foul costs points)']);
    expect(toSetup({ ...wip, discipline: '14-1', startScore: [-1, 0] }).ok).toBe(true);
    // The bounds come from shared/protocol/limits.ts, not from the strings.
    const balls = toSetup({ ...wip, ballsOnTable: 1 });
    if (balls.ok) throw new Error('expected a problem');
    expect([balls.field, t('en', balls.key, balls.params)]).toEqual(['ballsOnTable', 'balls on table: 2 to 15']);
    expect(t('ja', balls.key, balls.params)).toBe('台上の球数：2〜15');
    expect(t('zh-TW', balls.key, balls.params)).toBe('檯面球數：2 到 15');
    // Not in progress: none of it is sent.
    const fresh = toSetup({ ...wip, inProgress: false, fouls: [2, 2] });
    expect(fresh.ok && 'start' in fresh.setup).toBe(false);
  });
});

describe('launcher: who breaks, and the form after a match is created', () => {
  test('the breaker is sent for a fresh match and the strict set-up parser accepts it', () => {
    const f = { ...defaultForm(), players: ['Ann', 'Bob'] as [string, string], breaker: 'B' as const };
    const r = toSetup(f);
    expect(r.ok && r.setup.breaker).toBe('B');
    if (r.ok) expect(parseSetup(r.setup)).toMatchObject({ breaker: 'B' });
    const rot = toSetup({ ...f, discipline: 'rotation' });
    if (rot.ok) expect(parseSetup(rot.setup)).toMatchObject({ discipline: 'rotation', breaker: 'B' });
    // In progress, "next to shoot" says who is at the table; no breaker is sent.
    const wip = toSetup({ ...f, inProgress: true, turn: 'A' });
    expect(wip.ok && 'breaker' in wip.setup).toBe(false);
  });

  test('after creating, the names are cleared (a repeat tap cannot create the same match) and the rules kept', () => {
    const f = {
      ...defaultForm(),
      discipline: 'rotation' as const,
      callShot: true,
      players: ['Ann', 'Bob'] as [string, string],
      targets: [90, 120] as [number, number],
      breaker: 'B' as const,
      inProgress: true,
    };
    const next = afterCreate(f);
    expect(next).toMatchObject({ discipline: 'rotation', callShot: true, targets: [90, 120], players: ['', ''], breaker: 'A', inProgress: false });
    expect(toSetup(next)).toMatchObject({ ok: false, field: 'players.0' });
  });
});

describe('scorer wording', () => {
  test('negative numbers and verdicts use a true minus sign; re-rack wording has no "(s)"', async () => {
    const { verdictWords } = await import('../../web/src/scorer/words');
    expect(verdictWords('en', { kind: 'breaking-foul', penalty: 2 })).toBe('breaking foul \u22122');
    expect(verdictWords('en', { kind: 'scores', points: 3 })).toBe('+3');
    for (const lang of ['en', 'ja', 'zh-TW'] as const) expect(t(lang, 'rerackTitle')).not.toContain('(s)');
    expect(t('en', 'addBall')).not.toMatch(/more/i); // the "More" options toggle keeps its own name
  });
});
