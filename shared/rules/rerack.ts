/**
 * 14-1 continuous re-rack (S-16–S-18; 14-1 §07 table, WPA 4.8): where the cue ball and the break ball go when
 * a scoring shot leaves the break ball (1) or no ball (0). Pure and small (it imports types only), so the
 * scorer console shows the very placement the engine applies (web/src/scorer/straight.ts).
 */
import type { RackPlacement } from '../protocol/state';
import type { RackArea } from '../protocol/steps';

/**
 * S-16–S-18: the placement after a continuous re-rack with `left` balls left (1: the break ball stays, 0: 15
 * racked), and where the cue ball is in hand. Rack area facts default to "neither in the rack area".
 */
export function rerackContinuous(left: number, a: RackArea): { placement: RackPlacement; ballInHand: 'kitchen' | null } {
  const cue = a.cueBall ?? false;
  if (left === 0) {
    // S-18: 14th and break ball pocketed together — 15 racked; cue ball in hand behind the head string if in the rack area.
    return { placement: { cueBall: cue ? 'kitchen' : 'as-is', breakBall: 'racked', racked: 15 }, ballInHand: cue ? 'kitchen' : null };
  }
  const bb = a.breakBall ?? false;
  if (cue && bb) return { placement: { cueBall: 'kitchen', breakBall: 'racked', racked: 15 }, ballInHand: 'kitchen' }; // S-17(c)
  if (cue) {
    // S-17(a): break ball behind the head string → cue ball on the head spot (centre spot if taken); else in hand in the kitchen.
    if (a.breakBallInKitchen) {
      return { placement: { cueBall: a.headSpotTaken ? 'center-spot' : 'head-spot', breakBall: 'as-is', racked: 14 }, ballInHand: null };
    }
    return { placement: { cueBall: 'kitchen', breakBall: 'as-is', racked: 14 }, ballInHand: 'kitchen' };
  }
  if (bb) return { placement: { cueBall: 'as-is', breakBall: a.headSpotTaken ? 'center-spot' : 'head-spot', racked: 14 }, ballInHand: null }; // S-17(b)
  return { placement: { cueBall: 'as-is', breakBall: 'as-is', racked: 14 }, ballInHand: null }; // S-17(e)
}
