/**
 * The data of the two on-air cards of a table's overlay, as pure functions of a match (no I/O, no clock):
 * - `introCard`: both players (name, short name, country for the flag), the race, the format, who breaks,
 *   and the event and table names;
 * - `summaryCard`: the final (or current) score, high runs, innings, averages, fouls and, for Rotation, the
 *   racks each player won.
 * The overlay renders them; the organiser's page previews them.
 */
import type { DrawMatchRef } from './draw/labels';
import type { Discipline, MatchSetup, Pair, PlayerKey, Ruleset } from './protocol/setup';
import type { MatchState, PlayerStats, RackTotal } from './protocol/state';
import { rackWinner } from './rules/rack-won';

/** A player as a card shows them. */
export interface CardPlayer {
  name: string;
  /** Short display name when the set-up has one, else null. */
  short: string | null;
  /** Country code for the flag (shared/countries.ts), else null. */
  country: string | null;
}

/** Context of a card: where the match is played. */
export interface CardContext {
  eventName: string;
  tableName: string;
  /** The match's round and bracket place when the event's draw made it (TableState `currentDraw`), else absent. */
  draw?: DrawMatchRef;
}

export interface IntroCard extends CardContext {
  discipline: Discipline;
  ruleset: Ruleset;
  /** 14-1 is always a race; Rotation is a race or a single rack to 61 (R-3a). */
  format: 'race' | 'single-rack-61';
  /** Points each player needs, A first. */
  targets: Pair<number>;
  /** The targets differ (a handicap match). */
  handicap: boolean;
  players: Pair<CardPlayer>;
  /** Who opens the match (the lag winner). */
  breaker: PlayerKey;
  /**
   * The score so far (A first) once the match has a recorded step, else null: an intro re-sent mid-match shows
   * the score, not who breaks.
   */
  scoreSoFar: Pair<number> | null;
}

export interface SummaryCard extends CardContext {
  discipline: Discipline;
  players: Pair<CardPlayer>;
  targets: Pair<number>;
  score: Pair<number>;
  /** The winner, or null when the summary is shown before the match is won. */
  winner: PlayerKey | null;
  highRun: Pair<number>;
  innings: Pair<number>;
  /** Points per inning (14-1 §3.13: gross points / innings), 0 with no inning. */
  average: Pair<number>;
  /** Fouls of every kind: standard, breaking and third fouls. */
  fouls: Pair<number>;
  /** Rotation: racks each player won (reached 61 in the rack, or won the single rack); null for 14-1. */
  racksWon: Pair<number> | null;
  /** Racks played (the rack in progress included). */
  racks: number;
}

/** The two players of `setup` as cards show them. */
function cardPlayers(setup: MatchSetup): Pair<CardPlayer> {
  const one = (i: 0 | 1): CardPlayer => ({
    name: setup.players[i],
    short: setup.shortNames?.[i] ?? null,
    country: setup.countries?.[i] ?? null,
  });
  return [one(0), one(1)];
}

/**
 * The intro card of a match: who breaks before the first step; with `state` past its first step (`steps > 0`),
 * the score so far instead.
 */
export function introCard(setup: MatchSetup, ctx: CardContext, state?: Pick<MatchState, 'steps' | 'score'>): IntroCard {
  return {
    eventName: ctx.eventName,
    tableName: ctx.tableName,
    ...(ctx.draw ? { draw: ctx.draw } : {}),
    discipline: setup.discipline,
    ruleset: setup.ruleset,
    format: setup.discipline === 'rotation' ? setup.options.format : 'race',
    targets: setup.targets,
    handicap: setup.targets[0] !== setup.targets[1],
    players: cardPlayers(setup),
    breaker: setup.breaker,
    scoreSoFar: state && state.steps > 0 ? [state.score[0], state.score[1]] : null,
  };
}

/**
 * Racks each player won in a Rotation match: a rack is won by the player whose rack points reached
 * RACK_CLINCH (61, R-13; more than half of the 120: ./rules/rack-won `rackWinner`); the single rack of `single-rack-61` by the match's
 * winner (R-3a, D-24: a 60–60 tie goes to the last ball's pocketer).
 */
export function racksWon(setup: MatchSetup, racks: readonly RackTotal[], winner: PlayerKey | null): Pair<number> {
  const won: Pair<number> = [0, 0];
  if (setup.discipline === 'rotation' && setup.options.format === 'single-rack-61') {
    if (winner) won[winner === 'A' ? 0 : 1] = 1;
    return won;
  }
  for (const r of racks) {
    const by = rackWinner(r.points);
    if (by) won[by === 'A' ? 0 : 1]++;
  }
  return won;
}

/** The summary card of a match at its current state (normally once it is won). */
export function summaryCard(
  setup: MatchSetup,
  state: MatchState,
  stats: { players: Pair<PlayerStats>; racks: readonly RackTotal[] },
  ctx: CardContext,
): SummaryCard {
  const pair = <T>(f: (p: PlayerStats) => T): Pair<T> => [f(stats.players[0]), f(stats.players[1])];
  return {
    eventName: ctx.eventName,
    tableName: ctx.tableName,
    ...(ctx.draw ? { draw: ctx.draw } : {}),
    discipline: setup.discipline,
    players: cardPlayers(setup),
    targets: state.targets,
    score: state.score,
    winner: state.winner,
    highRun: state.highRun,
    innings: state.innings,
    average: pair((p) => p.average),
    fouls: pair((p) => p.fouls + p.breakingFouls),
    racksWon: setup.discipline === 'rotation' ? racksWon(setup, stats.racks, state.winner) : null,
    racks: state.rack,
  };
}
