/**
 * Test doubles for the scorer console's controller: an in-memory `Storage`, and a live client backed by the
 * real rules engine (one match on a fake server). The client can be unreachable (the server never answers
 * `subscribe`, as after a reload without network), can leave records unanswered (a dead socket that still
 * looks connected), and counts `reconnect()` calls.
 */
import { applyStep, newMatch, statsOf, view, type Match } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { RecordAck } from '../../shared/protocol/wire';
import type { ConnectionStatus, MatchFeed } from '../../web/src/lib/client';
import type { NetworkEvent, NetworkSignals } from '../../web/src/scorer/network';
import type { ScorerClient } from '../../web/src/scorer/session';

export class MemStorage {
  readonly m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
}

/** One match on a fake server with the real engine; the client pushes every new version to watchers. */
export class FakeClient implements ScorerClient {
  status: ConnectionStatus = 'live';
  match: Match;
  version = 0;
  ids = new Set<string>();
  /** Every record request that reached the server, in order. */
  received: { stepId: string; expectedVersion?: number }[] = [];
  /** The server answers `subscribe` (false: watchers hear nothing until `answer()`). */
  reachable = true;
  /** Records reach nobody and time out (a dead network under a socket that looks connected). */
  blackhole = false;
  reconnects = 0;
  private dropped: (() => void)[] = [];
  private feeds = new Set<(f: MatchFeed) => void>();
  private statusCbs = new Set<(s: ConnectionStatus) => void>();

  constructor(
    setup: unknown,
    readonly matchId = 'm1',
  ) {
    this.match = newMatch(parseSetup(setup));
  }

  feed(): MatchFeed {
    return { matchId: this.matchId, version: this.version, setup: this.match.setup, state: view(this.match), stats: statsOf(this.match) };
  }

  watch(_id: string, onFeed: (f: MatchFeed) => void) {
    this.feeds.add(onFeed);
    if (this.reachable) queueMicrotask(() => onFeed(this.feed()));
    return () => {
      this.feeds.delete(onFeed);
    };
  }

  /** The server becomes reachable and answers the pending subscriptions. */
  answer() {
    this.reachable = true;
    const f = this.feed();
    for (const cb of this.feeds) cb(f);
  }

  /** Another device records a step directly on the server. */
  external(step: Parameters<typeof applyStep>[1]) {
    const r = applyStep(this.match, step);
    if (!r.ok) throw r.error;
    this.match = r.match;
    this.version++;
    if (!this.reachable) return;
    const f = this.feed();
    for (const cb of this.feeds) cb(f);
  }

  async record(req: Parameters<ScorerClient['record']>[0], timeoutMs = 5000): Promise<RecordAck> {
    if (this.status !== 'live') throw new Error('offline');
    if (this.blackhole) {
      // Unanswered: times out, unless a reconnect drops the dead connection first (its acks fail at once).
      const why = await new Promise<string>((resolve) => {
        const t = setTimeout(() => resolve('timeout'), timeoutMs);
        this.dropped.push(() => {
          clearTimeout(t);
          resolve('offline');
        });
      });
      throw new Error(why);
    }
    this.received.push({ stepId: req.stepId, expectedVersion: req.expectedVersion });
    const snap = () => ({ matchId: this.matchId, version: this.version, state: view(this.match) });
    if (this.ids.has(req.stepId)) return { ok: true, duplicate: true, ...snap() };
    if (req.expectedVersion !== undefined && req.expectedVersion !== this.version) {
      return { ok: false, error: { code: 'stale', message: 'stale' }, currentVersion: this.version };
    }
    const r = applyStep(this.match, req.step);
    if (!r.ok) return { ok: false, error: r.error.toJSON() };
    this.ids.add(req.stepId);
    this.external(req.step);
    return { ok: true, ...snap() };
  }

  onStatus(cb: (s: ConnectionStatus) => void) {
    this.statusCbs.add(cb);
    return () => {
      this.statusCbs.delete(cb);
    };
  }

  setStatus(s: ConnectionStatus) {
    this.status = s;
    for (const cb of this.statusCbs) cb(s);
  }

  /** Drop the connection and connect again: records waiting on the old one fail with 'offline' at once. */
  reconnect() {
    this.reconnects++;
    for (const d of this.dropped.splice(0)) d();
  }
}

/** The browser's network signals, driven by the test. */
export class FakeNetwork implements NetworkSignals {
  up = true;
  private cbs = new Set<(e: NetworkEvent) => void>();
  online() {
    return this.up;
  }
  on(cb: (e: NetworkEvent) => void) {
    this.cbs.add(cb);
    return () => this.cbs.delete(cb);
  }
  fire(e: NetworkEvent) {
    if (e === 'offline') this.up = false;
    if (e === 'online') this.up = true;
    for (const cb of this.cbs) cb(e);
  }
}
