/**
 * The domain's reactions to a recorded step, in one place: what else follows once a step is acknowledged.
 * - The tournaments that list the match hear it: its live line goes to each tournament's room, and with
 *   automatic cards on, a won match puts its summary up and a first step takes the intro down
 *   (`EventService.onMatchStep`).
 * - The draws hear it: a won match of a draw enters it, and with autopilot on the freed table takes the next
 *   ready match (`DrawService.onMatchStep`).
 * - The webhooks hear it: a won match is POSTed to the event's hooks as `match.finished` (queued; delivered
 *   later, never awaited here: `WebhookHappenings.onMatchStep`).
 * - The match's shot clock, if it has one, opens its next period: the next shot's allowance, started by itself
 *   when its settings say so (`ShotClockService.onStep`).
 * Each reaction runs after the step is acknowledged and never throws (each logs its own failure): a reaction
 * can neither undo nor delay a step. Who pushes the step itself to its viewers is wiring (server/services.ts).
 */
import type { StatePush } from '../shared/protocol/wire';
import type { DrawService } from './draws/service';
import type { EventService } from './events/service';
import type { ShotClockService } from './shot-clock/service';
import type { WebhookHappenings } from './webhooks/happenings';

/** Who reacts to a recorded step. */
export interface StepListeners {
  /** The tournaments (live lines, automatic cards). */
  tournaments: Pick<EventService, 'onMatchStep'>;
  /** The draws (results flow in; autopilot). */
  draws?: Pick<DrawService, 'onMatchStep'>;
  /** The webhooks (`match.finished`). */
  webhooks?: Pick<WebhookHappenings, 'onMatchStep'>;
  /** The shot clocks (next period). */
  shotClocks: Pick<ShotClockService, 'onStep'>;
}

/**
 * The reactions to recorded steps. The listeners are attached once they exist: they are built over the match
 * service, which reports its steps here, so they come after it.
 */
export class StepReactions {
  private listeners: StepListeners | null = null;
  private readonly pending = new Set<Promise<unknown>>();

  /** Who reacts from now on. */
  attach(listeners: StepListeners): void {
    this.listeners = listeners;
  }

  /**
   * A step was recorded (`push`: the match's state after it, on this instance, in version order per match):
   * tell the tournaments and the shot clock. Returns at once; the reactions run on (see `settled`).
   */
  stepRecorded(push: StatePush): void {
    const to = this.listeners;
    if (!to) return;
    const done = Promise.all([
      to.tournaments.onMatchStep(push),
      to.draws?.onMatchStep(push),
      to.webhooks?.onMatchStep(push),
      to.shotClocks.onStep(push.matchId, push.state),
    ]);
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }

  /**
   * Resolves when the reactions to every step acknowledged so far have finished (shutdown waits for it before
   * the stores close). The match service hands a step over in a `setImmediate` right after its ack, so one
   * turn of the check phase passes first: immediates run in the order they were queued.
   */
  async settled(): Promise<void> {
    await new Promise((ok) => setImmediate(ok));
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
