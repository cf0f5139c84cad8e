/**
 * Table scorer tokens over the wire (issue 27 §4) on a server over the real Redis: `POST
 * /api/events/<id>/tables/<table>/scorer-token` answers `{scorerToken, url}` (organiser token needed; an unknown
 * table, event or body field is refused by name); the token records the table's current match over REST and
 * over Socket.IO (handshake `auth.token`) and is refused for any other match with 403 `not-current-match` naming
 * `matchId`; `DELETE` the same path revokes it (403 `forbidden` naming `token` afterwards).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { RecordAck } from '../../shared/protocol/wire';
import type { Failure } from '../../server/failure';
import { createEvent, tableMatch, type CreatedEvent } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, connect, request, startTestServer } from '../helpers/server';

const redis = await requireRedis();
const BREAK = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } } as const;
const MISS = { shot: { call: { made: false } } } as const;

describe.skipIf(!redis.available)('table scorer token routes', () => {
  const prefix = testPrefix('table-token-http');
  let s: RunningServer;
  let ev: CreatedEvent;
  const tokenPath = (table: string, id = ev.id) => `/api/events/${id}/tables/${table}/scorer-token`;

  beforeAll(async () => {
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    ev = await createEvent(s.url);
  });
  afterAll(async () => {
    await s?.close();
    await dropPrefix(redis.url, prefix);
  });

  it('refuses to issue without the organiser token, for an unknown table or event, or with a body field', async () => {
    expect(await api(s.url, tokenPath('table-1'), { method: 'POST' })).toMatchObject({ status: 401, body: { error: { field: 'token' } } });
    expect(await api(s.url, tokenPath('table-1'), { method: 'POST', token: 'wrong' })).toMatchObject({ status: 403, body: { error: { field: 'token' } } });
    const unknown = await api(s.url, tokenPath('table-9'), { method: 'POST', token: ev.organiserToken });
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'not-found', field: 'table' } } });
    expect(unknown.body.error.message).toContain('table-9');
    expect(await api(s.url, tokenPath('table-1', 'nobody'), { method: 'POST', token: ev.organiserToken })).toMatchObject({
      status: 404,
      body: { error: { field: 'eventId' } },
    });
    expect(await api(s.url, tokenPath('table-1'), { token: ev.organiserToken, body: { table: 'x' } })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid-event', field: 'table' } },
    });
    expect((await api(s.url, `/api/events/${ev.id}`)).body.tablets).toBeUndefined();
  });

  it('records the current match over REST and Socket.IO, refuses another match, and stops once revoked', async () => {
    const [p1, p2, p3, p4] = ev.event.roster.map((p) => p.id) as [string, string, string, string];
    const current = await tableMatch(s.url, ev, 'table-1', [p1, p2], true);
    const other = await tableMatch(s.url, ev, 'tv-table', [p3, p4], true);
    const issued = await api(s.url, tokenPath('table-1'), { method: 'POST', token: ev.organiserToken });
    expect(issued.status).toBe(201);
    const token = issued.body.scorerToken as string;
    expect(issued.body.url).toBe(`${s.url}/scorer/table/${ev.id}/table-1#token=${token}`);
    const view = (await api(s.url, `/api/events/${ev.id}`)).body;
    expect(Object.keys(view.tablets)).toEqual(['table-1']);
    expect(view.urls.tables['table-1'].scorer).toBe(`${s.url}/scorer/table/${ev.id}/table-1`);

    // REST: the current match is recorded; the token check says valid; the other table's match is refused.
    expect((await api(s.url, `/api/matches/${current.id}/steps`, { token, body: { stepId: 'tt-1', step: BREAK } })).status).toBe(201);
    expect((await api(s.url, `/api/matches/${current.id}/scorer-check`, { token })).body).toEqual({ valid: true });
    const wrong = await api(s.url, `/api/matches/${other.id}/steps`, { token, body: { stepId: 'tt-2', step: BREAK } });
    expect(wrong).toMatchObject({ status: 403, body: { error: { code: 'not-current-match', field: 'matchId' } } });
    expect(wrong.body.error.message).toContain(current.id);
    expect((await api(s.url, `/api/matches/${other.id}`)).body.version).toBe(0);

    // Socket.IO: the same token in the handshake.
    const sock = await connect(s.url, token);
    try {
      const ok = (await request(sock, 'record', { matchId: current.id, stepId: 'tt-3', step: MISS })) as RecordAck;
      expect(ok).toMatchObject({ ok: true, version: 2 });
      const no = (await request(sock, 'record', { matchId: other.id, stepId: 'tt-4', step: BREAK })) as Failure;
      expect(no).toMatchObject({ ok: false, error: { code: 'not-current-match', field: 'matchId' } });

      // Revoked: refused on both paths.
      const revoked = await api(s.url, tokenPath('table-1'), { method: 'DELETE', token: ev.organiserToken });
      expect(revoked.status).toBe(200);
      expect(revoked.body.event.tablets).toBeUndefined();
      const after = (await request(sock, 'record', { matchId: current.id, stepId: 'tt-5', step: { undo: true } })) as Failure;
      expect(after).toMatchObject({ ok: false, error: { code: 'forbidden', field: 'token' } });
      expect(after.error.message).toMatch(/revoked or replaced/);
    } finally {
      sock.close();
    }
    expect(await api(s.url, `/api/matches/${current.id}/steps`, { token, body: { stepId: 'tt-6', step: { undo: true } } })).toMatchObject({
      status: 403,
      body: { error: { code: 'forbidden', field: 'token' } },
    });
    expect((await api(s.url, `/api/matches/${current.id}/scorer-check`, { token })).body).toMatchObject({ valid: false });
    expect((await api(s.url, `/api/matches/${current.id}`)).body.version).toBe(2);
  });
});
