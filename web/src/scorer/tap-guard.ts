/**
 * Ghost taps on a touch screen. A step replaces the panel under the scorer's finger (a choice gives way to the
 * shot buttons, a foul brings up the opponent's choice, "Ball made" opens the rack-area question), so the
 * second tap of a double tap, or a bouncy one, lands on a control that was not there when the finger went
 * down and records a step nobody meant: the opponent's choice made for them, a ball that was not pocketed, a
 * re-rack answered "neither". The guard refuses a step caused by a tap that comes within `windowMs` after the
 * panel was replaced, at the spot of the tap that replaced it (within `radiusPx`), on another control. A tap
 * on the same control (tapping "Ball made" quickly for several shots, to catch up) or elsewhere on the screen
 * (a deliberate tap on another button) goes ahead, and so does a step from the keyboard (a held key is
 * refused by the page through `KeyboardEvent.repeat`). Pure: the page passes clock (ms) and positions (CSS px) in.
 */

/** How long after the panel was replaced a tap on the same spot is taken for a ghost (ms): a double-tap interval. */
export const GHOST_TAP_MS = 450;

/** How far (CSS px) a ghost tap may land from the tap that replaced the panel: a finger's jitter. */
export const GHOST_TAP_RADIUS_PX = 30;

/** A tap causes a panel change that follows it within this long (ms). */
const TAP_CAUSE_MS = 1000;

/** A pointer tap: the control it hit (test id and the player it acts for), when and where. */
export interface Tap {
  control: string;
  at: number;
  x: number;
  y: number;
}

export class TapGuard {
  private tap: Tap | null = null;
  private cause: Tap | null = null;
  private changedAt = -Infinity;

  constructor(
    private readonly windowMs = GHOST_TAP_MS,
    private readonly radiusPx = GHOST_TAP_RADIUS_PX,
  ) {}

  /**
   * A pointer tap, seen before the control's own handler runs. The page names a control by its test id and
   * the player it acts for, so Bob's "Miss" is not the "Miss" Ann's tap just used.
   */
  tapped(tap: Tap): void {
    this.tap = tap;
  }

  /** The panel was replaced at `at` (a step shown, a question opened, another scorer's step arrived). */
  changed(at: number): void {
    this.cause = this.tap && at - this.tap.at <= TAP_CAUSE_MS ? this.tap : null;
    this.changedAt = at;
  }

  /**
   * May the step (or undo) asked for at `at` go ahead? No when a tap just before it (its cause) came within
   * the window after the panel was replaced, on the spot of the tap that replaced it, on another control.
   */
  allowStep(at: number): boolean {
    const tap = this.tap && at - this.tap.at <= 50 ? this.tap : null;
    if (tap === null || tap.at - this.changedAt >= this.windowMs) return true;
    const cause = this.cause;
    if (cause === null) return true;
    const sameSpot = Math.hypot(tap.x - cause.x, tap.y - cause.y) <= this.radiusPx;
    return !(sameSpot && tap.control !== cause.control);
  }
}
