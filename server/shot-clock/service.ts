/**
 * The shot clock of each match, kept by the server (issue: shot clock; docs/rules.md D-32): turn it on or off
 * with settings, act on it (start, pause, resume, reset, extension) for the scorer or the event's organiser,
 * move it on when a step is recorded, and push every change to the match's viewers with the server's time.
 * The clock never touches the step log, the rules' state or the score sheet.
 */
import type { Logger } from 'pino';
import { RulesError } from '../../shared/protocol/errors';
import type { ShotClockPush } from '../../shared/protocol/shot-clock';
import type { MatchState } from '../../shared/protocol/state';
import {
  CLOCK_PRESETS,
  decideShotClock,
  initialShotClock,
  shotClockAfterStep,
  shotClockSettingsProblem,
  shotClockView,
  type ShotClockAction,
  type ShotClockSettings,
  type ShotClockView,
} from '../../shared/shot-clock';
import type { Clock } from '../clock';
import { fail, type Failure } from '../failure';
import type { MatchService } from '../matches/service';
import type { ShotClockDoc, ShotClockStore } from '../storage/ports';

/** An answer: the clock now, the server time, and whether the press repeated what the clock already was. */
export type ShotClockResult = { ok: true; matchId: string; clock: ShotClockView | null; now: number; revision: number; duplicate: boolean } | Failure;

/** Who asks: the scorer with the match's token, or a caller the transport already checked (the event's organiser). */
export type ShotClockAuth = { scorerToken: string | undefined } | { organiser: true };

export interface ShotClockServiceOptions {
  store: ShotClockStore;
  matches: Pick<MatchService, 'currentState' | 'tokenValid'>;
  clock: Clock;
  log: Logger;
  /** Called after every stored change, on the instance that made it; the caller fans it out to the match's rooms. */
  push: (push: ShotClockPush) => void;
}

/** Compare-and-set retries when two instances write one clock at once. */
const WRITE_ATTEMPTS = 5;

/** The shot clocks of all matches. */
export class ShotClockService {
  constructor(private readonly opts: ShotClockServiceOptions) {}

  /** Match `matchId`'s clock as displays render it, or null when it has none; `not-found` for an unknown match. */
  async view(matchId: string): Promise<ShotClockResult> {
    const match = await this.opts.matches.currentState(matchId);
    if (!match) return matchNotFound(matchId);
    const doc = await this.opts.store.read(matchId);
    const now = this.opts.clock.now();
    return { ok: true, matchId, clock: viewOf(doc, now), now, revision: doc?.revision ?? 0, duplicate: false };
  }

  /**
   * Turn the clock on with `settings` (a preset name or whole settings; checked by `shotClockSettingsProblem`),
   * or off with null. A clock turned on again keeps the extensions used in the current period. Refusals:
   * `not-found`, `unauthorized`/`forbidden` (token), `invalid-request` naming the field, `match-over`.
   */
  async configure(matchId: string, auth: ShotClockAuth, settings: ShotClockSettings | keyof typeof CLOCK_PRESETS | null): Promise<ShotClockResult> {
    const match = await this.authorised(matchId, auth);
    if (!match.ok) return match;
    if (match.state.winner) return fail('match-over', 'the match is over: its clock cannot change', 'matchId');
    const chosen = typeof settings === 'string' ? CLOCK_PRESETS[settings] : settings;
    if (chosen) {
      const problem = shotClockSettingsProblem(chosen);
      if (problem) {
        // Named as the request names it: `settings.urgentSeconds` (PUT …/clock takes `{settings}`).
        const field = problem.field.replace(/^clock/, 'settings');
        return fail('invalid-request', `${field}: ${problem.message}`, field);
      }
    }
    return this.update(matchId, (doc) => {
      if (!chosen) return doc?.settings ? { settings: null, clock: doc.clock } : 'same';
      const fresh = initialShotClock(chosen, match.state);
      const clock = doc ? { ...fresh, extensionsUsed: doc.clock.extensionsUsed, shot: doc.clock.shot + 1, match: doc.clock.match } : fresh;
      return { settings: chosen, clock };
    });
  }

