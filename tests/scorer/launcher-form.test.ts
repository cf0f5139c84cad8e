/**
 * The launcher's form refuses what the server would refuse, in the page's language, before anything is sent:
 * for any form (names with any characters, targets, a score in progress at and beyond every bound), toSetup
 * builds a set-up exactly when the server's parser (parseSetup) takes it. A refusal the form could not know
 * (an admin token, a rate limit) is worded in the page's language too, never the server's English.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RulesError } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { COUNT_MAX, NAME_MAX, SCORE_LIMIT, SHORT_NAME_MAX, TARGET_MAX } from '../../shared/protocol/limits';
import { buildSetup, createProblemText, defaultForm, toSetup, type SetupForm } from '../../web/src/launcher/setup-form';
import { LANGS, t } from '../../web/src/lib/i18n-pages';
import { fcRuns } from '../helpers/fc-runs';

/** True when the server's parser takes `input`. */
function serverTakes(input: unknown): boolean {
  try {
    parseSetup(input);
    return true;
  } catch (e) {
    if (e instanceof RulesError) return false;
    throw e;
  }
}

/** Integers around every bound of the set-up, and a few that are not integers at all. */
const edgy = fc.oneof(
  fc.constantFrom(-SCORE_LIMIT - 1, -SCORE_LIMIT, -1, 0, 1, 2, 14, 15, 16, 60, 61, TARGET_MAX, TARGET_MAX + 1, COUNT_MAX, COUNT_MAX + 1, 1.5, Number.NaN),
  fc.integer({ min: -20000, max: 200000 }),
);
const texts = fc.oneof(
  fc.constantFrom(
    '',
    '  ',
    'Ann',
    '日本 太郎',
    '👨‍👩‍👧‍👦',
    'A\u061cB',
    'A\u200fB',
    'A\u202eB',
    'A\u2028B',
    'A\ud800',
    'A\u0007',
    '\u200b',
    '\u3164',
    ' \u0301',
    'x'.repeat(NAME_MAX),
    'x'.repeat(NAME_MAX + 1),
    's'.repeat(SHORT_NAME_MAX + 1),
  ),
  fc.string({ unit: 'binary', maxLength: 70 }),
);
const pair = <T>(a: fc.Arbitrary<T>) => fc.tuple(a, a);

const forms: fc.Arbitrary<SetupForm> = fc.record({
  discipline: fc.constantFrom('14-1' as const, 'rotation' as const),
  ruleset: fc.constantFrom('nba' as const, 'wpa' as const),
  callShot: fc.boolean(),
  pushOut: fc.boolean(),
  format: fc.constantFrom('race' as const, 'single-rack-61' as const),
  players: pair(texts),
  shortNames: pair(fc.oneof(fc.constant(''), texts)),
  breaker: fc.constantFrom('A' as const, 'B' as const),
  targets: pair(edgy),
  inProgress: fc.boolean(),
  startScore: pair(edgy),
  turn: fc.constantFrom('A' as const, 'B' as const),
  ballsOnTable: edgy,
  fouls: pair(fc.constantFrom(-1, 0, 1, 2, 3)),
  innings: pair(edgy),
  highRun: pair(edgy),
  rack: edgy,
});

describe('launcher form and server agree', () => {
  test('toSetup builds a set-up exactly when the server takes it (names, targets, every number of a score in progress)', () => {
    fc.assert(
      fc.property(forms, (f) => {
        // buildSetup is the body the form would send unchecked; toSetup checks it first.
        const built = toSetup(f);
        expect(built.ok, `${built.ok ? '' : built.field} ${JSON.stringify(f)}`).toBe(serverTakes(buildSetup(f)));
        if (built.ok) expect(built.setup).toEqual(buildSetup(f));
      }),
      { numRuns: fcRuns(3000) },
    );
  });

  test('each refusal names the field and reads in every language, with the bound', () => {
    const base = { ...defaultForm(), players: ['Ann', 'Bob'] as [string, string] };
    const wip = { ...base, inProgress: true };
    const cases: [SetupForm, string, string][] = [
      [{ ...base, players: ['Ann\u061c', 'Bob'] }, 'players.0', 'player A: remove control or text-direction characters'],
      [{ ...base, players: ['Ann', '\u200b'] }, 'players.1', 'player B: type a name (blank or invisible characters only)'],
      [{ ...base, players: ['Ann', 'B'.repeat(NAME_MAX + 1)] }, 'players.1', `player B: at most ${NAME_MAX} characters`],
      [{ ...base, shortNames: ['', 'Bo\u202e'] }, 'shortNames.1', 'short name B: remove control or text-direction characters'],
      [{ ...base, shortNames: ['A'.repeat(SHORT_NAME_MAX + 1), ''] }, 'shortNames.0', `short name A: at most ${SHORT_NAME_MAX} characters`],
      [{ ...base, targets: [TARGET_MAX + 1, 100] }, 'targets.0', `target A: a whole number from 1 to ${TARGET_MAX}`],
      [{ ...wip, startScore: [0, -SCORE_LIMIT - 1] }, 'startScore.1', `score B: a whole number from −${SCORE_LIMIT} to ${SCORE_LIMIT}`],
      [{ ...wip, innings: [COUNT_MAX + 1, 0] }, 'innings.0', `innings A: a whole number from 0 to ${COUNT_MAX}`],
      [{ ...wip, highRun: [0, COUNT_MAX + 1] }, 'highRun.1', `high run B: a whole number from 0 to ${COUNT_MAX}`],
      [{ ...wip, rack: COUNT_MAX + 1 }, 'rack', `rack: a whole number from 1 to ${COUNT_MAX}`],
    ];
    for (const [form, field, en] of cases) {
      const r = toSetup(form);
      if (r.ok) throw new Error(`expected a refusal of ${field}`);
      expect(r.field).toBe(field);
      expect(t('en', r.key, r.params)).toBe(en);
      for (const lang of LANGS) {
        const text = t(lang, r.key, r.params);
        expect(text, `${lang} ${field}`).not.toMatch(/\{\w+\}/);
        if (lang !== 'en') expect(text, `${lang} ${field}`).not.toBe(en);
      }
    }
  });

  test('a refusal only the server can make is worded in the page language, the server text only as a last resort', () => {
    const admin = { code: 'unauthorized', message: 'creating a match needs the admin token (Authorization: Bearer …)', field: 'token' } as const;
    expect(createProblemText('en', admin)).toBe('This server needs the admin token to create a match: enter it below.');
    expect(createProblemText('ja', admin)).not.toMatch(/[a-z]{4}/);
    expect(createProblemText('ja', { code: 'forbidden', message: 'wrong admin token', field: 'token' })).not.toContain('wrong admin token');
    expect(createProblemText('zh-TW', { code: 'rate-limited', message: 'over 100 matches created per hour' })).not.toContain('over');
    expect(createProblemText('ja', { code: 'internal', message: 'network: Failed to fetch' })).not.toContain('Failed');
    // Anything else: the page's "failed" with the server's own words.
    expect(createProblemText('ja', { code: 'invalid-setup', message: 'setup.countries.0: must be an ISO code', field: 'setup.countries.0' })).toContain(
      'setup.countries.0',
    );
  });
});
