/**
 * What is on air besides the scorebug, over time: one caption line at a time, or a moment graphic in place of
 * the bar. The rules (issue 10):
 *
 * - A new step shows its caption line (model.ts `captionLine`) for `captionSeconds`, then clears it; `0` keeps
 *   it until the next step. A pending choice (`sticky`) stays until the choice is made.
 * - A step that calls for a moment (moments.ts) shows the moment for `momentSeconds` instead, with the bar and
 *   the caption away; afterwards the bar returns, with the line only if it is sticky or captions are kept.
 * - A page that boots shows no moment and replays no old caption: only a pending choice, or the line when
 *   captions are kept. An undo shows its caption, never a moment.
 * - The next step ends a running moment or caption at once (it is current news).
 *
 * Timers are injected (one-shot, at most one at a time), so an idle overlay runs none and the tests drive
 * the clock. Pure apart from the timer and the `onChange` callback.
 */
import type { MatchSetup } from '../../../shared/protocol/setup';
import type { MatchState } from '../../../shared/protocol/state';
import { type CaptionLine, captionLine, displayNames } from './model';
import { type MomentMemory, type MomentView, momentMemory, nextMoment } from './moments';
import type { OverlayParams } from './params';

export interface OnAirState {
  /** The caption line on air, or null. */
  caption: CaptionLine | null;
  /** The moment on air (the bar is away meanwhile), or null. */
  moment: MomentView | null;
  /** Bumped for every new caption or moment, so the view can key its entrance animation. */
  seq: number;
}

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface OnAir {
  /** A newer state (the client delivers them in version order). */
  feed(state: MatchState, setup: Pick<MatchSetup, 'shortNames'> | null): void;
  /** Cancel the pending timer. */
  stop(): void;
}

const browserTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

/** Start the on-air controller; `onChange` hears every change of {@link OnAirState}. `clean` as in displayNames. */
export function createOnAir(p: OverlayParams, onChange: (s: OnAirState) => void, clean?: (s: string) => string, timers: Timers = browserTimers): OnAir {
  let prev: MatchState | null = null;
  let memory: MomentMemory | null = null;
  let timer: unknown = null;
  let seq = 0;
  const captionMs = p.captionSeconds * 1000;

  const cancel = () => {
    if (timer !== null) timers.clear(timer);
    timer = null;
  };
  const show = (caption: CaptionLine | null, moment: MomentView | null) => {
    seq++;
    onChange({ caption: caption && caption.text ? caption : null, moment, seq });
  };
  /** Show the line; clear it after captionSeconds unless it is sticky or kept (0). */
  const showLine = (line: CaptionLine) => {
    show(line, null);
    if (line.text && !line.sticky && captionMs > 0) {
      timer = timers.set(() => {
        timer = null;
        show(null, null);
      }, captionMs);
    }
  };
  const settle = (line: CaptionLine) => show(line.sticky || captionMs === 0 ? line : null, null);

  return {
    feed(state, setup) {
      cancel();
      const names = displayNames(state, setup, p, clean);
      const line = captionLine(state, p, names);
      if (!prev || !memory) {
        memory = momentMemory(state);
        prev = state;
        settle(line);
        return;
      }
      const r = nextMoment(prev, state, memory, p, names);
      memory = r.memory;
      prev = state;
      if (r.moment) {
        show(null, r.moment);
        timer = timers.set(() => {
          timer = null;
          settle(line);
        }, p.momentSeconds * 1000);
      } else {
        showLine(line);
      }
    },
    stop: cancel,
  };
}
