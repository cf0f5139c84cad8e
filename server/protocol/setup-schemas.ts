/**
 * The zod schema of a match set-up typed in `setup.ts`, and `parseSetup`, for the server and the tests
 * (pages never import this file: it pulls in zod). `parseSetup` validates untrusted input and resolves
 * every option and target to its default (setup.ts), so the engine never sees a missing option.
 */
import { z } from 'zod';
import { isCountryCode } from '../../shared/countries';
import { RulesError } from '../../shared/protocol/errors';
import {
  COUNT_MAX,
  lowestScore,
  NAME_MAX,
  RACK_BALLS,
  SCORE_LIMIT,
  SHORT_NAME_MAX,
  STANDING_FOULS_MAX,
  STRAIGHT_BALLS_MIN,
  TARGET_MAX,
  unsafeTextReason,
  VISIBLE_TEXT,
  withDrawableMarks,
} from '../../shared/protocol/limits';
import { defaultTargets, type MatchSetup, type Pair, ROTATION_DEFAULTS, SETUP_KEYS, straightPoolDefaults } from '../../shared/protocol/setup';
import { describeIssue } from './zod-issues';

const pairOf = <T extends z.ZodType>(t: T) => z.tuple([t, t]);
/**
 * A display text: trimmed, the marks fonts cannot draw taken out (`withDrawableMarks`: NFC, no mark without a
 * character under it, at most MARKS_PER_CHARACTER on one), then 1–`max` characters, no control or
 * text-direction characters, something visible.
 */
export const displayText = (max: number) =>
  z
    .string()
    .trim()
    .transform(withDrawableMarks)
    .pipe(
      z
        .string()
        .min(1, 'must not be empty')
        .max(max, `at most ${max} characters`)
        .superRefine((v, ctx) => {
          const why = unsafeTextReason(v);
          if (why) ctx.addIssue({ code: 'custom', message: why });
        })
        .refine((v) => VISIBLE_TEXT.test(v), 'must contain a visible character (not only zero-width or blank characters)'),
    );
const name = displayText(NAME_MAX);
const score = z.number().int().min(-SCORE_LIMIT).max(SCORE_LIMIT);
/** A player's country: a code of shared/countries.ts, exactly as written there (upper case). */
export const countryCode = z
  .string()
  .refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 code in upper case (e.g. DE, JP), XK, or GB-ENG / GB-SCT / GB-WLS / GB-NIR');

const startSchema = z.strictObject({
  score: pairOf(score).optional(),
  fouls: pairOf(z.number().int().min(0).max(STANDING_FOULS_MAX)).optional(),
  innings: pairOf(z.number().int().min(0).max(COUNT_MAX)).optional(),
  highRun: pairOf(z.number().int().min(0).max(COUNT_MAX)).optional(),
  turn: z.enum(['A', 'B']).optional(),
  rack: z.number().int().min(1).max(COUNT_MAX).optional(),
  ballsOnTable: z
    .number()
    .int()
    .min(STRAIGHT_BALLS_MIN, `a 14-1 table at rest holds ${STRAIGHT_BALLS_MIN} to ${RACK_BALLS} balls (INV-4)`)
    .max(RACK_BALLS)
    .optional(),
  onTable: z.array(z.number().int().min(1).max(RACK_BALLS)).min(1).max(RACK_BALLS).optional(),
});

const straightOptionsSchema = z.strictObject({
  threeFoulResolution: z.enum(['opponent-choice', 'mandatory-rerack']).optional(),
  openingBreakFoulsCount: z.enum(['none', 'standard-only']).optional(),
  scratchCountsAsCueRailOnBreak: z.boolean().optional(),
  requireTwoFoulWarning: z.boolean().optional(),
  breakingFoulPenalty: z.number().int().min(0).max(100).optional(),
  standardFoulPenalty: z.number().int().min(0).max(100).optional(),
  threeFoulExtraPenalty: z.number().int().min(0).max(100).optional(),
});

const rotationOptionsSchema = z.strictObject({
  callShot: z.boolean().optional(),
  pushOut: z.boolean().optional(),
  format: z.enum(['race', 'single-rack-61']).optional(),
  threeFoulRule: z.boolean().optional(),
  foulCountResetsEachRack: z.boolean().optional(),
  illegalBreakPolicy: z.enum(['choice', 'foul']).optional(),
});

