/**
 * The scorer token is checked as the console opens (issue 9): given a console opened with a token (or none),
 * when the server says valid / wrong / cannot be reached, or refuses a queued step for its token, or the
 * scorer pastes a token or link, then the console records or turns read-only with the reason, a wrong token
 * is forgotten, steps queued under a refused token are held (never silently lost) and go out once a valid
 * token is given, and a pasted token is kept only after the server confirmed it.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { RecordAck } from '../../shared/protocol/wire';
import { Outbox, outboxKey, type OutboxEntry, type OutboxNotice } from '../../web/src/lib/outbox';
import { ScorerSession, type SessionView } from '../../web/src/scorer/session';
import type { TokenAccess } from '../../web/src/scorer/token-gate';
import { checkScorerToken, checkTableToken, forgetToken, saveToken, tokenFromPaste, tokenKey, type TokenCheck } from '../../web/src/scorer/tokens';
import { FakeClient, MemStorage } from '../helpers/fake-client';

const settle = () => new Promise((r) => setTimeout(r, 0));
const SETUP = { discipline: '14-1', players: ['Ann', 'Bob'], start: { score: [10, 10], turn: 'A', ballsOnTable: 12 } };
const SHOT = { shot: { call: { made: true }, pocketed: 2 } } as const;
const GOOD = 'good-token-123';

/** A fake server that also checks the token the connection was opened with. */
class TokenClient extends FakeClient {
  connectedWith: string | null = null;
  override async record(req: Parameters<FakeClient['record']>[0], timeoutMs?: number): Promise<RecordAck> {
    if (this.status !== 'live') throw new Error('offline');
    if (this.connectedWith !== GOOD) return { ok: false, error: { code: 'forbidden', message: 'this token may not record for this match', field: 'token' } };
    return super.record(req, timeoutMs);
  }
}

/** The page's token access against a scripted check; records what was kept, forgotten and reopened. */
class FakeAccess implements TokenAccess {
  kept: string[] = [];
  forgotten: string[] = [];
  reopened = 0;
  checks: string[] = [];
  /** Answers of the check: a fixed map, or a pending promise the test resolves. */
  answer: (t: string) => Promise<TokenCheck> = async (t) => (t === GOOD ? 'valid' : 'wrong');
  constructor(readonly token: string | null) {}
  check(t: string) {
    this.checks.push(t);
    return this.answer(t);
  }
  keep(t: string) {
    this.kept.push(t);
  }
  forget(t: string) {
    this.forgotten.push(t);
  }
  reopen() {
    this.reopened++;
  }
}

let stop: (() => void) | null = null;
afterEach(() => stop?.());

function open(access: FakeAccess, client = new TokenClient(SETUP), storage = new MemStorage()) {
  client.connectedWith = access.token;
  const s = new ScorerSession(client, 'm1', storage, access);
  stop = s.start();
  let last: SessionView = s.view();
  s.subscribe((v) => (last = v));
  return { s, v: () => last, client, storage };
}

