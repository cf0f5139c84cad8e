/**
 * The versioned wire protocol and the rules version of a match, over real sockets and both stores:
 * - a page from another build (no `protocol`, an older or a newer one) is refused with `protocol-mismatch`
 *   and a "reload the page" message, joins no room and records nothing; REST callers may leave `protocol`
 *   out, and one that names another version is refused the same way (400);
 * - every match notes the RULES_VERSION it was created under (`GET /api/matches/:id`), and a record from
 *   before versions were kept loads as version 1 (file store and Redis).
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DB_FILE } from '../../server/storage/sqlite-store';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { RULES_VERSION } from '../../shared/rules/version';
import { PROTOCOL_VERSION, type RecordAck, type SubscribeAck } from '../../shared/protocol/wire';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, call, connect, createMatch, legalSteps, request, startTestServer, tempDirs, Viewer, type Client } from '../helpers/server';

const steps = legalSteps(4);
const redis = await requireRedis();
const tempDir = tempDirs();

describe('protocol version', () => {
  let server: RunningServer;
  const sockets: Client[] = [];
  const open = async (token?: string) => {
    const s = await connect(server.url, token);
    sockets.push(s);
    return s;
  };
  beforeAll(async () => {
    server = await startTestServer({ dataDir: tempDir() });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  it('refuses a page from an older or a newer build with "reload the page"; it joins no room and records nothing', async () => {
    const m = await createMatch(server.url);
    const scorer = await open(m.scorerToken);
    const old = await open(m.scorerToken);
    const oldViewer = new Viewer(old);

    // A page built before versioning sends no protocol at all.
    const sub = await call<SubscribeAck>(old, 'subscribe', { matchId: m.id });
    expect(sub).toMatchObject({ ok: false, error: { code: 'protocol-mismatch', field: 'protocol' } });
    if (!sub.ok) expect(sub.error.message).toContain('this page is from an older version of cuecast: reload the page');
    const rec = await call<RecordAck>(old, 'record', { matchId: m.id, eventId: 'old-1', expectedVersion: 0, step: steps[0] });
    expect(rec).toMatchObject({ ok: false, error: { code: 'protocol-mismatch', field: 'protocol' } });
    for (const protocol of [PROTOCOL_VERSION - 1, PROTOCOL_VERSION + 1]) {
      const ack = await call<SubscribeAck>(old, 'subscribe', { protocol, matchId: m.id });
      expect(ack).toMatchObject({ ok: false, error: { code: 'protocol-mismatch' } });
      if (!ack.ok) expect(ack.error.message).toContain(protocol > PROTOCOL_VERSION ? 'a newer version of cuecast: reload the page' : 'an older version of cuecast: reload the page');
    }
    expect((await api(server.url, `/api/matches/${m.id}`)).body.version).toBe(0);

    // This build's page records; the refused connection was never put in the room, so it hears no push.
    expect(await request(scorer, 'record', { matchId: m.id, eventId: 'new-1', expectedVersion: 0, step: steps[0] })).toMatchObject({ ok: true, version: 1 });
    const watcher = await open();
    const watched = new Viewer(watcher);
    expect(await request(watcher, 'subscribe', { matchId: m.id })).toMatchObject({ ok: true, version: 1 });
    expect(await request(scorer, 'record', { matchId: m.id, eventId: 'new-2', expectedVersion: 1, step: steps[1] })).toMatchObject({ ok: true, version: 2 });
    await watched.waitFor(2);
    expect(oldViewer.pushes).toHaveLength(0);
  });

  it('REST: protocol is optional; another version is refused with 400 protocol-mismatch and records nothing', async () => {
    const m = await createMatch(server.url);
    const path = `/api/matches/${m.id}/events`;
    expect(await api(server.url, path, { token: m.scorerToken, body: { eventId: 'r1', step: steps[0] } })).toMatchObject({ status: 201, body: { version: 1 } });
    expect(await api(server.url, path, { token: m.scorerToken, body: { protocol: PROTOCOL_VERSION, eventId: 'r2', step: steps[1] } })).toMatchObject({ status: 201, body: { version: 2 } });
    const refused = await api(server.url, path, { token: m.scorerToken, body: { protocol: PROTOCOL_VERSION - 1, eventId: 'r3', step: steps[2] } });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'protocol-mismatch', field: 'protocol' } } });
    // A protocol that is not a version number at all is a mistake of the caller, not a page of another build.
    for (const bad of [String(PROTOCOL_VERSION), null, 2.5, true]) {
      const res = await api(server.url, path, { token: m.scorerToken, body: { protocol: bad, eventId: 'r4', step: steps[2] } });
      expect(res, JSON.stringify(bad)).toMatchObject({ status: 400, body: { error: { code: 'protocol-mismatch', field: 'protocol' } } });
      expect(res.body.error.message, JSON.stringify(bad)).toBe(`protocol: must be the number ${PROTOCOL_VERSION}, the protocol version (it sent ${JSON.stringify(bad)})`);
    }
    expect((await api(server.url, path)).body.version).toBe(2);
  });

  it('REST: a body sent without a JSON Content-Type is refused as such, naming the body', async () => {
    const m = await createMatch(server.url);
    for (const [path, token, code] of [[`/api/matches/${m.id}/events`, m.scorerToken, 'invalid-request'], ['/api/matches', undefined, 'invalid-setup']] as const) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', null]) {
        const headers: Record<string, string> = type ? { 'content-type': type } : {};
        if (token) headers.authorization = `Bearer ${token}`;
        const res = await fetch(server.url + path, { method: 'POST', headers, body: JSON.stringify({ eventId: 'ct', step: steps[0] }) });
        const body = (await res.json()) as { error: { code: string; field: string; message: string } };
        expect(res.status, `${path} ${type}`).toBe(400);
        expect(body.error, `${path} ${type}`).toMatchObject({ code, field: 'body' });
        expect(body.error.message).toContain('Content-Type: application/json');
      }
    }
    expect((await api(server.url, `/api/matches/${m.id}`)).body.version).toBe(0);
  });
});

/** Rewrite line 1 of a file-store match log without `rulesVersion`, as a record from before it was kept. */
/** Remove `rulesVersion` from the stored record of match `id` in the embedded store's database (as before versions were kept). */
function stripRulesVersion(dataDir: string, id: string): void {
  const db = new Database(join(dataDir, DB_FILE));
  try {
    const { record } = db.prepare('SELECT record FROM matches WHERE id = ?').get(id) as { record: string };
    const match = JSON.parse(record) as Record<string, unknown>;
    expect(match.rulesVersion).toBe(RULES_VERSION);
    delete match.rulesVersion;
    db.prepare('UPDATE matches SET record = ? WHERE id = ?').run(JSON.stringify(match), id);
  } finally {
    db.close();
  }
}

