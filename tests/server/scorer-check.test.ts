/**
 * `GET /api/matches/:id/scorer-check`: the scorer console asks, as it opens, whether its token may record.
 * Given a match, when the console sends the right token, a wrong one (another match's too), none, or asks
 * about an unknown match, then the answer is yes / no with the reason (404 for the unknown match), is never
 * cached, never contains the token, records nothing, and counts against the REST rate limit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { createMatch, SETUP, startTestServer } from '../helpers/server';

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cuecast-scorer-check-'));
  server = await startTestServer({ dataDir });
});
afterAll(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The raw answer: status, headers and body text (to search it for the token). */
async function check(url: string, id: string, authorization?: string) {
  const res = await fetch(`${url}/api/matches/${id}/scorer-check`, { headers: authorization ? { authorization } : {} });
  return { status: res.status, cache: res.headers.get('cache-control'), text: await res.text() };
}

describe('scorer token check', () => {
  it('answers valid for the match token, and the answer holds no token', async () => {
    const m = await createMatch(server.url);
    const r = await check(server.url, m.id, `Bearer ${m.scorerToken}`);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ valid: true });
    expect(r.cache).toBe('no-store');
    expect(r.text).not.toContain(m.scorerToken);
  });

  it('answers not valid (wrong-token) for a wrong token and for another match’s token, never echoing either', async () => {
    const m = await createMatch(server.url);
    const other = await createMatch(server.url);
    for (const token of ['not-the-token', other.scorerToken, m.scorerToken.slice(0, -1), 'x'.repeat(500)]) {
      const r = await check(server.url, m.id, `Bearer ${token}`);
      expect(r.status, token).toBe(200);
      expect(JSON.parse(r.text), token).toEqual({ valid: false, reason: 'wrong-token' });
      expect(r.text).not.toContain(token);
      expect(r.text).not.toContain(m.scorerToken);
    }
  });

  it('answers not valid (no-token) without a token or with a header that is not a bearer token', async () => {
    const m = await createMatch(server.url);
    for (const auth of [undefined, 'Basic abc', 'Bearer', `Token ${m.scorerToken}`]) {
      const r = await check(server.url, m.id, auth);
      expect(r.status, String(auth)).toBe(200);
      expect(JSON.parse(r.text), String(auth)).toEqual({ valid: false, reason: 'no-token' });
      expect(r.text).not.toContain(m.scorerToken);
    }
  });

  it('answers 404 not-found for an unknown match id and 400 for one the server could never have made, whatever the token', async () => {
    const m = await createMatch(server.url);
    for (const [id, status, code] of [
      ['unknown12345', 404, 'not-found'],
      ['no%20such', 400, 'invalid-request'],
      ['x'.repeat(80), 400, 'invalid-request'],
    ] as const) {
      for (const auth of [undefined, `Bearer ${m.scorerToken}`]) {
        const r = await check(server.url, id, auth);
        expect(r.status, id).toBe(status);
        expect(JSON.parse(r.text), id).toMatchObject({ error: { code, field: 'matchId' } });
        expect(r.text).not.toContain(m.scorerToken);
        expect(r.text).not.toContain('x'.repeat(80));
      }
    }
  });

  it('records nothing', async () => {
    const m = await createMatch(server.url);
    await check(server.url, m.id, `Bearer ${m.scorerToken}`);
    await check(server.url, m.id, 'Bearer wrong');
    const events = (await (await fetch(`${server.url}/api/matches/${m.id}/steps`)).json()) as { version: number };
    expect(events.version).toBe(0);
  });

  it('is rate-limited like the rest of the API (429 rate-limited)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cuecast-scorer-check-limit-'));
    const s = await startTestServer({ dataDir: dir, limits: { requestsPerMinute: 4 } });
    try {
      const m = await createMatch(s.url, SETUP); // 1 request
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await check(s.url, m.id, `Bearer ${m.scorerToken}`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const last = await check(s.url, m.id, `Bearer ${m.scorerToken}`);
      expect(last.status).toBe(429);
      expect(JSON.parse(last.text)).toMatchObject({ error: { code: 'rate-limited' } });
      expect(last.text).not.toContain(m.scorerToken);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
