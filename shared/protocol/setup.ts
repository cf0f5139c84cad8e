/**
 * Match set-up: discipline, ruleset, options (docs/rules.md §5), players, per-player targets (handicap) and an
 * optional state in progress (docs/case-format.md `start`). `parseSetup` validates untrusted input with zod and
 * resolves every option to its default, so the engine never sees a missing option.
 */
import { z } from 'zod';
import { isCountryCode } from '../countries';
import { RulesError } from './errors';
import { RACK_CLINCH } from './state';
import { COUNT_MAX, NAME_MAX, SCORE_LIMIT, SHORT_NAME_MAX, TARGET_MAX, UNSAFE_TEXT, VISIBLE_TEXT } from './limits';
import { describeIssue } from './steps';

export type Discipline = '14-1' | 'rotation';
export type Ruleset = 'nba' | 'wpa';
/** Player keys: A is the first player named in the set-up and opens the match (the lag is decided). */
export type PlayerKey = 'A' | 'B';
export type Pair<T> = [T, T];

/** 14-1 options (docs/rules.md §5.1). Defaults come from the ruleset; any may be overridden. */
export interface StraightPoolOptions {
  /** S-14: NBA `opponent-choice` (accept / re-rack), WPA `mandatory-rerack`. */
  threeFoulResolution: 'opponent-choice' | 'mandatory-rerack';
  /** S-10 / D-1: NBA `none` (no opening-break foul counts), WPA `standard-only`. */
  openingBreakFoulsCount: 'none' | 'standard-only';
  /** S-8 / D-3: a pocketed cue ball counts as reaching a cushion on the opening break. */
  scratchCountsAsCueRailOnBreak: boolean;
  /** S-15 / D-6: a third foul counts only after a two-foul warning step. */
  requireTwoFoulWarning: boolean;
  /** S-9: points lost for a breaking foul. */
  breakingFoulPenalty: number;
  /** S-13: points lost for a standard foul. */
  standardFoulPenalty: number;
  /** S-14: extra points lost on the third consecutive foul. */
  threeFoulExtraPenalty: number;
}

/** Rotation options (docs/rules.md §5.2). */
export interface RotationOptions {
  /** R-6a: every shot but the break is called. */
  callShot: boolean;
  /** push out allowed on the shot after the break. */
  pushOut: boolean;
  /** R-3 / R-3a: race to the targets, or one rack where 61 wins. */
  format: 'race' | 'single-rack-61';
  /** three consecutive fouls give ball in hand anywhere. */
  threeFoulRule: boolean;
  /** D-22: consecutive-foul counts reset when a new rack starts. */
  foulCountResetsEachRack: boolean;
  /** D-17: an illegal break (no foul) gives the opponent accept / re-rack, or is treated as a foul. */
  illegalBreakPolicy: 'choice' | 'foul';
}

/** A match picked up in progress (docs/case-format.md `start`). Missing fields take fresh-match values. */
export interface StartState {
  score?: Pair<number>;
  fouls?: Pair<number>;
  innings?: Pair<number>;
  highRun?: Pair<number>;
  turn?: PlayerKey;
  rack?: number;
  ballsOnTable?: number;
  onTable?: number[];
}

/** Set-up as a client sends it (REST `POST /api/matches`, a case file). */
export interface SetupInput {
  discipline: Discipline;
  /** Who opens the match (the lag winner), default A (the first player named). */
  breaker?: PlayerKey;
  ruleset?: Ruleset;
  options?: Partial<StraightPoolOptions> | Partial<RotationOptions>;
  players: Pair<string>;
  /** Optional short display names for the overlay, A first; null = none (the overlay fits the full name). */
  shortNames?: Pair<string | null>;
  /** Optional country of each player (a code of shared/countries.ts, e.g. `DE`, `GB-ENG`), A first; null = none. */
  countries?: Pair<string | null>;
  targets?: Pair<number>;
  startScore?: Pair<number>;
  start?: StartState;
}

interface SetupBase {
  /** Who opens the match: the lag winner (docs/rules.md §1.1). */
  breaker: PlayerKey;
  /** Player names, A first. */
  players: Pair<string>;
  /** Short display names (`SHORT_NAME_MAX` characters at most), A first; null = none. Absent in older set-ups. */
  shortNames?: Pair<string | null>;
  /** Country codes of the players for their flags (shared/countries.ts), A first; null = none. Absent when none was given. */
  countries?: Pair<string | null>;
  /** Points each player needs (handicap = different targets; 14-1 §11, ROT §12). */
  targets: Pair<number>;
  /** Head-start handicap (D-10), default [0, 0]. */
  startScore: Pair<number>;
  start?: StartState;
}
export interface StraightPoolSetup extends SetupBase {
  discipline: '14-1';
  ruleset: Ruleset;
  options: StraightPoolOptions;
}
export interface RotationSetup extends SetupBase {
  discipline: 'rotation';
  ruleset: 'nba';
  options: RotationOptions;
}
/** A validated set-up with every option resolved. */
export type MatchSetup = StraightPoolSetup | RotationSetup;

