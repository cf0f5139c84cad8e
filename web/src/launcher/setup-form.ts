/**
 * The launcher's "new match" form as plain data, and its translation into the REST set-up body
 * (`POST /api/matches`, shared/protocol/setup.ts `SetupInput`). The server validates again; this only
 * builds the body and refuses, in the page's language, everything the server's parser would refuse.
 */
import type { ApiError } from '../../../shared/protocol/errors';
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
  UNSAFE_TEXT,
  VISIBLE_TEXT,
} from '../../../shared/protocol/limits';
import { defaultTargets as rulesTargets, ROTATION_DEFAULTS, type PlayerKey, type SetupInput } from '../../../shared/protocol/setup';
import type { PageKey } from '../lib/i18n';
import { type Lang, t } from '../lib/i18n-pages';

export interface SetupForm {
  discipline: '14-1' | 'rotation';
  ruleset: 'nba' | 'wpa';
  callShot: boolean;
  pushOut: boolean;
  format: 'race' | 'single-rack-61';
  players: [string, string];
  /** Optional short display names for the overlay ('' = none). */
  shortNames: [string, string];
  /** Who opens the match (the lag winner); fresh matches only (in progress, `turn` says who shoots next). */
  breaker: PlayerKey;
  /** Per-player targets (handicap = different targets). */
  targets: [number, number];
  /** A score in progress: off = fresh match (`breaker` opens). */
  inProgress: boolean;
  startScore: [number, number];
  turn: PlayerKey;
  /** 14-1 only: object balls on the table (2–15). */
  ballsOnTable: number;
  /** Consecutive fouls standing for each player (0–2): a third foul on resumption is a third foul (S-14, R-9). */
  fouls: [number, number];
  /** Innings each player has had so far. */
  innings: [number, number];
  /** Each player's high run so far. */
  highRun: [number, number];
  /** The rack being played (1 = first). */
  rack: number;
}

export const defaultForm = (): SetupForm => ({
  discipline: '14-1',
  ruleset: 'nba',
  callShot: ROTATION_DEFAULTS.callShot,
  pushOut: ROTATION_DEFAULTS.pushOut,
  format: ROTATION_DEFAULTS.format,
  players: ['', ''],
  shortNames: ['', ''],
  breaker: 'A',
  targets: rulesTargets('14-1'),
  inProgress: false,
  startScore: [0, 0],
  turn: 'A',
  ballsOnTable: RACK_BALLS,
  fouls: [0, 0],
  innings: [0, 0],
  highRun: [0, 0],
  rack: 1,
});

/** Default targets for the form's discipline/format: the set-up's own (`defaultTargets` in shared/protocol/setup.ts). */
export function defaultTargets(f: Pick<SetupForm, 'discipline' | 'format'>): [number, number] {
  return rulesTargets(f.discipline, f.format);
}

/** Why the form cannot be sent: the field to fix and the words for it (a page-string key; `{p}` player A or B, `{min}` and `{max}` the bounds). */
export type FormProblem = { ok: false; field: string; key: PageKey; params?: { p?: 'A' | 'B'; min?: number; max?: number } };

const side = (i: 0 | 1): 'A' | 'B' => (i === 0 ? 'A' : 'B');
const whole = (v: number, min: number, max: number) => Number.isInteger(v) && v >= min && v <= max;

/**
 * The set-up body the form stands for, unchecked (names and short names trimmed; the score in progress only
 * when it is on, `ballsOnTable` only for 14-1). `toSetup` checks it before it is sent.
 */
export function buildSetup(f: SetupForm): SetupInput {
  const players: [string, string] = [f.players[0].trim(), f.players[1].trim()];
  const targets: [number, number] = [f.targets[0], f.targets[1]];
  const setup: SetupInput =
    f.discipline === '14-1'
      ? { discipline: '14-1', ruleset: f.ruleset, players, targets }
      : { discipline: 'rotation', options: { callShot: f.callShot, pushOut: f.pushOut, format: f.format }, players, targets };
  const short: [string | null, string | null] = [f.shortNames[0].trim() || null, f.shortNames[1].trim() || null];
  if (short[0] !== null || short[1] !== null) setup.shortNames = short;
  if (!f.inProgress) {
    setup.breaker = f.breaker;
    return setup;
  }
  setup.start = {
    score: [f.startScore[0], f.startScore[1]],
    turn: f.turn,
    fouls: [f.fouls[0], f.fouls[1]],
    innings: [f.innings[0], f.innings[1]],
    highRun: [f.highRun[0], f.highRun[1]],
    rack: f.rack,
  };
  if (f.discipline === '14-1') setup.start.ballsOnTable = f.ballsOnTable;
  return setup;
}