const common = {
  breaker: z.enum(['A', 'B']).optional(),
  players: pairOf(name),
  shortNames: pairOf(displayText(SHORT_NAME_MAX).nullable()).optional(),
  countries: pairOf(countryCode.nullable()).optional(),
  targets: pairOf(z.number().int().min(1).max(TARGET_MAX)).optional(),
  startScore: pairOf(score).optional(),
  start: startSchema.optional(),
};

/** The body of `POST /api/matches` (without `clock`, which the route takes out first); `parseSetup` resolves the defaults. */
export const setupSchema = z.discriminatedUnion('discipline', [
  z.object({
    discipline: z.literal('14-1'),
    ruleset: z.enum(['nba', 'wpa']).optional(),
    options: straightOptionsSchema.optional(),
    ...common,
  }),
  z.object({
    discipline: z.literal('rotation'),
    ruleset: z.literal('nba').optional(),
    options: rotationOptionsSchema.optional(),
    ...common,
  }),
]);

/**
 * Validate a set-up and resolve its defaults (targets 100/100 for 14-1, 120/120 or 61/61 for Rotation).
 * An unknown top-level key is refused: a typo such as `target` must not silently give the defaults (the message
 * lists the known ones, with `alsoKnown`: fields the caller took out of the same body first, e.g. `clock`).
 * @throws RulesError `invalid-setup` naming the field and the reason.
 */
export function parseSetup(input: unknown, alsoKnown: readonly string[] = []): MatchSetup {
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    const unknown = Object.keys(input).find((k) => !SETUP_KEYS.has(k));
    if (unknown !== undefined) fail(`setup.${unknown}`, `unknown set-up field (known: ${[...SETUP_KEYS, ...alsoKnown].join(', ')})`);
  }
  const res = setupSchema.safeParse(input);
  if (!res.success) {
    const { field, message } = describeIssue(res.error, 'setup');
    throw new RulesError('invalid-setup', message, field);
  }
  const s = res.data;
  const startScore: Pair<number> = s.startScore ?? [0, 0];
  let setup: MatchSetup;
  if (s.discipline === '14-1') {
    const ruleset = s.ruleset ?? 'nba';
    setup = {
      discipline: '14-1',
      ruleset,
      options: { ...straightPoolDefaults(ruleset), ...stripUndefined(s.options ?? {}) },
      breaker: s.breaker ?? 'A',
      players: s.players,
      targets: s.targets ?? defaultTargets('14-1'),
      startScore,
    };
    if (s.start?.onTable) fail('setup.start.onTable', 'is for Rotation; 14-1 uses ballsOnTable');
  } else {
    const options = { ...ROTATION_DEFAULTS, ...stripUndefined(s.options ?? {}) };
    setup = {
      discipline: 'rotation',
      ruleset: 'nba',
      options,
      breaker: s.breaker ?? 'A',
      players: s.players,
      targets: s.targets ?? defaultTargets('rotation', options.format),
      startScore,
    };
    if (s.start?.ballsOnTable !== undefined) fail('setup.start.ballsOnTable', 'is for 14-1; Rotation uses onTable');
    const onTable = s.start?.onTable;
    if (onTable && new Set(onTable).size !== onTable.length) fail('setup.start.onTable', 'lists a ball twice');
  }
  if (s.start) setup.start = s.start;
  if (s.shortNames) setup.shortNames = s.shortNames;
  if (s.countries && s.countries.some((c) => c !== null)) setup.countries = s.countries;
  // The head start (`startScore`) and the score of a match picked up in progress (`start.score`) each stay
  // below the target; in Rotation neither is negative (R-8: no foul costs points, so no score goes below 0).
  const scores: [string, Pair<number> | undefined][] = [
    ['setup.startScore', s.startScore],
    ['setup.start.score', s.start?.score],
  ];
  for (const [at, pair] of scores) {
    if (!pair) continue;
    for (const i of [0, 1] as const) {
      if (pair[i] >= setup.targets[i]) fail(`${at}.${i}`, `already reaches the target ${setup.targets[i]}`);
      if (pair[i] < lowestScore(setup.discipline)) fail(`${at}.${i}`, 'a Rotation score is never negative (R-8: no foul costs points)');
    }
  }
  return setup;
}

function fail(field: string, reason: string): never {
  throw new RulesError('invalid-setup', `${field}: ${reason}`, field);
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
