/**
 * What the console shows while steps wait in the outbox: the confirmed snapshot played forward through the
 * queued steps with the real rules (`projectSteps` of shared/engine), so after a queued breaking foul, third
 * foul or re-rack the scorer sees the panel and the score the rules lead to. Nothing here is recorded: the
 * server decides when it acknowledges. Pure TypeScript, zod-free (imports shared/engine, never shared/index).
 *
 * An undo can take back a queued step (the projection simply drops it) or a confirmed one; for the latter the
 * state before it comes from `ConfirmedChain`, the confirmed snapshots this console saw one version after
 * another. When that state is unknown (e.g. after a reload) the projection stops and says so.
 */
import { projectSteps } from '../../../shared/engine';
import type { MatchSetup } from '../../../shared/protocol/setup';
import type { MatchState, Outcome } from '../../../shared/protocol/state';
import type { Step } from '../../../shared/protocol/steps';
import type { OutboxEntry } from '../lib/outbox';

/** A confirmed snapshot: the server's state at `version` (log length). */
export interface Confirmed {
  version: number;
  state: MatchState;
}

/** Why the projection stopped before the end of the queue. */
export interface ProjectionStop {
  /** The queued step that could not be played forward. */
  step: Step;
  /** Index of that step among the entries that were projected (0 = first queued step not yet confirmed). */
  index: number;
  /**
   * `unknown-undo`: an undo of a confirmed step whose previous state this console never saw (the server will
   * apply it; the result shows once confirmed). Otherwise the rules' refusal code (`choice-pending`, …): the
   * server will refuse the step too.
   */
  code: string;
  message: string;
}

/**
 * What one queued step did in the projection, in the engine's own terms: the outcome the rules gave it
 * (its caption is the same wording a confirmed step gets) and the state after it. For an undo, `outcome`
 * is null and `undone` is the outcome of the step it takes back (null when that step's outcome is unknown).
 */
export interface StepResult {
  outcome: Outcome | null;
  undone?: Outcome | null;
  after: MatchState;
}

/** What the console renders. */
export interface ShownState {
  state: MatchState;
  /** Queued steps not yet in the confirmed snapshot; 0 = `state` is the confirmed one. */
  pending: number;
  /** Of those, the steps played into `state` (all of them unless `stop`). */
  projected: number;
  /** Queued entries already contained in the confirmed snapshot (acknowledged, removal pending). */
  skipped: number;
  stop: ProjectionStop | null;
  /** One result per projected entry (the first `projected` of the pending ones), in queue order. */
  results: StepResult[];
}

/** Earlier confirmed states, for an undo that reaches past the snapshot. */
export interface EarlierStates {
  /** The newest confirmed state of effective depth `steps` seen before `version`, or null when unknown. */
  before(steps: number, version: number): Confirmed | null;
}

/**
 * Confirmed snapshots seen in an unbroken run of versions (the newest `limit`). A gap (a push that skips
 * versions, a resync after a long outage) starts a new run, so every lookup stays on the current branch of
 * the log: each log entry changes the effective depth by exactly one (a step +1, an undo −1), hence the
 * newest state of depth d−1 before a state of depth d is the state its top step was played on.
 */
export class ConfirmedChain implements EarlierStates {
  private run: Confirmed[] = [];

  constructor(private readonly limit = 64) {}

  /** Note a confirmed snapshot (older or repeated versions are ignored). */
  record(version: number, state: MatchState): void {
    const last = this.run[this.run.length - 1];
    if (last && version <= last.version) return;
    if (!last || version !== last.version + 1) this.run = [];
    this.run.push({ version, state });
    if (this.run.length > this.limit) this.run = this.run.slice(-this.limit);
  }

  before(steps: number, version: number): Confirmed | null {
    for (let i = this.run.length - 1; i >= 0; i--) {
      const c = this.run[i]!;
      if (c.version < version && c.state.steps === steps) return c;
    }
    return null;
  }
}

const NO_EARLIER: EarlierStates = { before: () => null };

/**
 * Play the queued entries forward from the confirmed snapshot, in order.
 *
 * Entries whose `expectedVersion` is below the snapshot's version are skipped: the snapshot already holds
 * them (the acknowledged step is pushed before it leaves the outbox, or an ack was lost and the step is
 * resent as a duplicate). The projection stops at the first step the rules refuse, or at an undo of a
 * confirmed step whose previous state is unknown.
 */
export function projectQueue(
  setup: MatchSetup,
  confirmed: Confirmed,
  queued: readonly Pick<OutboxEntry, 'expectedVersion' | 'step'>[],
  earlier: EarlierStates = NO_EARLIER,
): ShownState {
  const pending = queued.filter((e) => e.expectedVersion >= confirmed.version);
  const skipped = queued.length - pending.length;
  /** Projected states, the base (confirmed or an earlier confirmed one) at the bottom. */
  let stack: MatchState[] = [confirmed.state];
  let anchor = confirmed.version;
  const results: StepResult[] = [];
  const shown = (projected: number, stop: ProjectionStop | null): ShownState => ({
    state: stack[stack.length - 1]!,
    pending: pending.length,
    projected,
    skipped,
    stop,
    results,
  });
  for (let i = 0; i < pending.length; i++) {
    const step = pending[i]!.step;
    const top = stack[stack.length - 1]!;
    if ('undo' in step) {
      if (stack.length > 1) {
        stack = stack.slice(0, -1);
        results.push({ outcome: null, undone: top.last, after: stack[stack.length - 1]! });
        continue;
      }
      if (top.steps === 0) return shown(i, { step, index: i, code: 'nothing-to-undo', message: 'undo: there is no step to take back' });
      const prev = earlier.before(top.steps - 1, anchor);
      if (!prev) {
        return shown(i, { step, index: i, code: 'unknown-undo', message: 'undo of a confirmed step: the table shows it once the server confirms' });
      }
      stack = [prev.state];
      anchor = prev.version;
      results.push({ outcome: null, undone: top.last, after: prev.state });
      continue;
    }
    const r = projectSteps(setup, top, [step]);
    if (r.error) return shown(i, { step, index: i, code: r.error.code, message: r.error.message });
    stack = [...stack, r.state];
    results.push({ outcome: r.state.last, after: r.state });
  }
  return shown(pending.length, null);
}