/** The problem of a display text (a name or a short name) `v`, trimmed, of player `i`; null when it is fine. */
function textProblem(v: string, i: 0 | 1, what: 'players' | 'shortNames', max: number): FormProblem | null {
  const field = `${what}.${i}`;
  const p = side(i);
  if (UNSAFE_TEXT.test(v)) return { ok: false, field, key: what === 'players' ? 'formNameChars' : 'formShortChars', params: { p } };
  if (v !== '' && !VISIBLE_TEXT.test(v)) return { ok: false, field, key: what === 'players' ? 'formNameBlank' : 'formShortBlank', params: { p } };
  // Characters as the server counts them: code points (an emoji outside the BMP is one).
  if ([...v].length > max) return { ok: false, field, key: what === 'players' ? 'formNameLong' : 'formShortLong', params: { p, max } };
  return null;
}

/**
 * Build the set-up body, or the problem naming the field the form must fix. It refuses exactly what the
 * server's `parseSetup` would (the same bounds and characters, from shared/protocol/limits.ts), so a refusal
 * is shown in the page's language before anything is sent.
 */
export function toSetup(f: SetupForm): { ok: true; setup: SetupInput } | FormProblem {
  const setup = buildSetup(f);
  for (const i of [0, 1] as const) {
    const name = setup.players[i];
    if (!name) return { ok: false, field: `players.${i}`, key: 'formName', params: { p: side(i) } };
    const bad = textProblem(name, i, 'players', NAME_MAX) ?? textProblem(setup.shortNames?.[i] ?? '', i, 'shortNames', SHORT_NAME_MAX);
    if (bad) return bad;
    if (!whole(f.targets[i], 1, TARGET_MAX)) return { ok: false, field: `targets.${i}`, key: 'formTarget', params: { p: side(i), max: TARGET_MAX } };
  }
  if (!f.inProgress) return { ok: true, setup };
  for (const i of [0, 1] as const) {
    const p = side(i);
    const min = lowestScore(f.discipline);
    if (!whole(f.startScore[i], min, SCORE_LIMIT))
      return { ok: false, field: `startScore.${i}`, key: min < 0 ? 'formScore' : 'formScoreRotation', params: { p, max: SCORE_LIMIT } };
    if (f.startScore[i] >= f.targets[i]) return { ok: false, field: `startScore.${i}`, key: 'formScoreReached', params: { p } };
  }
  for (const i of [0, 1] as const) {
    const p = side(i);
    if (!whole(f.fouls[i], 0, STANDING_FOULS_MAX)) return { ok: false, field: `fouls.${i}`, key: 'formFouls', params: { p, max: STANDING_FOULS_MAX } };
    if (!whole(f.innings[i], 0, COUNT_MAX)) return { ok: false, field: `innings.${i}`, key: 'formInnings', params: { p, max: COUNT_MAX } };
    if (!whole(f.highRun[i], 0, COUNT_MAX)) return { ok: false, field: `highRun.${i}`, key: 'formHighRun', params: { p, max: COUNT_MAX } };
  }
  if (!whole(f.rack, 1, COUNT_MAX)) return { ok: false, field: 'rack', key: 'formRack', params: { max: COUNT_MAX } };
  if (f.discipline === '14-1' && !whole(f.ballsOnTable, STRAIGHT_BALLS_MIN, RACK_BALLS))
    return { ok: false, field: 'ballsOnTable', key: 'formBalls', params: { min: STRAIGHT_BALLS_MIN, max: RACK_BALLS } };
  return { ok: true, setup };
}

/**
 * Words for a refused `POST /api/matches` in the page's language: the admin token missing or wrong, too many
 * matches, the server unreachable; any other refusal (one the form cannot foresee) as "failed: <the server's words>".
 */
export function createProblemText(lang: Lang, error: ApiError): string {
  if (error.code === 'unauthorized') return t(lang, 'createAdminNeeded');
  if (error.code === 'forbidden') return t(lang, 'createAdminWrong');
  if (error.code === 'rate-limited') return t(lang, 'createTooMany');
  if (error.code === 'internal') return t(lang, 'createUnreachable');
  return t(lang, 'failed', { msg: error.message });
}

/**
 * The form after a match was created from it: the same discipline, rules and targets for the next match,
 * but no names (so a second tap cannot create the same match again) and no score in progress.
 */
export function afterCreate(f: SetupForm): SetupForm {
  return {
    ...f,
    players: ['', ''],
    shortNames: ['', ''],
    breaker: 'A',
    inProgress: false,
    startScore: [0, 0],
    turn: 'A',
    ballsOnTable: RACK_BALLS,
    fouls: [0, 0],
    innings: [0, 0],
    highRun: [0, 0],
    rack: 1,
  };
}
