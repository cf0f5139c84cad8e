/**
 * The match service: the only place that decides. It creates matches, judges each new step with the
 * engine against the live copy of its match (server/matches/live-cache.ts), and writes it through the store's
 * compare-and-append (with the checkpoint due at its version, when one is), all inside the match's serial
 * queue. When several instances share the store, a refused append (another instance wrote first) makes it
 * catch up from the log and re-decide, or answer `stale` when the client named a version.
 */
import type { Logger } from 'pino';
import {
  applyStep,
  newMatch,
  RULES_VERSION,
  RulesError,
  view,
  type MatchSetup,
  type MatchState,
  type MatchSummary,
  type Snapshot,
  type StatsDelta,
  type Step,
} from '../../shared/index';
import { parseSetup } from '../protocol/setup-schemas';
import { parseStep } from '../protocol/step-schemas';
import type { ScorebugFigures } from '../../shared/protocol/wire';
import { systemClock, type Clock } from '../clock';
import type { MatchStore, MatchRecord, RemoveResult, StoredStep } from '../storage/ports';
import { sameJson } from './canonical';
import { fail, type Failure } from '../failure';
import { LiveCache, type Live, type Pushes } from './live-cache';
import { hashToken, newMatchId, newScorerToken, tokenMatches } from '../tokens';
import { refusalOf, storeErrorOf, StoreRefusal, type StoreHealth } from '../storage/store-errors';
import { forbiddenKey } from './validate';

/**
 * Result of `record`: the version and state after the step and what changed in the statistics (or, for a
 * retried stepId with the same step, the version and state after the original step, without `stats`).
 */
export type RecordResult =
  { ok: true; matchId: string; version: number; state: MatchState; figures?: ScorebugFigures; stats?: StatsDelta; step: Step; duplicate: boolean } | Failure;

export interface MatchServiceOptions {
  store: MatchStore;
  log: Logger;
  /** Called after every newly appended step (in version order per match, just after the ack); the caller fans out its pushes. */
  onAppended: (pushes: Pushes) => void;
  /** True when other instances may write the same store (Redis): reads and refusals check the log first. */
  shared: boolean;
  /** An append that takes longer answers `outcome-unknown` (the client retries with the same stepId). Default 5 s. */
  appendTimeoutMs?: number;
  /** Hears store refusals (with their cause) and good writes, for the log and `/healthz`. */
  health?: StoreHealth;
  /** The live-match cache to use (over the same store); default a new one on `clock`. */
  live?: LiveCache;
  /** Creation and step times, and idle eviction (default the wall clock). */
  clock?: Clock;
  /**
   * Other scorer tokens a match accepts (issue 27 §4, the table scorer tokens: the event service's
   * `tableScorerCheck`): for a token that is not the match's own, `ok`, a refusal, or null (not one of them).
   */
  otherScorers?: (matchId: string, token: unknown) => Promise<'ok' | Failure | null>;
  /**
   * Whether match `matchId` was closed by its event (issue 27 §3, the event service's `closedCheck`: the organiser
   * decided it in the draw): the refusal (`match-over` naming why) every step then gets, whoever's the token; else null.
   */
  closed?: (matchId: string) => Promise<Failure | null>;
}

const MAX_ATTEMPTS = 5;

/** Listing row of a match at a version. */
export function summaryOf(id: string, state: MatchState, version: number, updatedAt: number): MatchSummary {
  return {
    id,
    discipline: state.discipline,
    names: state.names,
    score: state.score,
    targets: state.targets,
    winner: state.winner,
    version,
    updatedAt,
  };
}

export class MatchService {
  private readonly live: LiveCache;
  private readonly store: MatchStore;
  private readonly log: Logger;
  private readonly onAppended: (pushes: Pushes) => void;
  private readonly appendTimeoutMs: number;
  private readonly health: StoreHealth | undefined;
  private readonly clock: Clock;
  private readonly otherScorers: MatchServiceOptions['otherScorers'];
  private readonly closed: MatchServiceOptions['closed'];

  constructor(opts: MatchServiceOptions) {
    this.otherScorers = opts.otherScorers;
    this.closed = opts.closed;
    this.store = opts.store;
    this.log = opts.log;
    this.onAppended = opts.onAppended;
    this.appendTimeoutMs = opts.appendTimeoutMs ?? 5000;
    this.health = opts.health;
    this.clock = opts.clock ?? systemClock;
    this.live = opts.live ?? new LiveCache({ store: opts.store, shared: opts.shared, log: opts.log, clock: this.clock });
  }