describe('token checked as the console opens', () => {
  test('valid: the console records, the token is kept', async () => {
    const access = new FakeAccess(GOOD);
    const { s, v, client } = open(access);
    await settle();
    expect(v().token.status).toBe('valid');
    expect([v().canRecord, v().canSend]).toEqual([true, true]);
    s.submit(SHOT);
    await settle();
    expect(client.version).toBe(1);
    expect(access.kept).toEqual([GOOD]);
    expect(access.forgotten).toEqual([]);
  });

  test('wrong: read-only with the reason, nothing can be entered or sent, the token is forgotten', async () => {
    const access = new FakeAccess('stale-link-token');
    const { s, v, client } = open(access);
    await settle();
    expect(v().token).toEqual({ status: 'wrong', paste: 'idle' });
    expect([v().canRecord, v().canSend]).toEqual([false, false]);
    expect(s.submit(SHOT)).toBeNull();
    s.undo();
    await settle();
    expect(client.received).toEqual([]);
    expect(access.forgotten).toEqual(['stale-link-token']);
    expect(access.kept).toEqual([]);
  });

  test('missing: read-only, nothing asked', async () => {
    const access = new FakeAccess(null);
    const { s, v } = open(access);
    await settle();
    expect(v().token.status).toBe('missing');
    expect(s.submit(SHOT)).toBeNull();
    expect(access.checks).toEqual([]);
  });

  test('while the check is out, a step can be entered but is not sent; it goes out once the answer is yes', async () => {
    const access = new FakeAccess(GOOD);
    let answer!: (c: TokenCheck) => void;
    access.answer = () => new Promise((r) => (answer = r));
    const { s, v, client } = open(access);
    await settle();
    expect(v().token.status).toBe('checking');
    expect([v().canRecord, v().canSend]).toEqual([true, false]);
    s.submit(SHOT);
    await settle();
    expect(client.received).toEqual([]);
    expect(v().queued).toHaveLength(1);
    answer('valid');
    await settle();
    await settle();
    expect(client.version).toBe(1);
    expect(v().queued).toHaveLength(0);
  });

  test('unreachable: recording goes on (unverified) and the token is checked again when the server answers', async () => {
    const access = new FakeAccess(GOOD);
    let calls = 0;
    access.answer = async () => (++calls === 1 ? 'unreachable' : 'valid');
    const client = new TokenClient(SETUP);
    client.reachable = false; // the page came up, the server does not answer yet
    const { s, v } = open(access, client);
    await settle();
    expect(v().token.status).toBe('unverified');
    expect(access.kept).toEqual([GOOD]); // not known wrong: kept for the next reload
    client.answer();
    await settle();
    expect(v().token.status).toBe('valid');
    expect(access.checks).toEqual([GOOD, GOOD]);
    s.submit(SHOT);
    await settle();
    expect(client.version).toBe(1);
  });
});

describe('steps queued under a refused token are held, not lost', () => {
  test('the server refuses the token: the steps stay queued, the console turns read-only, the token is forgotten', async () => {
    const access = new FakeAccess('bad-token');
    access.answer = async () => 'unreachable'; // could not check as it opened: the console records on
    const storage = new MemStorage();
    const client = new TokenClient(SETUP);
    const { s, v } = open(access, client, storage);
    await settle();
    expect(v().token.status).toBe('unverified');
    client.setStatus('offline');
    s.submit(SHOT);
    s.submit({ shot: { call: { made: false } } });
    s.submit({ shot: { call: 'safety' } });
    expect(v().queued).toHaveLength(3);
    client.setStatus('live');
    await settle();
    await settle();
    expect(v().token.status).toBe('wrong');
    expect(v().queued.map((e) => e.step)).toEqual([SHOT, { shot: { call: { made: false } } }, { shot: { call: 'safety' } }]);
    expect(v().notice).toBeNull(); // not a "refused" notice: nothing was dropped
    expect(JSON.parse(storage.getItem(outboxKey('m1'))!)).toHaveLength(3);
    expect(access.forgotten).toEqual(['bad-token']);
    expect(client.version).toBe(0);
    // Read-only: no more sending, no undo of the held steps, nothing new.
    s.retryNow();
    s.undo();
    await settle();
    expect(v().queued).toHaveLength(3);
    expect(client.received).toHaveLength(0);
  });

  test('a valid token given later (the page reopens with it) sends the held steps in order, once each', async () => {
    const storage = new MemStorage();
    const bad = new FakeAccess('bad-token');
    bad.answer = async () => 'unreachable';
    const first = open(bad, new TokenClient(SETUP), storage);
    await settle();
    first.client.setStatus('offline');
    first.s.submit(SHOT);
    first.s.submit({ shot: { call: { made: false } } });
    first.client.setStatus('live');
    await settle();
    await settle();
    expect(first.v().token.status).toBe('wrong');
    bad.answer = async (t) => (t === GOOD ? 'valid' : 'wrong'); // the server answers again
    await first.s.offerToken(`http://host/scorer/m1#token=${GOOD}`);
    expect([bad.kept, bad.reopened]).toEqual([['bad-token', GOOD], 1]); // kept unverified at first, then the valid one
    stop?.();
    // The page reloads with the kept token: the outbox (in storage) goes out.
    const server = first.client;
    server.connectedWith = GOOD;
    const again = new ScorerSession(server, 'm1', storage, new FakeAccess(GOOD));
    stop = again.start();
    await settle();
    await settle();
    await settle();
    expect(server.version).toBe(2);
    expect(server.match.setup.players).toEqual(['Ann', 'Bob']);
    expect(again.view().queued).toHaveLength(0);
    expect(again.view().feed?.state.score).toEqual([12, 10]);
  });

  test('the scorer may discard the held steps (read-only console only)', async () => {
    const access = new FakeAccess('bad-token');
    access.answer = async () => 'unreachable';
    const { s, v, client, storage } = open(access);
    await settle();
    expect(s.discardHeld()).toBe(0); // not read-only: nothing is discarded
    client.setStatus('offline');
    s.submit(SHOT);
    client.setStatus('live');
    await settle();
    await settle();
    expect(v().token.status).toBe('wrong');
    expect(s.discardHeld()).toBe(1);
    expect(v().queued).toHaveLength(0);
    expect(storage.getItem(outboxKey('m1'))).toBeNull();
  });
});

