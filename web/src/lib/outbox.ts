/**
 * The scorer's outbox: every step gets a client-chosen step id (`stepId`) and the version it expects, is persisted in the
 * browser before it is sent, and leaves the outbox only when the server answered it. Offline, steps queue
 * (they survive a reload); on reconnect they replay in order with the same ids, so the server's duplicate
 * check (same `stepId`) makes a retry after a lost ack harmless. A refusal — `stale` (another scorer
 * recorded first) or a rules error — drops the refused step and every step queued after it (they were
 * entered against a table that no longer exists) and reports them; nothing is ever overwritten. A
 * `protocol-mismatch` (the page is from another build than the server) judged nothing: the steps stay
 * queued, reported `unsent`, for the reloaded page to send. A refusal of the scorer token (`unauthorized`,
 * `forbidden`) is not a verdict on the steps either: they stay queued, in order, and the outbox stops sending
 * (`held`) until the console has a valid token and flushes again.
 *
 * Plain TypeScript (no DOM beyond an injected `Storage`-like object) so it unit-tests under vitest.
 */
import type { ApiError } from '../../../shared/protocol/errors';
import type { Step } from '../../../shared/protocol/steps';
import type { RecordAck } from '../../../shared/protocol/wire';

/** One step waiting for the server's answer. `expectedVersion` = log length the step was entered against. */
export interface OutboxEntry {
  matchId: string;
  /** The step's idempotency key (saved as `eventId` by pages before protocol 4; `load` reads both). */
  stepId: string;
  expectedVersion: number;
  step: Step;
  /** ms since epoch when the scorer entered it (display only). */
  queuedAt: number;
}

/** The part of `localStorage` the outbox uses. */
export interface OutboxStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Sends one entry; resolves with the server's ack, rejects `Error('offline' | 'timeout')` when unanswered. */
export type OutboxSender = (entry: OutboxEntry) => Promise<RecordAck>;

/** What happened to queued steps, for the console to tell the scorer. */
export type OutboxNotice =
  | { kind: 'acked'; entry: OutboxEntry; ack: Extract<RecordAck, { ok: true }> }
  /** The server refused `entry`; `dropped` are the steps queued after it, discarded unsent. */
  | { kind: 'refused'; entry: OutboxEntry; error: ApiError; currentVersion?: number; dropped: OutboxEntry[] }
  /** Not answered (offline or timeout): the entry stays queued and is retried with the same id. */
  | { kind: 'unsent'; entry: OutboxEntry; reason: string }
  /** The server refused the scorer token: `entry` and every step after it stay queued, nothing is dropped. */
  | { kind: 'held'; entry: OutboxEntry; error: ApiError };

/** True for a refusal of the token rather than of the step (`unauthorized`: none, `forbidden`: wrong). */
export function isTokenRefusal(error: ApiError): boolean {
  return error.code === 'unauthorized' || error.code === 'forbidden';
}

/**
 * Answers about the store, not the step (server/matches/service.ts): `outcome-unknown` (the store did not confirm:
 * the step may be recorded) and `store-unavailable` (the store refused: nothing recorded). The step stays queued
 * and is sent again with the same event id, which the server records once.
 */
export const STORE_RETRY_CODES: readonly ApiError['code'][] = ['outcome-unknown', 'store-unavailable'];

/** localStorage key of a match's outbox. */
export const outboxKey = (matchId: string) => `cuecast.outbox.${matchId}`;