  /**
   * Turn on the clock of a match just made (the creator's choice, already checked by `parseClockChoice`): no
   * token is asked, the caller made the match. @throws RulesError when it cannot be stored, so the caller does
   * not hand out a match without the clock it asked for.
   */
  async applyNew(matchId: string, settings: ShotClockSettings): Promise<void> {
    const r = await this.configure(matchId, { organiser: true }, settings);
    if (!r.ok) throw new RulesError(r.error.code, r.error.message, r.error.field);
  }

  /**
   * Act on the clock at the server's time. `period` (the `shot` of the clock the press was meant for) makes a
   * late duplicate press harmless. Refusals: `not-found`, `unauthorized`/`forbidden`, `no-clock` (the match has
   * none), `match-over`, `break-shot` (start, resume or extension for a break: D-32a), `clock-expired` (start, resume or extension after time ran out), `no-extension-left`.
   */
  async act(matchId: string, auth: ShotClockAuth, action: ShotClockAction, period?: number): Promise<ShotClockResult> {
    const match = await this.authorised(matchId, auth);
    if (!match.ok) return match;
    let refusal: Failure | null = null;
    const result = await this.update(matchId, (doc, now) => {
      if (!doc?.settings) {
        refusal = fail('no-clock', `matchId: match "${matchId}" has no shot clock (turn it on with PUT /api/matches/${matchId}/clock)`, 'matchId');
        return 'same';
      }
      const d = decideShotClock(doc.settings, doc.clock, action, now, match.state.winner, period);
      if (!d.ok) {
        refusal = fail(d.code, d.message, 'action');
        return 'same';
      }
      return d.duplicate ? 'same' : { settings: doc.settings, clock: d.clock };
    });
    return refusal ?? result;
  }

  /**
   * A step was recorded on match `matchId` (on this instance; `state` is the rules' state after it): the clock,
   * if any, opens the next clock period. Errors are logged, never thrown: the step is already acknowledged.
   */
  async onStep(matchId: string, state: MatchState): Promise<void> {
    try {
      await this.update(matchId, (doc, now) =>
        doc?.settings ? { settings: doc.settings, clock: shotClockAfterStep(doc.settings, doc.clock, state, now) } : 'same',
      );
    } catch (err) {
      this.opts.log.error({ err: (err as Error).message, matchId }, 'shot clock not moved on after a step');
    }
  }

  private async authorised(matchId: string, auth: ShotClockAuth): Promise<{ ok: true; state: MatchState } | Failure> {
    const match = await this.opts.matches.currentState(matchId);
    if (!match) return matchNotFound(matchId);
    if ('scorerToken' in auth) {
      if (auth.scorerToken === undefined || auth.scorerToken === '')
        return fail('unauthorized', 'the clock needs the scorer token (Authorization: Bearer …)', 'token');
      if (!(await this.opts.matches.tokenValid(matchId, auth.scorerToken)))
        return fail('forbidden', 'this token is not the scorer token of this match', 'token');
    }
    return { ok: true, state: match.state };
  }

  /** Read, decide with `fn`, and write with compare-and-set (again on a lost race); push what was stored. */
  private async update(
    matchId: string,
    fn: (doc: ShotClockDoc | null, now: number) => 'same' | Pick<ShotClockDoc, 'settings' | 'clock'>,
  ): Promise<ShotClockResult> {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const doc = await this.opts.store.read(matchId);
      const now = this.opts.clock.now();
      const next = fn(doc, now);
      if (next === 'same') return { ok: true, matchId, clock: viewOf(doc, now), now, revision: doc?.revision ?? 0, duplicate: true };
      const stored: ShotClockDoc = { ...next, revision: (doc?.revision ?? 0) + 1 };
      if (!(await this.opts.store.write(matchId, stored, doc?.revision ?? 0))) continue;
      const view = viewOf(stored, now);
      this.opts.push({ matchId, clock: view, now, revision: stored.revision });
      return { ok: true, matchId, clock: view, now, revision: stored.revision, duplicate: false };
    }
    return fail('internal', 'the clock changed too often at once; press again', 'action');
  }
}

/** The display view of a stored clock at `now`; null when there is none or it is off. */
function viewOf(doc: ShotClockDoc | null, now: number): ShotClockView | null {
  return doc?.settings ? shotClockView(doc.settings, doc.clock, now) : null;
}

function matchNotFound(id: string): Failure {
  return fail('not-found', `matchId: no match "${id}"`, 'matchId');
}