describe('pasting a token', () => {
  test('a wrong pasted token is not kept and says why; the field stays; a valid one is kept, then the page reopens', async () => {
    const access = new FakeAccess(null);
    const { s, v } = open(access);
    await settle();
    await s.offerToken('   ');
    expect(v().token).toEqual({ status: 'missing', paste: 'empty' });
    await s.offerToken('nope');
    expect(v().token).toEqual({ status: 'missing', paste: 'wrong' });
    access.answer = async () => 'unreachable';
    await s.offerToken(GOOD);
    expect(v().token.paste).toBe('unreachable');
    access.answer = async () => 'not-found';
    await s.offerToken(GOOD);
    expect(v().token.paste).toBe('not-found');
    expect([access.kept, access.reopened]).toEqual([[], 0]);
    access.answer = async (t) => (t === GOOD ? 'valid' : 'wrong');
    await s.offerToken(`  ${GOOD}  `);
    expect([access.kept, access.reopened]).toEqual([[GOOD], 1]);
    expect(access.checks.at(-1)).toBe(GOOD);
  });

  test('tokenFromPaste takes the token out of a scorer link, else the trimmed text', () => {
    expect(tokenFromPaste(' abc ')).toBe('abc');
    expect(tokenFromPaste('https://h:3000/scorer/xY_1#token=t0k-EN')).toBe('t0k-EN');
    expect(tokenFromPaste('https://h/scorer/x?lang=ja&token=a%2Db')).toBe('a-b');
    expect(tokenFromPaste('https://h/scorer/x#token=')).toBeNull();
    expect(tokenFromPaste('')).toBeNull();
  });
});

describe('checkScorerToken', () => {
  const reply = (status: number, body: unknown) =>
    (async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status })) as unknown as typeof fetch;

  test('maps the server’s answers; anything else says nothing about the token', async () => {
    expect(await checkScorerToken('m1', 'tok', reply(200, { valid: true }))).toBe('valid');
    expect(await checkScorerToken('m1', 'tok', reply(200, { valid: false, reason: 'wrong-token' }))).toBe('wrong');
    expect(await checkScorerToken('m1', 'tok', reply(404, { error: { code: 'not-found', message: 'x' } }))).toBe('not-found');
    expect(await checkScorerToken('m1', 'tok', reply(404, '<html>Cannot GET</html>'))).toBe('unreachable');
    // An id the server could never have made: no such match (400 naming matchId); another 400 says nothing.
    expect(await checkScorerToken('x'.repeat(80), 'tok', reply(400, { error: { code: 'invalid-request', field: 'matchId', message: 'x' } }))).toBe('not-found');
    expect(await checkScorerToken('m1', 'tok', reply(400, { error: { code: 'invalid-request', field: 'body', message: 'x' } }))).toBe('unreachable');
    expect(await checkScorerToken('m1', 'tok', reply(429, { error: { code: 'rate-limited', message: 'x' } }))).toBe('unreachable');
    expect(await checkScorerToken('m1', 'tok', reply(200, { ok: true }))).toBe('unreachable');
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    expect(await checkScorerToken('m1', 'tok', offline)).toBe('unreachable');
  });

  test('sends the token in the Authorization header only, to the match’s check route', async () => {
    let seen: { url: string; auth: string | null } | null = null;
    const spy = (async (url: string, init: RequestInit) => {
      seen = { url, auth: new Headers(init.headers).get('authorization') };
      return new Response(JSON.stringify({ valid: true }), { status: 200 });
    }) as unknown as typeof fetch;
    expect(await checkScorerToken('a b', 'tok', spy)).toBe('valid');
    expect(seen).toEqual({ url: '/api/matches/a%20b/scorer-check', auth: 'Bearer tok' });
  });

  test('a string that cannot be a token is wrong without asking', async () => {
    let asked = 0;
    const spy = (async () => {
      asked++;
      return new Response('{}');
    }) as unknown as typeof fetch;
    for (const t of ['has space', 'トークン', 'x'.repeat(201), '']) expect(await checkScorerToken('m1', t, spy)).toBe('wrong');
    expect(asked).toBe(0);
  });

  test('forgetToken removes the stored token only when it is the one found wrong', () => {
    const storage = new MemStorage();
    saveToken(storage, 'm1', 'newer');
    forgetToken(storage, 'm1', 'older');
    expect(storage.getItem(tokenKey('m1'))).toBe('newer');
    forgetToken(storage, 'm1', 'newer');
    expect(storage.getItem(tokenKey('m1'))).toBeNull();
  });
});

