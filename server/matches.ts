/**
 * The match service: the only place that decides. It keeps the current `Match` of every loaded match in
 * memory, applies each new step incrementally (the log is replayed only on load), serialises all work on
 * one match through a promise chain, and writes through the store's compare-and-append. When several
 * instances share the store, a refused append (another instance wrote first) makes it catch up from the
 * log and re-decide, or answer `stale` when the client named a version.
 */
import type { Logger } from 'pino';
import {
  applyStep,
  newMatch,
  parseSetup,
  parseStep,
  replay,
  RulesError,
  statsOf,
  view,
  type ApiError,
  type ErrorCode,
  type Match,
  type MatchSetup,
  type MatchState,
  type MatchSummary,
  type Snapshot,
  type StatePush,
  type Step,
} from '../shared/index';
import type { MatchStore, MatchRecord, StoredEvent } from './store/types';
import { sameJson } from './canonical';
import { hashToken, newMatchId, newScorerToken, tokenMatches } from './tokens';

/** A refusal: the wire error, plus the current version for `stale`. */
export type Failure = { ok: false; error: ApiError; currentVersion?: number };
/** Result of `record`: the snapshot after the step (or after the original step, for a retried eventId with the same step). */
export type RecordResult = { ok: true; snapshot: Snapshot; step: Step; duplicate: boolean } | Failure;

/** A match held in memory. `events.length` is its version. */
interface Live {
  id: string;
  record: MatchRecord;
  match: Match;
  events: StoredEvent[];
  eventIds: Map<string, number>;
  chain: Promise<unknown>;
  pendingRefresh: Promise<void> | null;
  snap: Snapshot | null;
  touched: number;
}

export interface MatchServiceOptions {
  store: MatchStore;
  log: Logger;
  /** Called after every newly appended step (in version order per match, just after the ack); the caller fans it out. */
  onAppended: (push: StatePush) => void;
  /** True when other instances may write the same store (Redis): reads and refusals check the log first. */
  shared: boolean;
  /** An append that takes longer fails with `internal` (the client retries with the same eventId). Default 5 s. */
  appendTimeoutMs?: number;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_ATTEMPTS = 5;

export function fail(code: ErrorCode, message: string, field?: string): Failure {
  return { ok: false, error: field === undefined ? { code, message } : { code, message, field } };
}

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
  private readonly lives = new Map<string, Promise<Live | null>>();
  private readonly store: MatchStore;
  private readonly log: Logger;
  private readonly onAppended: (push: StatePush) => void;
  private readonly shared: boolean;
  private readonly appendTimeoutMs: number;

  constructor(opts: MatchServiceOptions) {
    this.store = opts.store;
    this.log = opts.log;
    this.onAppended = opts.onAppended;
    this.shared = opts.shared;
    this.appendTimeoutMs = opts.appendTimeoutMs ?? 5000;
  }

  /**
   * Create a match from an untrusted set-up.
   * @returns the new id, the scorer token (shown once; only its hash is stored) and the snapshot at version 0.
   * @throws RulesError `invalid-setup` naming the field.
   */
  async create(input: unknown): Promise<{ id: string; scorerToken: string; setup: MatchSetup; snapshot: Snapshot }> {
    const setup = parseSetup(input);
    const match = newMatch(setup);
    const id = newMatchId();
    const scorerToken = newScorerToken();
    const now = Date.now();
    const record: MatchRecord = { id, setup, tokenHash: hashToken(scorerToken), createdAt: now };
    const snapshot: Snapshot = { matchId: id, version: 0, state: view(match), stats: statsOf(match) };
    await this.store.create(record, { summary: summaryOf(id, snapshot.state, 0, now), state: snapshot.state });
    const live: Live = { id, record, match, events: [], eventIds: new Map(), chain: Promise.resolve(), pendingRefresh: null, snap: snapshot, touched: now };
    this.lives.set(id, Promise.resolve(live));
    this.log.info({ matchId: id, discipline: setup.discipline }, 'match created');
    return { id, scorerToken, setup, snapshot };
  }

  /** Set-up and latest snapshot of a match, or null when unknown. */
  async current(id: string): Promise<{ setup: MatchSetup; snapshot: Snapshot } | null> {
    const live = await this.fresh(id);
    return live ? { setup: live.record.setup, snapshot: this.snapshotOf(live) } : null;
  }

  /** The whole log (versions 1…n) and the current match, or null when unknown. */
  async events(id: string): Promise<{ version: number; events: StoredEvent[]; match: Match } | null> {
    const live = await this.fresh(id);
    return live ? { version: live.events.length, events: live.events.slice(), match: live.match } : null;
  }

