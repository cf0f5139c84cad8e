/**
 * The scorer console's controller, free of Svelte so it unit-tests with a fake client: it watches the
 * match through the shared live client, queues every step in the persistent outbox (client step id +
 * expected version), replays the outbox when the connection comes back, and turns refusals into notices.
 * Nothing counts as recorded until the server acknowledges it; meanwhile the console shows the confirmed
 * state played forward through the queued steps (`shown`, see ./projection), marked as not yet confirmed.
 *
 * Reloaded while the server is unreachable, it starts from the last confirmed snapshot cached in the
 * browser (./feed-cache) until the server answers, so the scorer keeps scoring. It says "offline" as soon
 * as the browser reports no network or a record goes unanswered, even while the socket still looks
 * connected, and retries at once when the network comes back or the page becomes visible again.
 *
 * The scorer token is checked with the server as the console opens (./token-gate): a wrong or missing token
 * makes the console read-only with the reason and a paste field; steps queued under a token the server then
 * refuses are held in the outbox (not dropped) until a valid token is given or the scorer discards them.
 *
 * A refused subscription is a `problem` (../lib/live-problem): the match is not found, the page is from
 * another build (`protocol-mismatch`, also heard from a refused record: "reload the page", and nothing is
 * sent until then; the outbox keeps the steps for the reloaded page), or the server is busy or failing
 * (the client asks again by itself; "Retry now" asks at once).
 */
import type { ApiError } from '../../../shared/protocol/errors';
import type { MatchSetup } from '../../../shared/protocol/setup';
import type { MatchState, Outcome } from '../../../shared/protocol/state';
import type { Step } from '../../../shared/protocol/steps';
import type { ConnectionStatus, LiveClient, MatchFeed } from '../lib/client';
import { liveProblem, type LiveProblem } from '../lib/live-problem';
import { Outbox, type OutboxEntry, type OutboxStorage } from '../lib/outbox';
import { TokenGate, type TokenAccess, type TokenView } from './token-gate';
import { clearFeed, loadFeed, saveFeed } from './feed-cache';
import { ALWAYS_ONLINE, type NetworkSignals } from './network';
import { ConfirmedChain, projectQueue, type ShownState, type StepResult } from './projection';

/**
 * The part of the live client the console uses. `reconnect` (drop the connection and connect again now,
 * skipping the reconnection backoff) is used when the client has it.
 */
export type ScorerClient = Pick<LiveClient, 'watch' | 'record' | 'status' | 'onStatus'> & Partial<Pick<LiveClient, 'reconnect' | 'retry'>>;

/** A step in a notice, with what the rules made of it when the console projected it (null: not projected). */
export interface NoticeItem {
  step: Step;
  result: StepResult | null;
}

/** Something the scorer must read: a refused step, a stale resync. (No token: see `token`; no match: `problem`.) */
export type Notice =
  { kind: 'refused'; error: ApiError; step: Step; dropped: Step[]; items: NoticeItem[] } | { kind: 'stale'; steps: Step[]; items: NoticeItem[] };

/** The confirmed table the console builds on: this session's server snapshot, or the cached one. */
export interface ConsoleBase {
  version: number;
  setup: MatchSetup;
  state: MatchState;
  /** The outcomes of the server's last few steps, newest last (the console words them). */
  recent: readonly Outcome[];
}

/** Why the console says "offline": the socket is down, the browser has no network, or a record went unanswered. */
export type OfflineReason = 'socket' | 'network' | 'no-answer';

/** Everything the page renders. */
export interface SessionView {
  /** The last confirmed snapshot received from the server in this session (null until it answers). */
  feed: MatchFeed | null;
  /** What the console builds on: `feed`, or before the server answers, the snapshot cached in the browser. */
  base: ConsoleBase | null;
  /** Set while `base` is the cached snapshot (the server has not answered yet): when it was saved. */
  cached: { savedAt: number } | null;
  /**
   * What the panels and the score line follow: the confirmed state, or (queue not empty) the state the
   * queued steps lead to under the rules, with how many are projected and where the projection stopped.
   */
  shown: ShownState | null;
  /** The connection as the scorer should read it: 'offline' also when the network is gone or a record went unanswered. */
  status: ConnectionStatus;
  offlineReason: OfflineReason | null;
  queued: readonly OutboxEntry[];
  /** What each queued step did in the projection (by step id), for describing it in the engine's words. */
  results: ReadonlyMap<string, StepResult>;
  /** The queued entry the server is answering now. */
  sending: OutboxEntry | null;
  notice: Notice | null;
  /** The server refused the subscription (not found, another build, busy…); cleared by the next snapshot. */
  problem: LiveProblem | null;
  /** Steps may be entered: the token is valid, being checked, or not checkable yet (see `token`). */
  canRecord: boolean;
  /** Queued steps may be sent (false while the token is being checked, missing or wrong: they are held). */
  canSend: boolean;
  /** The scorer token: missing / checking / valid / unverified / wrong, and the paste field's last result. */
  token: TokenView;
}

