/**
 * Rotation foul placement (ROT §10, §11, D-20): which cue-ball / lowest-ball combinations the
 * incoming player may choose. Pure and dependency-free so the scorer console offers exactly what the
 * engine accepts.
 */
import type { FoulPlacementFacts } from '../protocol/state';
import type { Placement } from '../protocol/steps';

/**
 * R-8 placement options: cue ball as is (not after a scratch or off table, D-20) / kitchen / anywhere (third foul only);
 * lowest ball as is (not when it was pocketed or left the table; not with the cue ball in the kitchen while the lowest
 * lies behind the head string) / centre spot / foot spot.
 * @returns the reason the placement is forbidden, or null when it is legal.
 */
export function placementRefusal(ctx: FoulPlacementFacts, pl: Placement): string | null {
  if (ctx.thirdFoul && pl.cueBall !== 'anywhere') return 'after a third foul the cue ball is in hand anywhere: choose "anywhere" (ROT §11)';
  if (!ctx.thirdFoul && pl.cueBall === 'anywhere') return '"anywhere" is only allowed after a third foul (ROT §10, §11)';
  if (pl.cueBall === 'as-is' && ctx.cueBallLost) return 'the cue ball left the table (scratch or off the table): it cannot stay as is (D-20)';
  if (pl.lowestBall === 'as-is' && ctx.lowestBallLost)
    return 'the lowest ball was pocketed or left the table on the foul: it goes to the centre or foot spot (ROT §10)';
  if (pl.lowestBall === 'as-is' && pl.cueBall === 'kitchen' && pl.lowestBallInKitchen) {
    return 'with the cue ball behind the head string and the lowest ball there too, the lowest ball goes to the centre or foot spot (ROT §10)';
  }
  return null;
}

/** Legal placements for the pending foul (for the scorer console). */
export function legalPlacements(ctx: FoulPlacementFacts, lowestBallInKitchen = false): Placement[] {
  const out: Placement[] = [];
  for (const cueBall of ['as-is', 'kitchen', 'anywhere'] as const) {
    for (const lowestBall of ['as-is', 'center-spot', 'foot-spot'] as const) {
      const pl: Placement = { cueBall, lowestBall, lowestBallInKitchen };
      if (placementRefusal(ctx, pl) === null) out.push({ cueBall, lowestBall });
    }
  }
  return out;
}
