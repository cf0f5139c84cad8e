/**
 * The launcher's "new match" form as plain data, and its translation into the REST set-up body
 * (`POST /api/matches`, shared/protocol/setup.ts `SetupInput`). The server validates again; this only
 * builds the body and catches what the form itself can tell (empty names, targets below 1).
 */
import type { PlayerKey, SetupInput } from '../../../shared/protocol/setup';
import type { PageKey } from '../lib/i18n';

export interface SetupForm {
  discipline: '14-1' | 'rotation';
  ruleset: 'nba' | 'wpa';
  callShot: boolean;
  pushOut: boolean;
  format: 'race' | 'single-rack-61';
  players: [string, string];
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
  callShot: false,
  pushOut: true,
  format: 'race',
  players: ['', ''],
  breaker: 'A',
  targets: [100, 100],
  inProgress: false,
  startScore: [0, 0],
  turn: 'A',
  ballsOnTable: 15,
  fouls: [0, 0],
  innings: [0, 0],
  highRun: [0, 0],
  rack: 1,
});

/** Default targets for a discipline/format (14-1: 100; Rotation: race 120, single rack 61). */
export function defaultTargets(f: Pick<SetupForm, 'discipline' | 'format'>): [number, number] {
  if (f.discipline === '14-1') return [100, 100];
  return f.format === 'single-rack-61' ? [61, 61] : [120, 120];
}

/** Why the form cannot be sent: the field to fix and the words for it (a page-string key, `{p}`: player A or B). */
export type FormProblem = { ok: false; field: string; key: PageKey; params?: { p: 'A' | 'B' } };

const side = (i: 0 | 1): 'A' | 'B' => (i === 0 ? 'A' : 'B');

/** Build the set-up body, or the problem naming the field the form must fix. */
export function toSetup(f: SetupForm): { ok: true; setup: SetupInput } | FormProblem {
  const players: [string, string] = [f.players[0].trim(), f.players[1].trim()];
  for (const i of [0, 1] as const) {
    if (!players[i]) return { ok: false, field: `players.${i}`, key: 'formName', params: { p: side(i) } };
    const t = f.targets[i];
    if (!Number.isInteger(t) || t < 1) return { ok: false, field: `targets.${i}`, key: 'formTarget', params: { p: side(i) } };
  }
  const setup: SetupInput =
    f.discipline === '14-1'
      ? { discipline: '14-1', ruleset: f.ruleset, players, targets: [f.targets[0], f.targets[1]] }
      : { discipline: 'rotation', options: { callShot: f.callShot, pushOut: f.pushOut, format: f.format }, players, targets: [f.targets[0], f.targets[1]] };
  if (!f.inProgress) setup.breaker = f.breaker;
  if (f.inProgress) {
    for (const i of [0, 1] as const) {
      if (!Number.isInteger(f.startScore[i])) return { ok: false, field: `startScore.${i}`, key: 'formScore', params: { p: side(i) } };
      if (f.startScore[i] >= f.targets[i]) return { ok: false, field: `startScore.${i}`, key: 'formScoreReached', params: { p: side(i) } };
    }
    for (const i of [0, 1] as const) {
      const fouls = f.fouls[i];
      if (!Number.isInteger(fouls) || fouls < 0 || fouls > 2) return { ok: false, field: `fouls.${i}`, key: 'formFouls', params: { p: side(i) } };
      if (!Number.isInteger(f.innings[i]) || f.innings[i] < 0) return { ok: false, field: `innings.${i}`, key: 'formInnings', params: { p: side(i) } };
      if (!Number.isInteger(f.highRun[i]) || f.highRun[i] < 0) return { ok: false, field: `highRun.${i}`, key: 'formHighRun', params: { p: side(i) } };
    }
    if (!Number.isInteger(f.rack) || f.rack < 1) return { ok: false, field: 'rack', key: 'formRack' };
    setup.start = {
      score: [f.startScore[0], f.startScore[1]],
      turn: f.turn,
      fouls: [f.fouls[0], f.fouls[1]],
      innings: [f.innings[0], f.innings[1]],
      highRun: [f.highRun[0], f.highRun[1]],
      rack: f.rack,
    };
    if (f.discipline === '14-1') {
      if (!Number.isInteger(f.ballsOnTable) || f.ballsOnTable < 2 || f.ballsOnTable > 15) {
        return { ok: false, field: 'ballsOnTable', key: 'formBalls' };
      }
      setup.start.ballsOnTable = f.ballsOnTable;
    }
  }
  return { ok: true, setup };
}

/**
 * The form after a match was created from it: the same discipline, rules and targets for the next match,
 * but no names (so a second tap cannot create the same match again) and no score in progress.
 */
export function afterCreate(f: SetupForm): SetupForm {
  return {
    ...f,
    players: ['', ''],
    breaker: 'A',
    inProgress: false,
    startScore: [0, 0],
    turn: 'A',
    ballsOnTable: 15,
    fouls: [0, 0],
    innings: [0, 0],
    highRun: [0, 0],
    rack: 1,
  };
}