  /**
   * Whether `token` may record for match `id` (the scorer console's check as it opens): true or false, null
   * when the match is unknown. Compares hashes in constant time; reveals neither the token nor its hash.
   */
  async tokenValid(id: string, token: unknown): Promise<boolean | null> {
    const live = await this.get(id);
    return live ? tokenMatches(token, live.record.tokenHash) : null;
  }

  /** Latest summaries, newest first. */
  list(limit = 100): Promise<MatchSummary[]> {
    return this.store.list(limit);
  }

  /**
   * Record one step for match `id` on behalf of the holder of `token`.
   * Refusals: `not-found` (matchId), `unauthorized` (no token), `forbidden` (wrong token), `invalid-step`
   * (field), `stale` (+ currentVersion), `event-id-reused` (the eventId is already in the log with another
   * step: nothing is appended), the engine's rules codes, `internal` (store unavailable; retry with the same
   * eventId). A retried eventId with the same step (compared as canonical JSON, key order aside) returns the
   * original result with `duplicate: true`, also when another instance recorded it.
   */
  async record(id: string, token: unknown, req: { eventId: string; expectedVersion?: number; step: unknown }): Promise<RecordResult> {
    const live = await this.get(id);
    if (!live) return fail('not-found', `matchId: no match "${id}"`, 'matchId');
    if (token === undefined || token === null || token === '') return fail('unauthorized', 'a scorer token is required to record', 'token');
    if (!tokenMatches(token, live.record.tokenHash)) return fail('forbidden', 'this token may not record for this match', 'token');
    let step: Step;
    try {
      step = parseStep(req.step);
    } catch (err) {
      if (err instanceof RulesError) return { ok: false, error: err.toJSON() };
      throw err;
    }
    return this.serial(live, () => this.recordLocked(live, req.eventId, req.expectedVersion, step)).catch((err: Error) => {
      this.log.error({ matchId: id, err: err.message }, 'record failed');
      return fail('internal', 'the event log is unavailable; retry with the same eventId');
    });
  }

  /**
   * After the fan-out was interrupted: bring each given loaded match up to the store's latest version and
   * return its push (latest state and the step that made it), for matches past version 0.
   */
  async resync(ids: Iterable<string>): Promise<StatePush[]> {
    const pushes: StatePush[] = [];
    for (const id of ids) {
      const p = this.lives.get(id);
      const live = p && (await p.catch(() => null));
      if (!live) continue;
      await this.refresh(live);
      if (live.events.length === 0) continue;
      pushes.push({ ...this.snapshotOf(live), step: live.events[live.events.length - 1]!.step });
    }
    return pushes;
  }

  /** Forget matches untouched for `idleMs` that `keep` does not claim (e.g. still watched). */
  evictIdle(idleMs: number, keep: (id: string) => boolean): void {
    const cutoff = Date.now() - idleMs;
    for (const [id, p] of this.lives) {
      void p.then((live) => {
        if (live && live.touched < cutoff && !keep(id) && this.lives.get(id) === p) this.lives.delete(id);
      }, () => undefined);
    }
  }

  /** Wait for every queued operation (graceful shutdown). */
  async drain(): Promise<void> {
    const lives = await Promise.all([...this.lives.values()].map((p) => p.catch(() => null)));
    await Promise.allSettled(lives.map((l) => l?.chain));
  }