/** Ruleset defaults for 14-1 (docs/rules.md §5.1). */
export function straightPoolDefaults(ruleset: Ruleset): StraightPoolOptions {
  return {
    threeFoulResolution: ruleset === 'wpa' ? 'mandatory-rerack' : 'opponent-choice',
    openingBreakFoulsCount: ruleset === 'wpa' ? 'standard-only' : 'none',
    scratchCountsAsCueRailOnBreak: true,
    requireTwoFoulWarning: false,
    breakingFoulPenalty: 2,
    standardFoulPenalty: 1,
    threeFoulExtraPenalty: 15,
  };
}

/** Rotation defaults (docs/rules.md §5.2). */
export const ROTATION_DEFAULTS: RotationOptions = {
  callShot: false,
  pushOut: true,
  format: 'race',
  threeFoulRule: true,
  foulCountResetsEachRack: true,
  illegalBreakPolicy: 'choice',
};

const pairOf = <T extends z.ZodType>(t: T) => z.tuple([t, t]);
export { NAME_MAX, SHORT_NAME_MAX, UNSAFE_TEXT, VISIBLE_TEXT } from './limits';
/** A display text: trimmed, 1–`max` characters, no control or text-direction characters, something visible. */
export const displayText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `at most ${max} characters`)
    .refine((v) => !UNSAFE_TEXT.test(v), 'must not contain control or text-direction characters')
    .refine((v) => VISIBLE_TEXT.test(v), 'must contain a visible character (not only zero-width or blank characters)');
const name = displayText(NAME_MAX);
const score = z.number().int().min(-SCORE_LIMIT).max(SCORE_LIMIT);
/** A player's country: a code of shared/countries.ts, exactly as written there (upper case). */
export const countryCode = z.string().refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 code in upper case (e.g. DE, JP), XK, or GB-ENG / GB-SCT / GB-WLS / GB-NIR');

const startSchema = z.strictObject({
  score: pairOf(score).optional(),
  fouls: pairOf(z.number().int().min(0).max(2)).optional(),
  innings: pairOf(z.number().int().min(0).max(COUNT_MAX)).optional(),
  highRun: pairOf(z.number().int().min(0).max(COUNT_MAX)).optional(),
  turn: z.enum(['A', 'B']).optional(),
  rack: z.number().int().min(1).max(COUNT_MAX).optional(),
  ballsOnTable: z.number().int().min(2, 'a 14-1 table at rest holds 2 to 15 balls (INV-4)').max(15).optional(),
  onTable: z.array(z.number().int().min(1).max(15)).min(1).max(15).optional(),
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

/** The top-level fields of a set-up. */
export const SETUP_KEYS: ReadonlySet<string> = new Set(['discipline', 'ruleset', 'options', 'breaker', 'players', 'shortNames', 'countries', 'targets', 'startScore', 'start']);

/**
 * Validate a set-up and resolve its defaults (targets 100/100 for 14-1, 120/120 or 61/61 for Rotation).
 * An unknown top-level key is refused: a typo such as `target` must not silently give the defaults.
 * @throws RulesError `invalid-setup` naming the field and the reason.
 */
export function parseSetup(input: unknown): MatchSetup {
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    const unknown = Object.keys(input).find((k) => !SETUP_KEYS.has(k));
    if (unknown !== undefined) fail(`setup.${unknown}`, `unknown set-up field (known: ${[...SETUP_KEYS].join(', ')})`);
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
      targets: s.targets ?? [100, 100],
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
      targets: s.targets ?? (options.format === 'single-rack-61' ? [RACK_CLINCH, RACK_CLINCH] : [120, 120]),
      startScore,
    };
    if (s.start?.ballsOnTable !== undefined) fail('setup.start.ballsOnTable', 'is for 14-1; Rotation uses onTable');
    const onTable = s.start?.onTable;
    if (onTable && new Set(onTable).size !== onTable.length) fail('setup.start.onTable', 'lists a ball twice');
  }
  if (s.start) setup.start = s.start;
  if (s.shortNames) setup.shortNames = s.shortNames;
  if (s.countries && s.countries.some((c) => c !== null)) setup.countries = s.countries;
  const startScores = s.start?.score ?? startScore;
  for (const i of [0, 1] as const) {
    if (startScores[i] >= setup.targets[i]) {
      fail(s.start?.score ? `setup.start.score.${i}` : `setup.startScore.${i}`, `already reaches the target ${setup.targets[i]}`);
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
