/**
 * Projection of the engine's core state onto the public `MatchState` (FORMAT.md `expect` fields plus what a
 * broadcast needs: names, targets, points needed, two-foul flags, Rotation lowest ball / points left / 61).
 */
import type { MatchSetup, Pair } from './protocol/setup';
import type { MatchState, Outcome } from './protocol/state';
import type { Core } from './rules/core';

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
    onTwoFouls: [c.fouls[0] === 2, c.fouls[1] === 2],
    innings: [c.innings[0], c.innings[1]],
    rack: c.rack,
    ballsOnTable: c.count,
    onTable: table,
    awaiting: c.awaiting,
    breakShot: c.breakShot,
    ballInHand: c.ballInHand,
    rackPlacement: c.rackPlacement ? { ...c.rackPlacement } : null,
    winner: c.winner,
    pushOutAvailable: rotation && c.pushOutAvailable && c.awaiting === null && c.winner === null,
    lowestBall: rotation && table && table.length ? table[0]! : null,
    pointsLeft: rotation && table ? table.reduce((a, b) => a + b, 0) : c.count,
    rackPoints: [c.rackPoints[0], c.rackPoints[1]],
    rackClinchedBy: c.rackClinchedBy,
    foulPlacement: c.awaiting === 'foul-placement' && c.placement ? { ...c.placement } : null,
    steps,
    last,
  };
}
