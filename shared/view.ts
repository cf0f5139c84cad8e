/**
 * Projection of the engine's core state onto the public `MatchState` (docs/case-format.md `expect` fields plus what a
 * broadcast needs: names, targets, points needed, two-foul flags, Rotation lowest ball / points left / 61).
 */
import type { MatchSetup, Pair } from './protocol/setup';
import type { MatchState, Outcome } from './protocol/state';
import { ALL_BALLS, type Core } from './rules/core';
import { isOnTwoFouls } from './rules/penalties';

/**
 * Public state for one core state.
 * @param steps number of effective steps; @param last the last effective step's outcome.
 */
export function projectState(setup: MatchSetup, c: Core, steps: number, last: Outcome | null): MatchState {
  const rotation = setup.discipline === 'rotation';
  const table = c.table ? [...c.table] : null;
  const needed: Pair<number> = [Math.max(0, setup.targets[0] - c.score[0]), Math.max(0, setup.targets[1] - c.score[1])];
  return {
    discipline: setup.discipline,
    ruleset: setup.ruleset,
    names: [setup.players[0], setup.players[1]],
    targets: [setup.targets[0], setup.targets[1]],
    score: [c.score[0], c.score[1]],
    needed,
    turn: c.turn,
    run: c.run,
    highRun: [c.highRun[0], c.highRun[1]],
    fouls: [c.fouls[0], c.fouls[1]],
    onTwoFouls: [isOnTwoFouls(c.fouls[0]), isOnTwoFouls(c.fouls[1])],
    innings: [c.innings[0], c.innings[1]],
    rack: c.rack,
    ballsOnTable: c.count,
    onTable: table,
    awaiting: c.awaiting,
    breakShot: c.breakShot,
    ballInHand: c.ballInHand,
    rackPlacement: c.rackPlacement ? { ...c.rackPlacement } : null,
    winner: c.winner,
    pushOutAvailable: rotation && c.pushOutAvailable,
    lowestBall: rotation && table && table.length ? table[0]! : null,
    pointsLeft: rotation && table ? table.reduce((a, b) => a + b, 0) : c.count,
    rackPoints: [c.rackPoints[0], c.rackPoints[1]],
    rackClinchedBy: c.rackClinchedBy,
    pendingBallInHand: c.awaiting ? c.pendingBallInHand : null,
    warned: [c.warned[0], c.warned[1]],
    foulPlacement: c.awaiting === 'foul-placement' && c.placement ? { ...c.placement } : null,
    steps,
    last,
  };
}

/**
 * The engine state behind a public state: the inverse of `projectState` (a property test checks the round
 * trip). Lets a client that holds only the latest snapshot (the scorer console, offline) play queued steps
 * forward with the same rules. A turn is open exactly when its run is above 0: only a scoring shot continues one.
 */
export function coreFromState(s: MatchState): Core {
  const rotation = s.discipline === 'rotation';
  const table = s.onTable === null ? null : s.onTable.length === ALL_BALLS.length ? ALL_BALLS : [...s.onTable];
  return {
    score: [s.score[0], s.score[1]],
    fouls: [s.fouls[0], s.fouls[1]],
    innings: [s.innings[0], s.innings[1]],
    highRun: [s.highRun[0], s.highRun[1]],
    turn: s.turn,
    run: s.run,
    turnStarted: s.run > 0,
    rack: s.rack,
    table,
    count: s.ballsOnTable,
    awaiting: s.awaiting,
    breakShot: s.breakShot,
    ballInHand: s.ballInHand,
    rackPlacement: s.rackPlacement ? { ...s.rackPlacement } : null,
    winner: s.winner,
    pendingBallInHand: s.pendingBallInHand,
    warned: [s.warned[0], s.warned[1]],
    pushOutAvailable: rotation && s.pushOutAvailable,
    rackPoints: [s.rackPoints[0], s.rackPoints[1]],
    rackClinchedBy: s.rackClinchedBy,
    placement: s.foulPlacement ? { ...s.foulPlacement } : null,
  };
}
