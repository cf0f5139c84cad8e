/**
 * `__proto__`, `constructor` and `prototype` keys are refused by name, anywhere in a body or a Socket.IO
 * message (a schema would drop them silently and answer 201), and nothing is created or recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { PROTOCOL_VERSION } from '../../shared/protocol/wire';
import { api, call, connect, createMatch, legalSteps, startTestServer, tempDirs, type Client } from '../helpers/server';

const dirs = tempDirs();
const steps = legalSteps(1);

describe('__proto__ / constructor / prototype keys', () => {
  let server: RunningServer;
  let scorer: Client;
  let m: { id: string; scorerToken: string };
  beforeAll(async () => {
    server = await startTestServer({ dataDir: dirs('keys') });
    m = await createMatch(server.url);
    scorer = await connect(server.url, m.scorerToken);
  });
  afterAll(async () => {
    scorer?.close();
    await server?.close();
  });

  it('REST: refused naming the key (set-up, event, record), nothing created or recorded', async () => {
    const before = (await api(server.url, '/api/matches')).body.matches.length;
    const setup = await api(server.url, '/api/matches', { rawBody: '{"discipline":"14-1","players":["Ann","Bob"],"__proto__":{"x":1}}' });
    expect(setup).toMatchObject({ status: 400, body: { error: { code: 'invalid-setup', field: 'setup.__proto__' } } });
    const nested = await api(server.url, '/api/matches', { body: { discipline: '14-1', players: ['Ann', 'Bob'], options: { constructor: 1 } } });
    expect(nested).toMatchObject({ status: 400, body: { error: { code: 'invalid-setup', field: 'setup.options.constructor' } } });
    expect((await api(server.url, '/api/matches')).body.matches).toHaveLength(before);
    const event = await api(server.url, '/api/events', { rawBody: '{"name":"League","__proto__":{}}' });
    expect(event).toMatchObject({ status: 400, body: { error: { code: 'invalid-event', field: '__proto__' } } });
    const step = await api(server.url, `/api/matches/${m.id}/steps`, {
      token: m.scorerToken,
      rawBody: JSON.stringify({ stepId: 'p1', step: steps[0] }).replace('{"shot":{', '{"shot":{"__proto__":{"x":1},'),
    });
    expect(step).toMatchObject({ status: 400, body: { error: { code: 'invalid-step', field: 'step.shot.__proto__' } } });
    expect((await api(server.url, `/api/matches/${m.id}`)).body.version).toBe(0);
  });

  it('Socket.IO: a record with a __proto__ key is refused naming it; the clean one records', async () => {
    const payload = JSON.parse(
      `{"protocol":${PROTOCOL_VERSION},"matchId":"${m.id}","stepId":"s1","step":${JSON.stringify(steps[0])},"__proto__":{"admin":true}}`,
    );
    expect(await call(scorer, 'record', payload)).toMatchObject({ ok: false, error: { code: 'invalid-request', field: '__proto__' } });
    expect(await call(scorer, 'record', { protocol: PROTOCOL_VERSION, matchId: m.id, stepId: 's1', step: steps[0] })).toMatchObject({ ok: true, version: 1 });
  });
});