describe('outbox: a token refusal holds the queue', () => {
  test('forbidden / unauthorized keep every entry in order and stop; a later flush sends them once each', async () => {
    for (const code of ['forbidden', 'unauthorized'] as const) {
      const storage = new MemStorage();
      const log: OutboxEntry[] = [];
      let tokenOk = false;
      const send = async (e: OutboxEntry): Promise<RecordAck> => {
        if (!tokenOk) return { ok: false, error: { code, message: 'token', field: 'token' } };
        log.push(e);
        return { ok: true, matchId: 'm1', version: log.length, state: {} as never, stats: {} as never };
      };
      const ob = new Outbox('m1', storage, send);
      const events: OutboxNotice['kind'][] = [];
      ob.on((e) => events.push(e.kind));
      const a = ob.enqueue(SHOT, 0);
      const b = ob.enqueue({ shot: { call: 'safety' } }, 0);
      await ob.flush();
      expect(events, code).toEqual(['held']);
      expect(ob.entries.map((e) => e.stepId)).toEqual([a.stepId, b.stepId]);
      expect(ob.sending).toBeNull();
      expect(new Outbox('m1', storage, send).size).toBe(2); // survives a reload
      tokenOk = true;
      await ob.flush();
      expect(log.map((e) => e.stepId)).toEqual([a.stepId, b.stepId]);
      expect(ob.size).toBe(0);
    }
  });
});

describe('checkTableToken (the tablet at a table, issue 27 §4)', () => {
  /** A server where the table's current match is `current` and the token scores only `scores` (default: it). */
  const server = (current: string | null, scores: string | null = current) =>
    (async (url: string) => {
      const check = /\/api\/matches\/([^/]+)\/scorer-check$/.exec(url);
      if (check) return new Response(JSON.stringify({ valid: check[1] === scores }), { status: 200 });
      if (url === '/api/events/ev1/tables/table-1') return new Response(JSON.stringify({ current }), { status: 200 });
      return new Response('{}', { status: 404 });
    }) as unknown as typeof fetch;

  test('valid for the current match; a match the table has left says nothing against the token; else wrong', async () => {
    expect(await checkTableToken('ev1', 'table-1', 'm1', 'ev1.table-1.tok', server('m1'))).toBe('valid');
    // The table moved on to m2, which the token scores: the old match's check is not held against the token.
    expect(await checkTableToken('ev1', 'table-1', 'm1', 'ev1.table-1.tok', server('m2'))).toBe('unreachable');
    // Revoked (valid for no match) or a table with no match: wrong.
    expect(await checkTableToken('ev1', 'table-1', 'm1', 'ev1.table-1.tok', server('m2', null))).toBe('wrong');
    expect(await checkTableToken('ev1', 'table-1', 'm1', 'ev1.table-1.tok', server(null))).toBe('wrong');
  });
});
