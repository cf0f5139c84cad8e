/** Ghost taps (scorer/tap-guard.ts): a second tap on the same spot, just after the panel was replaced, records nothing. */
import { describe, expect, test } from 'vitest';
import { GHOST_TAP_MS, GHOST_TAP_RADIUS_PX, TapGuard } from '../../web/src/scorer/tap-guard';

/** Tap `control` at time `at` and spot (x, y); may its step go (the handler runs in the same moment)? */
const tapStep = (g: TapGuard, control: string, at: number, x = 100, y = 300) => {
  g.tapped({ control, at, x, y });
  return g.allowStep(at);
};

describe('TapGuard', () => {
  test('a double tap on a choice: the second tap lands on the new panel at the same spot and records nothing', () => {
    const g = new TapGuard();
    expect(tapStep(g, 'choice-accept@B', 1000)).toBe(true);
    g.changed(1005); // the shot buttons replace the choice
    expect(tapStep(g, 'made@B', 1120, 104, 296)).toBe(false);
    // Once the window is over, a tap there is meant.
    expect(tapStep(g, 'made@B', 1005 + GHOST_TAP_MS)).toBe(true);
  });

  test('a tap elsewhere on the screen is a deliberate one, however quick', () => {
    const g = new TapGuard();
    tapStep(g, 'choice-accept@B', 1000);
    g.changed(1005);
    expect(tapStep(g, 'safety@B', 1050, 100, 300 + GHOST_TAP_RADIUS_PX + 20)).toBe(true);
  });

  test('quick taps on the same control for the same player (catching up a run) all go ahead; the same button for the other player does not', () => {
    const g = new TapGuard();
    let t = 0;
    for (let i = 0; i < 5; i++) {
      expect(tapStep(g, 'made@A', (t += 150))).toBe(true);
      g.changed(t + 3);
    }
    tapStep(g, 'miss@A', (t += 600));
    g.changed(t + 3);
    expect(tapStep(g, 'miss@B', t + 120)).toBe(false);
  });

  test('a tap that only opened a question (no step) still guards the question against the second tap', () => {
    const g = new TapGuard();
    g.tapped({ control: 'made@A', at: 1000, x: 100, y: 300 }); // opens the rack-area question instead of recording
    g.changed(1002);
    expect(tapStep(g, 'area-neither@A', 1100)).toBe(false);
    expect(tapStep(g, 'area-neither@A', 1600)).toBe(true);
  });

  test('a panel replaced without a tap here (another scorer) and steps from the keyboard are never held back', () => {
    const g = new TapGuard();
    g.tapped({ control: 'miss@A', at: 0, x: 100, y: 300 });
    g.changed(5000); // a push from another device, long after the last tap here
    expect(tapStep(g, 'made@B', 5100)).toBe(true);
    g.changed(6000);
    expect(g.allowStep(6010)).toBe(true); // a key press: no tap just before it
  });
});
