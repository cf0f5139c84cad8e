/**
 * The versioned wire protocol over real sockets:
 * - a page from another build (no `protocol`, an older or a newer one) is refused with `protocol-mismatch`
 *   and a "reload the page" message, joins no room and records nothing; REST callers may leave `protocol`
 *   out, and one that names another version is refused the same way (400); `rulesVersion` is in the REST answer.
 * (That a record from before rules versions were kept loads as version 1, on files and Redis: old-logs.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { RULES_VERSION } from '../../shared/rules/version';
import { PROTOCOL_VERSION, type RecordAck, type SubscribeAck } from '../../shared/protocol/wire';
import { api, call, connect, createMatch, legalSteps, request, startTestServer, tempDirs, Viewer, type Client } from '../helpers/server';

const steps = legalSteps(4);
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
    const rec = await call<RecordAck>(old, 'record', { matchId: m.id, stepId: 'old-1', expectedVersion: 0, step: steps[0] });
    expect(rec).toMatchObject({ ok: false, error: { code: 'protocol-mismatch', field: 'protocol' } });
    for (const protocol of [PROTOCOL_VERSION - 1, PROTOCOL_VERSION + 1]) {
      const ack = await call<SubscribeAck>(old, 'subscribe', { protocol, matchId: m.id });
      expect(ack).toMatchObject({ ok: false, error: { code: 'protocol-mismatch' } });
      if (!ack.ok)
        expect(ack.error.message).toContain(
          protocol > PROTOCOL_VERSION ? 'a newer version of cuecast: reload the page' : 'an older version of cuecast: reload the page',
        );
    }
    expect((await api(server.url, `/api/matches/${m.id}`)).body.version).toBe(0);

    // This build's page records; the refused connection was never put in the room, so it hears no push.
    expect(await request(scorer, 'record', { matchId: m.id, stepId: 'new-1', expectedVersion: 0, step: steps[0] })).toMatchObject({ ok: true, version: 1 });
    const watcher = await open();
    const watched = new Viewer(watcher);
    expect(await request(watcher, 'subscribe', { matchId: m.id })).toMatchObject({ ok: true, version: 1 });
    expect(await request(scorer, 'record', { matchId: m.id, stepId: 'new-2', expectedVersion: 1, step: steps[1] })).toMatchObject({ ok: true, version: 2 });
    await watched.waitFor(2);
    expect(oldViewer.pushes).toHaveLength(0);
  });

  it('REST: protocol is optional; another version is refused with 400 protocol-mismatch and records nothing', async () => {
    const m = await createMatch(server.url);
    const path = `/api/matches/${m.id}/steps`;
    expect(await api(server.url, path, { token: m.scorerToken, body: { stepId: 'r1', step: steps[0] } })).toMatchObject({ status: 201, body: { version: 1 } });
    expect(await api(server.url, path, { token: m.scorerToken, body: { protocol: PROTOCOL_VERSION, stepId: 'r2', step: steps[1] } })).toMatchObject({
      status: 201,
      body: { version: 2 },
    });
    const refused = await api(server.url, path, { token: m.scorerToken, body: { protocol: PROTOCOL_VERSION - 1, stepId: 'r3', step: steps[2] } });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'protocol-mismatch', field: 'protocol' } } });
    // A protocol that is not a version number at all is a mistake of the caller, not a page of another build.
    for (const bad of [String(PROTOCOL_VERSION), null, 2.5, true]) {
      const res = await api(server.url, path, { token: m.scorerToken, body: { protocol: bad, stepId: 'r4', step: steps[2] } });
      expect(res, JSON.stringify(bad)).toMatchObject({ status: 400, body: { error: { code: 'protocol-mismatch', field: 'protocol' } } });
      expect(res.body.error.message, JSON.stringify(bad)).toBe(
        `protocol: must be the number ${PROTOCOL_VERSION}, the protocol version (it sent ${JSON.stringify(bad)})`,
      );
    }
    expect((await api(server.url, path)).body.version).toBe(2);
  });

  it('protocol 4 renamed eventId to stepId: the old path and the old field still record for one version; both names differing is refused', async () => {
    const m = await createMatch(server.url);
    const oldPath = `/api/matches/${m.id}/events`;
    // The deprecated path records like the new one, says so in its headers, and reads the log in the old shape.
    const viaOld = await fetch(server.url + oldPath, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${m.scorerToken}` },
      body: JSON.stringify({ eventId: 'old-name', step: steps[0] }),
    });
    expect(viaOld.status).toBe(201);
    expect(viaOld.headers.get('deprecation')).toBe('true');
    expect(viaOld.headers.get('link')).toBe(`</api/matches/${m.id}/steps>; rel="successor-version"`);
    // The same id under its new name is a retry of that step, not a new one.
    expect(await api(server.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: 'old-name', step: steps[0] } })).toMatchObject({
      status: 200,
      body: { version: 1, duplicate: true },
    });
    // Both names, equal: taken; different: refused naming eventId, nothing recorded.
    expect(
      await api(server.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: 'both', eventId: 'both', step: steps[1] } }),
    ).toMatchObject({ status: 201, body: { version: 2 } });
    const clash = await api(server.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: 'x1', eventId: 'x2', step: steps[2] } });
    expect(clash).toMatchObject({ status: 400, body: { error: { code: 'invalid-request', field: 'eventId' } } });
    expect(clash.body.error.message).toBe('eventId: the deprecated name of stepId, so it must equal stepId ("x1") or be left out');
    const sock = await open(m.scorerToken);
    expect(await call<RecordAck>(sock, 'record', { protocol: PROTOCOL_VERSION, matchId: m.id, stepId: 'x1', eventId: 'x2', step: steps[2] })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request', field: 'eventId' },
    });
    expect(
      await call<RecordAck>(sock, 'record', { protocol: PROTOCOL_VERSION, matchId: m.id, eventId: 'sock-old', expectedVersion: 2, step: steps[2] }),
    ).toMatchObject({ ok: true, version: 3 });
    // Neither name: the field to give is stepId.
    expect(await api(server.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { step: steps[3] } })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid-request', field: 'stepId' } },
    });
    const log = await api(server.url, `/api/matches/${m.id}/steps`);
    expect(log.body.steps.map((e: { stepId: string }) => e.stepId)).toEqual(['old-name', 'both', 'sock-old']);
    const old = await fetch(server.url + oldPath);
    expect(old.headers.get('deprecation')).toBe('true');
    expect(((await old.json()) as { events: { eventId: string }[] }).events.map((e) => e.eventId)).toEqual(['old-name', 'both', 'sock-old']);
  });

  it('REST: a body sent without a JSON Content-Type is refused as such, naming the body', async () => {
    const m = await createMatch(server.url);
    for (const [path, token, code] of [
      [`/api/matches/${m.id}/steps`, m.scorerToken, 'invalid-request'],
      ['/api/matches', undefined, 'invalid-setup'],
    ] as const) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', null]) {
        const headers: Record<string, string> = type ? { 'content-type': type } : {};
        if (token) headers.authorization = `Bearer ${token}`;
        const res = await fetch(server.url + path, { method: 'POST', headers, body: JSON.stringify({ stepId: 'ct', step: steps[0] }) });
        const body = (await res.json()) as { error: { code: string; field: string; message: string } };
        expect(res.status, `${path} ${type}`).toBe(400);
        expect(body.error, `${path} ${type}`).toMatchObject({ code, field: 'body' });
        expect(body.error.message).toContain('Content-Type: application/json');
      }
    }
    expect((await api(server.url, `/api/matches/${m.id}`)).body.version).toBe(0);
  });

  it('REST: a new match answers the RULES_VERSION it was created under, and reading it back says the same', async () => {
    const created = await api(server.url, '/api/matches', { body: { discipline: '14-1', players: ['Ann', 'Bob'] } });
    expect(created).toMatchObject({ status: 201, body: { rulesVersion: RULES_VERSION } });
    const id = created.body.id as string;
    await api(server.url, `/api/matches/${id}/steps`, { token: created.body.scorerToken, body: { stepId: 'a', step: steps[0] } });
    expect((await api(server.url, `/api/matches/${id}`)).body).toMatchObject({ version: 1, rulesVersion: RULES_VERSION });
  });
});
