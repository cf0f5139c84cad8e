/**
 * What is on air besides the scorebug, over time: one caption line at a time, or a moment card where the
 * caption goes (beside the scorebug, which stays). The rules (issues 10 and 17):
 *
 * - A step worth a caption ({@link notable}; every step with `captions=all`; none with `captions=off`) shows its
 *   caption line (model.ts `captionLine`) for `captionSeconds`, then clears it; `0` keeps it until the next
 *   step. A pending choice (`sticky`) stays until the choice is made. A routine pot is not captioned by default.
 * - A step that calls for a moment (moments.ts) shows the moment for `momentSeconds` instead of the caption;
 *   afterwards the line only if it is sticky or captions are kept.
 * - A page that boots shows no moment and replays no old caption: only a pending choice, or the line when
 *   captions are kept. An undo shows no old caption as new: a short "Correction" when the score changed (and
 *   a pending choice it brought back), else nothing; never a moment.
 * - The next step ends a running moment or caption at once (it is current news).
 *
 * Timers are injected (one-shot, at most one at a time), so an idle overlay runs none and the tests drive
 * the clock. Pure apart from the timer and the `onChange` callback.
 */
import type { MatchSetup } from '../../shared/protocol/setup';
import type { MatchState } from '../../shared/protocol/state';
import { t } from '../../web/src/lib/i18n';
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

/**
 * A step worth a caption by default (`captions=notable`): a foul (with its points), a breaking foul, a third
 * foul, a re-rack (with the run), a rack won or clinched, a push out, a choice made or pending, a warning, a
 * stalemate, the match won, or a new high run (`highRun`: the step ended a run that is a moment, moments.ts).
 * A routine pot, a miss or a safety is not.
 */
export function notable(state: MatchState, highRun: boolean): boolean {
  const o = state.last;
  if (!o) return false;
  return (
    highRun ||
    state.awaiting !== null ||
    o.kind !== 'shot' ||
    !!o.foul ||
    !!o.rerack ||
    !!o.clinched ||
    !!o.tieBreak ||
    o.turnEnd === 'push-out' ||
    o.turnEnd === 'illegal-break' ||
    o.next.winner !== null
  );
}

const browserTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

/**
 * Start the on-air controller; `onChange` hears every change of {@link OnAirState}. `clean` as in displayNames.
 * `chosen`: the name forms the scorebug chose for the match (A first, Scorebug.svelte), or null before it has;
 * captions and moments print them, so a name has one form on air (issue 29); until then the display names.
 */
export function createOnAir(
  p: OverlayParams,
  onChange: (s: OnAirState) => void,
  clean?: (s: string) => string,
  timers: Timers = browserTimers,
  chosen: () => [string, string] | null = () => null,
): OnAir {
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
  const off = p.captions === 'off';
  /** Whether the step that led to `state` gets its caption (`captions`). */
  const worth = (state: MatchState, highRun: boolean) => !off && (p.captions === 'all' || notable(state, highRun));
  /** After a moment or at boot: the line only when it is sticky, or captions are kept (0) and it is worth one. */
  const settle = (line: CaptionLine, keep: boolean) => show(line.sticky || (captionMs === 0 && keep) ? line : null, null);
  /** `p` with moments shown, to tell a new high run even when `hide=moments`. */
  const withMoments: OverlayParams = p.hide.has('moments') ? { ...p, hide: new Set([...p.hide].filter((h) => h !== 'moments')) } : p;

  return {
    feed(state, setup) {
      cancel();
      const names = chosen() ?? displayNames(state, setup, p, clean);
      const line: CaptionLine = off ? { text: '', sticky: false, names } : captionLine(state, p, names);
      if (!prev || !memory) {
        memory = momentMemory(state);
        prev = state;
        settle(line, worth(state, false));
        return;
      }
      const before = prev;
      const r = nextMoment(prev, state, memory, withMoments, names);
      memory = r.memory;
      prev = state;
      const moment = p.hide.has('moments') ? null : r.moment;
      if (state.steps <= before.steps || state.last?.kind === 'undo') {
        const changed = before.score[0] !== state.score[0] || before.score[1] !== state.score[1];
        if (line.sticky) showLine(line);
        else if (changed && !off) showLine({ text: t(p.lang, 'correction'), sticky: false, names });
        else show(null, null);
      } else if (moment) {
        show(null, moment);
        timer = timers.set(() => {
          timer = null;
          settle(line, true);
        }, p.momentSeconds * 1000);
      } else if (line.sticky || worth(state, r.moment?.kind === 'high-run')) {
        showLine(line);
      } else {
        show(null, null);
      }
    },
    stop: cancel,
  };
}