  private async recordLocked(live: Live, eventId: string, expected: number | undefined, step: Step): Promise<RecordResult> {
    let caughtUp = false;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const dup = live.eventIds.get(eventId);
      if (dup !== undefined) return this.duplicate(live, eventId, dup, step);
      const version = live.events.length;
      if (expected !== undefined && expected !== version) {
        if (this.shared && !caughtUp) {
          caughtUp = true;
          await this.catchUp(live);
          continue;
        }
        return {
          ok: false,
          error: { code: 'stale', message: `expectedVersion: the match is at version ${version}, not ${expected}`, field: 'expectedVersion' },
          currentVersion: version,
        };
      }
      const applied = applyStep(live.match, step);
      if (!applied.ok) {
        if (this.shared && !caughtUp) {
          caughtUp = true;
          if (await this.catchUp(live)) continue;
        }
        return { ok: false, error: applied.error.toJSON() };
      }
      const at = Date.now();
      const snapshot: Snapshot = { matchId: live.id, version: version + 1, state: view(applied.match), stats: statsOf(applied.match) };
      const event: StoredEvent = { eventId, step, at };
      let res;
      try {
        res = await withTimeout(
          this.store.append(live.id, version, event, { summary: summaryOf(live.id, snapshot.state, version + 1, at), state: snapshot.state }),
          this.appendTimeoutMs,
        );
      } catch (err) {
        this.log.error({ matchId: live.id, err: (err as Error).message }, 'append failed');
        return fail('internal', 'the event log is unavailable; retry with the same eventId');
      }
      if (res.status === 'ok') {
        live.match = applied.match;
        live.events.push(event);
        live.eventIds.set(eventId, res.version);
        live.snap = snapshot;
        live.touched = at;
        // Fan out right after the caller's ack went out (acks are answered in this microtask run; pushes
        // leave in the check phase, in append order), so the scorer's round trip does not wait for N viewers.
        const push: StatePush = { ...snapshot, step };
        setImmediate(() => this.onAppended(push));
        return { ok: true, snapshot, step, duplicate: false };
      }
      // Another instance wrote first (stale) or already holds this eventId (duplicate): read what it wrote.
      caughtUp = true;
      await this.catchUp(live);
    }
    return fail('internal', 'the match changed too often while recording; retry with the same eventId');
  }

  /**
   * A retry of the eventId recorded at `version`: its original result when `step` is the recorded step,
   * else `event-id-reused` (a fixed eventId on a Companion button must not swallow every press after the first).
   */
  private duplicate(live: Live, eventId: string, version: number, retried: Step): RecordResult {
    const step = live.events[version - 1]!.step;
    if (!sameJson(step, retried)) {
      return fail(
        'event-id-reused',
        `eventId: "${eventId}" was already recorded at version ${version} with a different step; nothing was recorded (give every new step a new eventId)`,
        'eventId',
      );
    }
    if (version === live.events.length) return { ok: true, snapshot: this.snapshotOf(live), step, duplicate: true };
    const m = replay(live.record.setup, live.events.slice(0, version).map((e) => e.step));
    return { ok: true, snapshot: { matchId: live.id, version, state: view(m), stats: statsOf(m) }, step, duplicate: true };
  }

  private snapshotOf(live: Live): Snapshot {
    const version = live.events.length;
    if (live.snap?.version !== version) {
      live.snap = { matchId: live.id, version, state: view(live.match), stats: statsOf(live.match) };
    }
    return live.snap;
  }

  /** A loaded match brought up to the store's latest version (shared stores only). */
  private async fresh(id: string): Promise<Live | null> {
    const live = await this.get(id);
    if (live && this.shared) await this.refresh(live);
    return live;
  }

  /** One catch-up shared by every caller that asks before it starts. */
  private refresh(live: Live): Promise<void> {
    if (live.pendingRefresh) return live.pendingRefresh;
    const p = this.serial(live, async () => {
      live.pendingRefresh = null;
      await this.catchUp(live);
    });
    live.pendingRefresh = p;
    return p;
  }

  /** Apply the steps other instances appended. @returns true when the match advanced. */
  private async catchUp(live: Live): Promise<boolean> {
    const events = await this.store.eventsSince(live.id, live.events.length);
    if (events.length === 0) return false;
    let match = live.match;
    for (const [i, e] of events.entries()) {
      const r = applyStep(match, e.step);
      if (!r.ok) throw new Error(`match ${live.id}: log step ${live.events.length + i + 1} does not replay: ${r.error.message}`);
      match = r.match;
    }
    for (const e of events) {
      live.events.push(e);
      live.eventIds.set(e.eventId, live.events.length);
    }
    live.match = match;
    live.touched = Date.now();
    return true;
  }

  private get(id: string): Promise<Live | null> {
    if (!SAFE_ID.test(id)) return Promise.resolve(null);
    let p = this.lives.get(id);
    if (!p) {
      p = this.load(id);
      this.lives.set(id, p);
      const mine = p;
      p.then(
        (live) => {
          if (!live && this.lives.get(id) === mine) this.lives.delete(id);
        },
        () => {
          if (this.lives.get(id) === mine) this.lives.delete(id);
        },
      );
    }
    return p;
  }

  private async load(id: string): Promise<Live | null> {
    const loaded = await this.store.load(id);
    if (!loaded) return null;
    const match = replay(loaded.record.setup, loaded.events.map((e) => e.step));
    const eventIds = new Map(loaded.events.map((e, i) => [e.eventId, i + 1] as const));
    return { id, record: loaded.record, match, events: loaded.events, eventIds, chain: Promise.resolve(), pendingRefresh: null, snap: null, touched: Date.now() };
  }

  /** Run `task` after every earlier task on the same match; a failed task does not block the next. */
  private serial<T>(live: Live, task: () => Promise<T>): Promise<T> {
    const next = live.chain.then(task, task);
    live.chain = next.catch(() => undefined);
    return next;
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