  /**
   * Create a match from an untrusted set-up, under the current RULES_VERSION.
   * @returns the new id, the scorer token (shown once; only its hash is stored), the rules version and the
   *   snapshot at version 0.
   * `alsoKnown`: fields of the same body the caller took out first (`clock`), named among the known ones when a
   * field is unknown.
   * @throws RulesError `invalid-setup` naming the field.
   */
  async create(
    input: unknown,
    alsoKnown: readonly string[] = [],
  ): Promise<{ id: string; scorerToken: string; setup: MatchSetup; rulesVersion: number; snapshot: Snapshot }> {
    const setup = parseSetup(input, alsoKnown);
    const match = newMatch(setup);
    const id = newMatchId();
    const scorerToken = newScorerToken();
    const now = this.clock.now();
    const record: MatchRecord = { id, setup, tokenHash: hashToken(scorerToken), createdAt: now, rulesVersion: RULES_VERSION };
    const state = view(match);
    await this.store.create(record, { summary: summaryOf(id, state, 0, now), state });
    const snapshot = this.live.snapshot(this.live.add(record, match, state));
    this.log.info({ matchId: id, discipline: setup.discipline }, 'match created');
    return { id, scorerToken, setup, rulesVersion: RULES_VERSION, snapshot };
  }

  /** Set-up, rules version and latest snapshot (whole statistics included) of a match, or null when unknown. */
  async current(id: string): Promise<{ setup: MatchSetup; rulesVersion: number; snapshot: Snapshot } | null> {
    const live = await this.live.fresh(id);
    return live ? { setup: live.record.setup, rulesVersion: live.record.rulesVersion, snapshot: this.live.snapshot(live) } : null;
  }

  /** Set-up and latest version, state and the scorebug's figures (no statistics: the scorebug), or null when unknown. */
  async currentState(id: string): Promise<{ setup: MatchSetup; matchId: string; version: number; state: MatchState; figures: ScorebugFigures } | null> {
    const live = await this.live.fresh(id);
    return live
      ? { setup: live.record.setup, matchId: live.id, version: this.live.version(live), state: this.live.state(live), figures: this.live.figures(live) }
      : null;
  }

  /** When match `id` was created (ms since the epoch), or null when unknown. */
  async createdAt(id: string): Promise<number | null> {
    const live = await this.live.get(id);
    return live ? live.record.createdAt : null;
  }

  /** The whole log (versions 1…n, read from the store), or null when unknown. */
  async steps(id: string): Promise<{ version: number; steps: StoredStep[] } | null> {
    const live = await this.live.fresh(id);
    return live ? { version: this.live.version(live), steps: await this.live.log(live) } : null;
  }

  /**
   * Whether `token` may record for match `id` (the scorer console's check as it opens): true or false, null
   * when the match is unknown. Compares hashes in constant time; reveals neither the token nor its hash.
   */
  async tokenValid(id: string, token: unknown): Promise<boolean | null> {
    const live = await this.live.get(id);
    if (!live) return null;
    return tokenMatches(token, live.record.tokenHash) || (await this.scorerFailure(id, token)) === null;
  }

  /**
   * Null when `token` may record for match `id` by the other scorers' check (a table scorer token for its table's
   * current match), else the refusal: theirs, or `forbidden` naming `token`. Called when `token` is not the match's own.
   */
  private async scorerFailure(id: string, token: unknown): Promise<Failure | null> {
    const other = this.otherScorers ? await this.otherScorers(id, token) : null;
    if (other === 'ok') return null;
    return other ?? fail('forbidden', 'this token may not record for this match', 'token');
  }

  /**
   * Remove match `id` if no step was ever recorded for it (a next match its event made and took off the
   * table before it started), in the match's serial queue so no record on this instance runs in between; the
   * store's own check keeps a match another instance recorded for meanwhile. @returns the store's answer
   * (`removed`, `has-steps`, `missing`), or `kept` for a store without `removeIfEmpty` (every backend of server/storage/ has it).
   */
  async removeIfUnscored(id: string): Promise<RemoveResult | 'kept'> {
    const remove = this.store.removeIfEmpty?.bind(this.store);
    if (!remove) return 'kept';
    const live = await this.live.get(id);
    if (!live) return 'missing';
    return this.live.serial(live, async () => {
      if (this.live.version(live) > 0) return 'has-steps';
      const res = await remove(id);
      if (res !== 'has-steps') this.live.forget(id);
      if (res === 'removed') this.log.info({ matchId: id }, 'unscored match removed');
      return res;
    });
  }

  /** Latest summaries, newest first. */
  list(limit = 100): Promise<MatchSummary[]> {
    return this.store.list(limit);
  }