describe('rules version of a match record', () => {
  it('embedded store: a new match notes RULES_VERSION; a record without one loads as version 1 with its log', async () => {
    const dataDir = tempDir();
    let server = await startTestServer({ dataDir });
    const created = await api(server.url, '/api/matches', { body: { discipline: '14-1', players: ['Ann', 'Bob'] } });
    expect(created).toMatchObject({ status: 201, body: { rulesVersion: RULES_VERSION } });
    const id = created.body.id as string;
    await api(server.url, `/api/matches/${id}/events`, { token: created.body.scorerToken, body: { eventId: 'a', step: steps[0] } });
    expect((await api(server.url, `/api/matches/${id}`)).body).toMatchObject({ version: 1, rulesVersion: RULES_VERSION });
    await server.close();

    stripRulesVersion(dataDir, id);
    server = await startTestServer({ dataDir });
    try {
      expect((await api(server.url, `/api/matches/${id}`)).body).toMatchObject({ version: 1, rulesVersion: 1 });
      // It still records.
      expect(await api(server.url, `/api/matches/${id}/events`, { token: created.body.scorerToken, body: { eventId: 'b', step: steps[1] } })).toMatchObject({ status: 201, body: { version: 2 } });
    } finally {
      await server.close();
    }
  });

  it.skipIf(!redis.available)('Redis: a new match notes RULES_VERSION; a record without one loads as version 1 with its log', async () => {
    const prefix = testPrefix('protocol');
    const s1 = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    let s2: RunningServer | undefined;
    const client = createClient({ url: redis.url });
    try {
      const m = await createMatch(s1.url);
      await api(s1.url, `/api/matches/${m.id}/events`, { token: m.scorerToken, body: { eventId: 'a', step: steps[0] } });
      expect((await api(s1.url, `/api/matches/${m.id}`)).body).toMatchObject({ version: 1, rulesVersion: RULES_VERSION });
      await client.connect();
      expect(await client.hGet(`${prefix}{m:${m.id}}:meta`, 'rulesVersion')).toBe(String(RULES_VERSION));
      await client.hDel(`${prefix}{m:${m.id}}:meta`, 'rulesVersion');
      // A second instance loads the match from Redis afresh.
      s2 = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
      expect((await api(s2.url, `/api/matches/${m.id}`)).body).toMatchObject({ version: 1, rulesVersion: 1 });
    } finally {
      await client.close().catch(() => undefined);
      await Promise.all([s1.close(), s2?.close()]);
      await dropPrefix(redis.url, prefix);
    }
  });
});
