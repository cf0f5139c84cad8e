/**
 * The scorer console's controller, free of Svelte so it unit-tests with a fake client: it watches the
 * match through the shared live client, queues every step in the persistent outbox (client event id +
 * expected version), replays the outbox when the connection comes back, and turns refusals into notices.
 * Nothing counts as recorded until the server acknowledges it; meanwhile the console shows the confirmed
 * state played forward through the queued steps (`shown`, see ./projection), marked as not yet confirmed.
 */
import type { ApiError } from '../../../shared/protocol/errors';
import type { Step } from '../../../shared/protocol/steps';
import type { ConnectionStatus, LiveClient, MatchFeed } from '../lib/client';
import { Outbox, type OutboxEntry, type OutboxStorage } from '../lib/outbox';
import { ConfirmedChain, projectQueue, type ShownState } from './projection';

/** The part of the live client the console uses. */
export type ScorerClient = Pick<LiveClient, 'watch' | 'record' | 'status' | 'onStatus'>;

/** Something the scorer must read: a refusal, a stale resync, a missing match. */
export type Notice =
  | { kind: 'refused'; error: ApiError; step: Step; dropped: Step[] }
  | { kind: 'stale'; steps: Step[] }
  | { kind: 'not-found'; error: ApiError }
  | { kind: 'read-only' };

/** Everything the page renders. */
export interface SessionView {
  /** The last confirmed snapshot (server state at `feed.version`). */
  feed: MatchFeed | null;
  /**
   * What the panels and the score line follow: the confirmed state, or (queue not empty) the state the
   * queued steps lead to under the rules, with how many are projected and where the projection stopped.
   */
  shown: ShownState | null;
  status: ConnectionStatus;
  queued: readonly OutboxEntry[];
  /** The queued entry the server is answering now. */
  sending: OutboxEntry | null;
  notice: Notice | null;
  canRecord: boolean;
}

/** How often a non-empty outbox is retried while live (a lost ack, a timeout), ms. */
export const RETRY_MS = 4000;

export class ScorerSession {
  readonly outbox: Outbox;
  private feed: MatchFeed | null = null;
  /** Confirmed snapshots seen version after version (for projecting an undo of a confirmed step). */
  private readonly chain = new ConfirmedChain();
  private notice: Notice | null = null;
  private status: ConnectionStatus;
  private readonly listeners = new Set<(v: SessionView) => void>();
  private readonly stops: (() => void)[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly client: ScorerClient,
    readonly matchId: string,
    storage: OutboxStorage | null,
    /** Scorer token present: without it the console is read-only. */
    private readonly canRecord: boolean,
  ) {
    this.status = client.status;
    this.outbox = new Outbox(matchId, storage, (e) =>
      this.client.record({ matchId: e.matchId, eventId: e.eventId, expectedVersion: e.expectedVersion, step: e.step }),
    );
    if (!canRecord) this.notice = { kind: 'read-only' };
  }

  /** Start watching and sending; returns a stop function. */
  start(): () => void {
    this.stops.push(
      this.client.watch(
        this.matchId,
        (f) => {
          this.feed = f;
          this.chain.record(f.version, f.state);
          if (this.notice?.kind === 'not-found') this.notice = null;
          this.emit();
          this.kick();
        },
        (error) => {
          this.notice = { kind: 'not-found', error };
          this.emit();
        },
      ),
      this.client.onStatus((s) => {
        this.status = s;
        this.emit();
        if (s === 'live' && this.canRecord) void this.outbox.flush();
      }),
      this.outbox.onChange(() => this.emit()),
      this.outbox.on((e) => {
        if (e.kind === 'acked') {
          // The live client hands the acknowledged snapshot to `watch` itself.
        } else if (e.kind === 'refused') {
          this.notice = e.error.code === 'stale'
            ? { kind: 'stale', steps: [e.entry.step, ...e.dropped.map((d) => d.step)] }
            : { kind: 'refused', error: e.error, step: e.entry.step, dropped: e.dropped.map((d) => d.step) };
        }
        this.emit();
      }),
    );
    this.timer = setInterval(() => this.kick(), RETRY_MS);
    this.kick();
    this.emit();
    return () => this.stop();
  }

  stop(): void {
    for (const s of this.stops.splice(0)) s();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Subscribe to view changes; the callback runs at once with the current view. */
  subscribe(cb: (v: SessionView) => void): () => void {
    this.listeners.add(cb);
    cb(this.view());
    return () => this.listeners.delete(cb);
  }

  view(): SessionView {
    const f = this.feed;
    return {
      feed: f,
      shown: f ? projectQueue(f.setup, f, this.outbox.entries, this.chain) : null,
      status: this.status,
      queued: this.outbox.entries,
      sending: this.outbox.sending,
      notice: this.notice,
      canRecord: this.canRecord,
    };
  }

  /**
   * Queue a step against the table the console shows and send it. Returns the entry, or null when the
   * console is read-only or has no state yet.
   */
  submit(step: Step): OutboxEntry | null {
    if (!this.canRecord || !this.feed) return null;
    const entry = this.outbox.enqueue(step, this.feed.version);
    if (this.notice && this.notice.kind !== 'read-only') this.notice = null;
    this.emit();
    this.kick();
    return entry;
  }

  /**
   * Undo, one tap: a step the server has not seen yet is simply taken out of the outbox; otherwise an
   * `{undo: true}` step is queued like any other.
   */
  undo(): void {
    if (!this.canRecord) return;
    if (this.outbox.popUnsent()) {
      this.emit();
      return;
    }
    this.submit({ undo: true });
  }

  dismissNotice(): void {
    if (this.notice?.kind === 'read-only') return;
    this.notice = null;
    this.emit();
  }

  /** Send the outbox when there is something to send and the connection is up. */
  private kick(): void {
    if (this.canRecord && this.outbox.size > 0 && this.client.status === 'live') void this.outbox.flush();
  }

  private emit(): void {
    const v = this.view();
    for (const cb of this.listeners) cb(v);
  }
}