  /**
   * Record one step for match `id` on behalf of the holder of `token`.
   * Refusals: `not-found` (matchId), `unauthorized` (no token), `forbidden` (wrong token), `match-over` (its event
   * closed it: the organiser decided it in the draw), `invalid-step`
   * (field), `stale` (+ currentVersion), `step-id-reused` (the stepId is already in the log with another
   * step: nothing is appended), the engine's rules codes, and the store's two answers (both 503, both retried
   * with the same stepId): `store-unavailable` (the store refused or could not be read: nothing was recorded)
   * and `outcome-unknown` (the append did not answer in time or broke off: it may be recorded; the retry is
   * recorded once). A retried stepId with the same step (compared as canonical JSON, key order aside) returns the
   * original result with `duplicate: true`, also when another instance recorded it.
   */
  async record(id: string, token: unknown, req: { stepId: string; expectedVersion?: number; step: unknown }): Promise<RecordResult> {
    const live = await this.live.get(id);
    if (!live) return fail('not-found', `matchId: no match "${id}"`, 'matchId');
    if (token === undefined || token === null || token === '') return fail('unauthorized', 'a scorer token is required to record', 'token');
    if (!tokenMatches(token, live.record.tokenHash)) {
      const denied = await this.scorerFailure(id, token);
      // A live table token refused only because its table has moved on (or the organiser closed the match) is still
      // answered for a step the log already holds: the retry of a step whose first answer was lost.
      if (denied?.error.code === 'not-current-match' || denied?.error.code === 'match-over') return (await this.heldRetry(live, req)) ?? denied;
      if (denied) return denied;
    }
    let step: Step;
    try {
      step = parseStep(req.step);
    } catch (err) {
      if (err instanceof RulesError) return { ok: false, error: err.toJSON() };
      throw err;
    }
    // A `__proto__` / `constructor` / `prototype` key the step parse let through (dropped) is refused by name.
    const forbidden = forbiddenKey(req.step, 'step');
    if (forbidden) return fail('invalid-step', `${forbidden}: "${forbidden.split('.').pop()}" is not allowed as a key`, forbidden);
    // A closed match takes no new step; a retry of a step it already holds still answers `duplicate` (recordLocked).
    const closed = this.closed ? await this.closed(id) : null;
    return this.live
      .serial(live, () => this.recordLocked(live, req.stepId, req.expectedVersion, step, closed))
      .catch((err: Error) => {
        this.log.error({ matchId: id, err: (err as Error).message }, 'record failed: the store could not be read');
        return this.storeFailure(err, false);
      });
  }

  /** The answer to `req` when its stepId is in the log already (`duplicate`, or `step-id-reused`), else null. */
  private async heldRetry(live: Live, req: { stepId: string; step: unknown }): Promise<RecordResult | null> {
    let step: Step;
    try {
      step = parseStep(req.step);
    } catch {
      return null;
    }
    return this.live.serial(live, async () => {
      const dup = this.live.versionOf(live, req.stepId);
      return dup === undefined ? null : this.duplicate(live, req.stepId, dup, step);
    });
  }

  /**
   * After the fan-out was interrupted: bring every given loaded match up to the store's latest version (the
   * reads sent together) and return the pushes of its latest version, for matches past version 0.
   */
  resync(ids: Iterable<string>): Promise<Pushes[]> {
    return this.live.resync(ids);
  }

  /** Forget matches untouched for `idleMs` (by the service's clock) that `keep` does not claim (e.g. still watched). */
  evictIdle(idleMs: number, keep: (id: string) => boolean): void {
    this.live.evictIdle(idleMs, keep);
  }

  /** Wait for every queued operation (graceful shutdown). */
  drain(): Promise<void> {
    return this.live.drain();
  }

