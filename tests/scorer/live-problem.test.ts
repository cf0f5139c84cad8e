/**
 * A refused subscription as every page reads it (web/src/lib/live-problem.ts), and the scorer console's
 * controller on each kind: not found; another build (`protocol-mismatch`, from `subscribe` or from a
 * `record`: "reload the page", nothing more is sent, the queued steps stay for the reloaded page); a busy or
 * failing server ("Retry now" asks the client again); the next snapshot clears it.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { ApiError } from '../../shared/protocol/errors';
import type { RecordAck } from '../../shared/protocol/wire';
import type { MatchFeed } from '../../web/src/lib/client';
import { liveProblem } from '../../web/src/lib/live-problem';
import { ScorerSession } from '../../web/src/scorer/session';
import { FakeClient, MemStorage } from '../helpers/fake-client';

const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
};
const SETUP = { discipline: '14-1', players: ['Ann', 'Bob'], start: { turn: 'A', ballsOnTable: 12 } };
const MISMATCH: ApiError = { code: 'protocol-mismatch', message: 'this page is from an older version of cuecast: reload the page', field: 'protocol' };

/** A fake server whose `subscribe` is refused with `error` until `accept()`; counts `retry` calls. */
class Refusing extends FakeClient {
  retries = 0;
  private listeners: { onFeed: (f: MatchFeed) => void; onError?: (e: ApiError) => void }[] = [];
  constructor(public error: ApiError | null) {
    super(SETUP);
  }
  override watch(_id: string, onFeed: (f: MatchFeed) => void, onError?: (e: ApiError) => void) {
    this.listeners.push({ onFeed, onError });
    queueMicrotask(() => this.answerAll());
    return () => {};
  }
  retry(_matchId: string) {
    this.retries++;
    queueMicrotask(() => this.answerAll());
  }
  accept() {
    this.error = null;
  }
  private answerAll() {
    for (const l of this.listeners) {
      if (this.error) l.onError?.(this.error);
      else l.onFeed(this.feed());
    }
  }
}

const stops: (() => void)[] = [];
afterEach(() => {
  for (const s of stops.splice(0)) s();
});

describe('liveProblem: one reading of a refused subscription for every page', () => {
  test('not found (or an id that cannot be one), reload, busy, server error, anything else', () => {
    const kind = (e: ApiError) => liveProblem(e).kind;
    expect(kind({ code: 'not-found', message: 'x', field: 'matchId' })).toBe('not-found');
    expect(kind({ code: 'invalid-request', message: 'x', field: 'matchId' })).toBe('not-found');
    expect(kind(MISMATCH)).toBe('reload');
    expect(kind({ code: 'rate-limited', message: 'slow down' })).toBe('busy');
    expect(kind({ code: 'internal', message: 'could not read the match; retry' })).toBe('server-error');
    expect(kind({ code: 'invalid-request', message: 'x', field: 'sinceVersion' })).toBe('refused');
  });
});

describe('the scorer console on a refused subscription', () => {
  /** A console on a server that refuses its subscription with `error`. */
  async function refusedWith(error: ApiError) {
    const client = new Refusing(error);
    const s = new ScorerSession(client, 'm1', new MemStorage(), true);
    stops.push(s.start());
    await settle();
    return { client, s };
  }

  test('protocol-mismatch: a reload problem, nothing is sent', async () => {
    const { client, s } = await refusedWith(MISMATCH);
    expect(s.view().problem).toMatchObject({ kind: 'reload', error: { code: 'protocol-mismatch' } });
    expect(s.view().notice).toBeNull();
    expect(client.received).toEqual([]);
  });

  test('a record refused with protocol-mismatch (the server was upgraded meanwhile): reload, the steps wait', async () => {
    class Upgraded extends Refusing {
      override async record(): Promise<RecordAck> {
        this.received.push({ eventId: 'x' });
        return { ok: false, error: MISMATCH };
      }
    }
    const up = new Upgraded(null);
    const s = new ScorerSession(up, 'm1', new MemStorage(), true);
    stops.push(s.start());
    await settle();
    expect(s.view().feed).not.toBeNull();
    s.submit({ shot: { call: { made: true }, pocketed: 1 } });
    await settle();
    expect(s.view().problem?.kind).toBe('reload');
    expect(s.view().queued).toHaveLength(1); // kept for the reloaded page
    const sent = up.received.length;
    s.retryNow(); // nothing goes out again until the reload
    s.submit({ shot: { call: 'safety' } });
    await settle();
    expect(up.received.length).toBe(sent);
    expect(s.view().queued).toHaveLength(2);
  });

  test('rate-limited: a busy problem; "Retry now" asks the client again; the snapshot clears it', async () => {
    const { client, s } = await refusedWith({ code: 'rate-limited', message: 'too many messages on this connection; slow down' });
    expect(s.view().problem?.kind).toBe('busy');
    s.retrySubscribe();
    await settle();
    expect(client.retries).toBe(1);
    expect(s.view().problem?.kind).toBe('busy');
    client.accept();
    s.retrySubscribe();
    await settle();
    expect(s.view().problem).toBeNull();
    expect(s.view().feed?.version).toBe(0);
  });

  test('internal: a server-error problem, kept apart from the not-found page', async () => {
    const { s } = await refusedWith({ code: 'internal', message: 'could not read the match; retry' });
    expect(s.view().problem?.kind).toBe('server-error');
  });
});
