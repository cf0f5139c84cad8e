/**
 * Calibration of the 14-1 win chance on simulated matches of known skill (bench/odds-calibration.ts, the same
 * procedure as `npm run calibrate:odds`), on a small fixed-seed sample: over the bins with enough predictions,
 * the predicted chance and the observed win rate agree within a tolerance, and overall better than a coin.
 */
import { describe, expect, it } from 'vitest';
import { calibrate } from '../../bench/odds-calibration';

describe('14-1 win chance calibration', () => {
  it('predicted against observed win rates agree on a fixed-seed sample', () => {
    const c = calibrate({ matches: 200, race: 30, skill: [0.55, 0.85], every: 12, seed: 8, samples: 100 });
    expect(c.matches).toBe(200);
    expect(c.predictions).toBeGreaterThan(2000);
    // Expected calibration error below 4 points, and a Brier score well under a coin's 0.25.
    expect(c.ece).toBeLessThan(0.04);
    expect(c.brier).toBeLessThan(0.2);
    // Every bin with enough predictions within 8 points, and every bin is used (the model is not timid).
    for (const b of c.bins) {
      expect(b.n, `bin ${b.lo}`).toBeGreaterThan(100);
      expect(Math.abs(b.predicted - b.observed), `bin ${b.lo}`).toBeLessThan(0.08);
    }
  });
});