/** A fresh step id (crypto.randomUUID where available). */
export function newStepId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  return `ev-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/**
 * Persistent, ordered outbox of one match. Only one entry is in flight at a time, so the server sees the
 * steps in the order they were entered.
 */
export class Outbox {
  private items: OutboxEntry[];
  private inFlight: OutboxEntry | null = null;
  private flushing: Promise<void> | null = null;
  private again = false;
  /** Stops waiting for the answer to the entry in flight (see `resendNow`). */
  private abandon: (() => void) | null = null;
  /** Highest version the server confirmed through this outbox (acks may arrive before the state push). */
  private ackedVersion = -1;
  private readonly listeners = new Set<(e: OutboxNotice) => void>();
  private readonly changeListeners = new Set<() => void>();

  constructor(
    readonly matchId: string,
    private readonly storage: OutboxStorage | null,
    private readonly send: OutboxSender,
  ) {
    this.items = this.load();
  }

  /** Queued entries, oldest first (including the one in flight). */
  get entries(): readonly OutboxEntry[] {
    return this.items;
  }

  get size(): number {
    return this.items.length;
  }

  /** The entry currently awaiting an answer, if any. */
  get sending(): OutboxEntry | null {
    return this.inFlight;
  }

  /**
   * Queue a step entered against the table at `confirmedVersion` (the version the console shows).
   * Its expected version follows the steps already queued. Persists before returning.
   */
  enqueue(step: Step, confirmedVersion: number, now = Date.now()): OutboxEntry {
    const last = this.items[this.items.length - 1];
    const expectedVersion = last ? last.expectedVersion + 1 : Math.max(confirmedVersion, this.ackedVersion);
    const entry: OutboxEntry = { matchId: this.matchId, stepId: newStepId(), expectedVersion, step, queuedAt: now };
    this.items = [...this.items, entry];
    this.save();
    return entry;
  }

  /**
   * Remove the newest entry if it has not been sent yet (an undo of a step the server never saw).
   * Returns it, or null when the newest entry is in flight or the outbox is empty.
   */
  popUnsent(): OutboxEntry | null {
    const last = this.items[this.items.length - 1];
    if (!last || last === this.inFlight) return null;
    this.items = this.items.slice(0, -1);
    this.save();
    return last;
  }

  /**
   * Drop every entry not in flight (the scorer discards steps held for want of a valid token). Returns them,
   * oldest first. The entry in flight, if any, stays: its answer is still to come.
   */
  discardUnsent(): OutboxEntry[] {
    const gone = this.items.filter((x) => x !== this.inFlight);
    if (gone.length === 0) return [];
    this.items = this.inFlight ? [this.inFlight] : [];
    this.save();
    this.changed();
    return gone;
  }

  /**
   * Stop waiting for the answer to the entry in flight and send it again now, with the same event id (the
   * connection it went out on may be dead: the network came back, the page became visible again). A late
   * answer to the abandoned attempt is ignored; the server's duplicate check makes the second copy harmless.
   * Does nothing when nothing is in flight.
   */
  resendNow(): void {
    this.abandon?.();
  }

  /** Subscribe to acks and refusals. Returns an unsubscribe function. */
  on(cb: (e: OutboxNotice) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  /** Subscribe to any change of the queue. */
  onChange(cb: () => void): () => void {
    this.changeListeners.add(cb);
    return () => this.changeListeners.delete(cb);
  }

  /**
   * Send queued entries in order until the outbox is empty or one goes unanswered. Concurrent calls share
   * one run. Resolves when the run stops; never rejects.
   */
  flush(): Promise<void> {
    if (this.flushing) {
      // A run in progress may already have given up (offline); run once more after it.
      this.again = true;
      return this.flushing;
    }
    // `flushing` is set before the run sends anything: a sender that answers synchronously (and a state push
    // that calls flush() from inside it) joins this run instead of starting a second one.
    let done!: () => void;
    this.flushing = new Promise<void>((resolve) => (done = resolve));
    void (async () => {
      try {
        do {
          this.again = false;
          await this.run();
        } while (this.again && this.items.length > 0);
      } finally {
        this.flushing = null;
        done();
      }
    })();
    return this.flushing;
  }

  private async run(): Promise<void> {
    for (;;) {
      const entry = this.items[0];
      if (!entry) return;
      this.inFlight = entry;
      this.changed();
      const answer = this.send(entry).then(
        (ack) => ({ ack }),
        (e: unknown) => ({ reason: e instanceof Error ? e.message : String(e) }),
      );
      const abandoned = new Promise<null>((resolve) => (this.abandon = () => resolve(null)));
      const r = await Promise.race([answer, abandoned]);
      this.abandon = null;
      if (r === null) continue; // resendNow(): the same entry goes out again
      if ('reason' in r) {
        this.inFlight = null;
        this.changed();
        this.emit({ kind: 'unsent', entry, reason: r.reason });
        return;
      }
      const ack = r.ack;
      this.inFlight = null;
      if (!ack.ok && ack.error.code === 'protocol-mismatch') {
        // The server speaks another protocol version and judged nothing: keep this step and the ones after
        // it for the reloaded page, which replays them with the same event ids.
        this.changed();
        this.emit({ kind: 'unsent', entry, reason: 'protocol-mismatch' });
        return;
      }
      if (!ack.ok && STORE_RETRY_CODES.includes(ack.error.code)) {
        this.changed();
        this.emit({ kind: 'unsent', entry, reason: ack.error.code });
        return;
      }
      if (ack.ok) {
        this.ackedVersion = Math.max(this.ackedVersion, ack.version);
        this.items = this.items.filter((x) => x.stepId !== entry.stepId);
        this.save();
        this.emit({ kind: 'acked', entry, ack });
      } else if (isTokenRefusal(ack.error)) {
        this.emit({ kind: 'held', entry, error: ack.error });
        return;
      } else {
        const dropped = this.items.filter((x) => x.stepId !== entry.stepId);
        this.items = [];
        this.save();
        const refused: OutboxNotice = { kind: 'refused', entry, error: ack.error, dropped };
        if (ack.currentVersion !== undefined) refused.currentVersion = ack.currentVersion;
        this.emit(refused);
        return;
      }
    }
  }

  private emit(e: OutboxNotice): void {
    for (const cb of this.listeners) cb(e);
    this.changed();
  }

  private changed(): void {
    for (const cb of this.changeListeners) cb();
  }

  private load(): OutboxEntry[] {
    if (!this.storage) return [];
    try {
      const raw = this.storage.getItem(outboxKey(this.matchId));
      if (!raw) return [];
      const parsed: unknown = JSON.parse(raw);
      if (!Array.isArray(parsed)) return [];
      return parsed.map(toEntry).filter((e): e is OutboxEntry => e !== null && e.matchId === this.matchId);
    } catch {
      return [];
    }
  }

  private save(): void {
    if (!this.storage) return;
    const key = outboxKey(this.matchId);
    if (this.items.length === 0) this.storage.removeItem(key);
    else this.storage.setItem(key, JSON.stringify(this.items));
  }
}

/**
 * A saved entry, or null when it is not one. An entry saved by a page of protocol 3 names its step id
 * `eventId`: it is read as `stepId`, so steps queued before an upgrade are still sent after the reload.
 */
function toEntry(x: unknown): OutboxEntry | null {
  if (!x || typeof x !== 'object') return null;
  const { eventId, ...e } = x as Record<string, unknown>;
  const stepId = e.stepId ?? eventId;
  const ok =
    typeof e.matchId === 'string' && typeof stepId === 'string' && typeof e.expectedVersion === 'number' && typeof e.step === 'object' && e.step !== null;
  return ok ? ({ ...e, stepId } as unknown as OutboxEntry) : null;
}