  /**
   * Decide and append one parsed step; runs inside the match's serial queue. `closed`: the refusal of a match its
   * event closed, given to every step but the retry of one the log already holds.
   */
  private async recordLocked(live: Live, stepId: string, expected: number | undefined, step: Step, closed: Failure | null = null): Promise<RecordResult> {
    const shared = this.live.shared;
    let caughtUp = false;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const dup = this.live.versionOf(live, stepId);
      if (dup !== undefined) return this.duplicate(live, stepId, dup, step);
      if (closed) return closed;
      if ('undo' in step) await this.live.prepareUndo(live);
      const version = this.live.version(live);
      if (expected !== undefined && expected !== version) {
        if (shared && !caughtUp) {
          caughtUp = true;
          await this.live.catchUp(live);
          continue;
        }
        return (
          (await this.olderDuplicate(live, stepId, step)) ?? {
            ok: false,
            error: { code: 'stale', message: `expectedVersion: the match is at version ${version}, not ${expected}`, field: 'expectedVersion' },
            currentVersion: version,
          }
        );
      }
      const applied = applyStep(live.match, step);
      if (!applied.ok) {
        if (shared && !caughtUp) {
          caughtUp = true;
          if (await this.live.catchUp(live)) continue;
        }
        return (await this.olderDuplicate(live, stepId, step)) ?? { ok: false, error: applied.error.toJSON() };
      }
      const at = this.clock.now();
      const state = view(applied.match);
      const entry: StoredStep = { stepId, step, at };
      // The checkpoint due at the new version goes with the step: stored together or not at all.
      const checkpoint = this.live.dueCheckpoint(live, applied.match);
      let res;
      try {
        res = await withTimeout(
          this.store.append(live.id, version, entry, { summary: summaryOf(live.id, state, version + 1, at), state }, checkpoint && { checkpoint }),
          this.appendTimeoutMs,
        );
      } catch (err) {
        this.log.error({ matchId: live.id, err: (err as Error).message, ...(err instanceof StoreRefusal ? { cause: err.reason } : {}) }, 'append failed');
        return this.storeFailure(err, true);
      }
      this.health?.wrote();
      if (res.status === 'ok') {
        const pushes = this.live.commit(live, entry, applied.match, state, checkpoint);
        // Fan out right after the caller's ack went out (acks are answered in this microtask run; pushes
        // leave in the check phase, in append order), so the scorer's round trip does not wait for N viewers.
        setImmediate(() => this.onAppended(pushes));
        const stats = pushes.full.stats;
        return {
          ok: true,
          matchId: live.id,
          version: version + 1,
          state,
          figures: pushes.scorebug.figures!,
          ...(stats ? { stats } : {}),
          step,
          duplicate: false,
        };
      }
      // Another instance wrote first (stale), or the stepId is in the log already (duplicate): read what was written.
      caughtUp = true;
      if (shared) await this.live.catchUp(live);
      if (res.status === 'duplicate') return this.duplicate(live, stepId, res.version, step);
    }
    return fail('internal', 'the match changed too often while recording; retry with the same stepId');
  }

  /**
   * The answer to a store failure: `store-damaged` when the match's stored log is damaged (permanent),
   * `store-unavailable` when the store refused (nothing written: a `StoreRefusal`, a SQLite error, or Redis
   * out of memory) or the failure came before any append (`appended` false), else
   * `outcome-unknown` (a timeout or a broken connection after the append was sent). Refusals go to `health`.
   */
  private storeFailure(err: unknown, appended: boolean): Failure {
    const message = err instanceof Error ? err.message : String(err);
    const refusal = refusalOf(err);
    if (refusal && !(err instanceof StoreRefusal) && refusal.reason !== 'damaged') this.health?.refused(refusal.reason, message, Date.now());
    const known = storeErrorOf(refusal, refusal?.reason === 'damaged' ? 'the step was not recorded' : 'nothing was recorded (retry with the same stepId)');
    if (known) return fail(known.code, known.message);
    if (!appended) return fail('store-unavailable', 'the step log could not be read: nothing was recorded; retry with the same stepId');
    return fail('outcome-unknown', `the step log did not confirm the step (${message}): it may or may not be recorded; retry with the same stepId`);
  }

  /**
   * Before refusing a step (stale, or a rules error): an stepId recorded before the kept steps is a retry
   * too, found in the store's own index. One read, on refusals only.
   */
  private async olderDuplicate(live: Live, stepId: string, step: Step): Promise<RecordResult | null> {
    const version = await this.live.storedVersionOf(live, stepId);
    return version === undefined ? null : this.duplicate(live, stepId, version, step);
  }

  /**
   * A retry of the stepId recorded at `version`: its original result (the state after it) when `retried`
   * is the recorded step, else `step-id-reused` (a fixed stepId on a Companion button must not swallow
   * every press after the first).
   */
  private async duplicate(live: Live, stepId: string, version: number, retried: Step): Promise<RecordResult> {
    const step = await this.live.stepAt(live, version);
    if (!sameJson(step, retried)) {
      return fail(
        'step-id-reused',
        `stepId: "${stepId}" was already recorded at version ${version} with a different step; nothing was recorded (give every new step a new stepId)`,
        'stepId',
      );
    }
    return { ok: true, matchId: live.id, version, state: await this.live.stateAt(live, version), step, duplicate: true };
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
