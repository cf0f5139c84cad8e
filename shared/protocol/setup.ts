/**
 * Match set-up: discipline, ruleset, options (docs/rules.md §5), players, per-player targets (handicap) and an
 * optional state in progress (docs/case-format.md `start`). Types, the option defaults of each ruleset and the
 * default targets: plain TypeScript without zod, so the rules and the pages (the launcher's form) use the
 * same defaults. The server validates untrusted input with `parseSetup` (server/protocol/setup-schemas.ts), which resolves
 * every option to these defaults, so the engine never sees a missing option.
 */
import { type Discipline, type Pair, type PlayerKey, RACK_CLINCH, type Ruleset } from './vocabulary';

export type { Discipline, Pair, PlayerKey, Ruleset } from './vocabulary';
export { NAME_MAX, SHORT_NAME_MAX, UNSAFE_TEXT, VISIBLE_TEXT } from './limits';

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

/** The top-level fields of a set-up. */
export const SETUP_KEYS: ReadonlySet<string> = new Set([
  'discipline',
  'ruleset',
  'options',
  'breaker',
  'players',
  'shortNames',
  'countries',
  'targets',
  'startScore',
  'start',
]);

/**
 * The targets a set-up without `targets` gets (docs/rules.md §5, race to N): 100 each for 14-1 (14-1 §11),
 * 120 each for a Rotation race and RACK_CLINCH (61) each for Rotation's single rack (ROT §12, R-3a).
 */
export function defaultTargets(discipline: Discipline, rotationFormat: RotationOptions['format'] = ROTATION_DEFAULTS.format): Pair<number> {
  if (discipline === '14-1') return [100, 100];
  return rotationFormat === 'single-rack-61' ? [RACK_CLINCH, RACK_CLINCH] : [120, 120];
}