/** How often a non-empty outbox is retried while live (a lost ack, a timeout), ms. */
export const RETRY_MS = 4000;
/** How long a record waits for the server's ack before it counts as unanswered (the client's default), ms. */
export const RECORD_TIMEOUT_MS = 5000;

export class ScorerSession {
  readonly outbox: Outbox;
  private feed: MatchFeed | null = null;
  private cached: (ConsoleBase & { savedAt: number }) | null;
  /** Confirmed snapshots seen version after version (for projecting an undo of a confirmed step). */
  private readonly chain = new ConfirmedChain();
  /** Latest projected result of each queued entry, by step id (kept while the entry is queued). */
  private results = new Map<string, StepResult>();
  private notice: Notice | null = null;
  private problem: LiveProblem | null = null;
  private status: ConnectionStatus;
  private networkUp: boolean;
  /** A record went unanswered within the timeout and nothing has been heard from the server since. */
  private unanswered = false;
  private readonly listeners = new Set<(v: SessionView) => void>();
  private readonly stops: (() => void)[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly gate: TokenGate;

  constructor(
    private readonly client: ScorerClient,
    readonly matchId: string,
    private readonly storage: OutboxStorage | null,
    /**
     * The scorer token: the page's access (checked as the console opens), or `true` / `false` for a token
     * already known valid / none (the console is then read-only).
     */
    token: TokenAccess | boolean,
    private readonly network: NetworkSignals = ALWAYS_ONLINE,
  ) {
    this.status = client.status;
    this.networkUp = network.online();
    this.outbox = new Outbox(matchId, storage, (e) =>
      this.client.record({ matchId: e.matchId, stepId: e.stepId, expectedVersion: e.expectedVersion, step: e.step }, RECORD_TIMEOUT_MS),
    );
    const c = loadFeed(storage, matchId);
    this.cached = c ? { version: c.version, setup: c.setup, state: c.state, recent: c.recent, savedAt: c.savedAt } : null;
    if (c) this.chain.record(c.version, c.state);
    this.gate = new TokenGate(token, () => {
      this.emit();
      this.kick();
    });
  }

  /** Start watching and sending; returns a stop function. */
  start(): () => void {
    this.stops.push(
      this.client.watch(
        this.matchId,
        (f) => {
          this.feed = f;
          this.cached = null;
          this.unanswered = false; // the server is talking to us
          this.chain.record(f.version, f.state);
          saveFeed(this.storage, f);
          this.problem = null;
          this.gate.serverAnswered();
          this.emit();
          this.kick();
        },
        (error) => {
          this.problem = liveProblem(error);
          if (error.code === 'not-found') {
            // Nothing to score against: forget the cached table (the outbox stays, untouched).
            this.cached = null;
            clearFeed(this.storage, this.matchId);
          }
          this.emit();
        },
      ),
      this.client.onStatus((s) => {
        this.status = s;
        if (s === 'live') this.unanswered = false; // a fresh connection
        this.emit();
        this.kick();
      }),
      this.network.on((e) => {
        this.networkUp = e === 'offline' ? false : this.network.online();
        this.emit();
        if (e !== 'offline') this.retryNow();
      }),
      this.outbox.onChange(() => this.emit()),
      this.outbox.on((e) => {
        if (e.kind === 'acked') {
          // The live client hands the acknowledged snapshot to `watch` itself.
          this.unanswered = false;
        } else if (e.kind === 'unsent') {
          if (e.reason === 'timeout') this.unanswered = true;
          if (e.reason === 'protocol-mismatch')
            this.problem = liveProblem({ code: 'protocol-mismatch', message: 'this page is from another version of cuecast: reload the page' });
        } else if (e.kind === 'held') {
          this.gate.refused(); // the steps stay queued until a valid token
        } else {
          const items = [e.entry, ...e.dropped].map((x) => ({ step: x.step, result: this.results.get(x.stepId) ?? null }));
          this.notice =
            e.error.code === 'stale'
              ? { kind: 'stale', steps: items.map((x) => x.step), items }
              : { kind: 'refused', error: e.error, step: e.entry.step, dropped: e.dropped.map((d) => d.step), items };
        }
        this.emit();
      }),
    );
    this.timer = setInterval(() => this.kick(), RETRY_MS);
    this.gate.start();
    this.kick();
    this.emit();
    return () => this.stop();
  }

  stop(): void {
    for (const s of this.stops.splice(0)) s();
    this.gate.stop();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Subscribe to view changes; the callback runs at once with the current view. */
  subscribe(cb: (v: SessionView) => void): () => void {
    this.listeners.add(cb);
    cb(this.view());
    return () => this.listeners.delete(cb);
  }

  /** The confirmed table steps are entered against: the server's snapshot, else the cached one. */
  private base(): ConsoleBase | null {
    const f = this.feed;
    if (f) return { version: f.version, setup: f.setup, state: f.state, recent: f.stats.recent };
    return this.cached;
  }

  view(): SessionView {
    const base = this.base();
    const entries = this.outbox.entries;
    const shown = base ? projectQueue(base.setup, base, entries, this.chain) : null;
    if (shown) {
      // Entries the snapshot already holds keep the words they were shown with; the others get fresh ones.
      const next = new Map<string, StepResult>();
      const pending = entries.filter((e) => e.expectedVersion >= base!.version);
      shown.results.forEach((r, i) => {
        const e = pending[i]!;
        next.set(e.stepId, r);
      });
      for (const e of entries) if (!next.has(e.stepId) && this.results.has(e.stepId)) next.set(e.stepId, this.results.get(e.stepId)!);
      this.results = next;
    }
    const down = !this.networkUp ? 'network' : this.status === 'live' && this.unanswered ? 'no-answer' : this.status === 'offline' ? 'socket' : null;
    return {
      feed: this.feed,
      base,
      cached: !this.feed && this.cached ? { savedAt: this.cached.savedAt } : null,
      shown,
      status: down ? 'offline' : this.status,
      offlineReason: down,
      queued: entries,
      results: this.results,
      sending: this.outbox.sending,
      notice: this.notice,
      problem: this.problem,
      canRecord: this.gate.canEnter,
      canSend: this.gate.canSend,
      token: this.gate.view(),
    };
  }

  /**
   * Queue a step against the table the console shows and send it. Returns the entry, or null when the
   * console is read-only or knows no table yet (neither a snapshot nor a cached one).
   */
  submit(step: Step): OutboxEntry | null {
    const base = this.base();
    if (!this.gate.canEnter || !base) return null;
    const entry = this.outbox.enqueue(step, base.version);
    this.notice = null;
    this.emit();
    this.kick();
    return entry;
  }

  /**
   * Undo, one tap: a step the server has not seen yet is simply taken out of the outbox; otherwise an
   * `{undo: true}` step is queued like any other.
   */
  undo(): void {
    if (!this.gate.canEnter) return;
    if (this.outbox.popUnsent()) {
      this.emit();
      return;
    }
    this.submit({ undo: true });
  }

  /**
   * Try to send now (the network is back, the page is visible again, or the scorer tapped "retry now"):
   * when the connection is down or a record went unanswered, ask the client to reconnect at once (if it
   * can); stop waiting for the attempt in flight and send the outbox again from its oldest entry.
   */
  retryNow(): void {
    if (!this.gate.canSend || !this.networkUp || this.outbox.size === 0) return;
    if (this.unanswered || this.client.status !== 'live') this.client.reconnect?.();
    // The attempt in flight may have gone out on a dead connection: send it again now (same step id).
    this.outbox.resendNow();
    this.kick();
  }

  /** Ask the server again now for the refused subscription ("Retry now"). */
  retrySubscribe(): void {
    this.client.retry?.(this.matchId);
  }

  dismissNotice(): void {
    this.notice = null;
    this.emit();
  }

  /**
   * A token pasted by the scorer (or a whole scorer link): checked with the server, kept only when valid
   * (the page then reopens with it); otherwise `token.paste` says why. See ./token-gate.
   */
  offerToken(text: string): Promise<void> {
    return this.gate.offer(text);
  }

  /**
   * Discard the steps held for want of a valid token (read-only console only; the scorer chose to).
   * Returns how many were dropped.
   */
  discardHeld(): number {
    if (this.gate.canEnter) return 0;
    const n = this.outbox.discardUnsent().length;
    this.emit();
    return n;
  }

  /** Send the outbox when there is something to send, the browser has a network and the connection is up. */
  private kick(): void {
    if (this.problem?.kind === 'reload') return; // every record would be refused the same way: wait for the reload
    if (this.gate.canSend && this.networkUp && this.outbox.size > 0 && this.client.status === 'live') void this.outbox.flush();
  }

  private emit(): void {
    const v = this.view();
    for (const cb of this.listeners) cb(v);
  }
}
