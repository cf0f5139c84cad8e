/**
 * stepId idempotency on one instance (embedded mode, file store): the same stepId with the same step is
 * a retry (the original result, `duplicate: true`, key order aside); the same stepId with a different
 * step is refused with `step-id-reused` (REST 409) naming the stepId and its version, and appends nothing —
 * also after a restart, when the ids come from the stored log.
 */
import { describe, expect, it } from 'vitest';
import { api, connect, createMatch, legalSteps, request, startTestServer, tempDirs, Viewer } from '../helpers/server';

const tempDir = tempDirs();

const steps = legalSteps(3);
/** A legal opening step that is not steps[0]. */
const SAFETY_BREAK = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };

describe('stepId reuse on one instance', () => {
  it('same stepId + same step is a retry; + another step is refused with step-id-reused and records nothing', async () => {
    const dir = tempDir('eventids');
    let server = await startTestServer({ dataDir: dir });
    const m = await createMatch(server.url);
    const path = `/api/matches/${m.id}/steps`;
    const scorer = await connect(server.url, m.scorerToken);
    const viewerSocket = await connect(server.url);
    try {
      const viewer = new Viewer(viewerSocket);
      await request(viewerSocket, 'subscribe', { matchId: m.id });
      expect(steps[0]).not.toEqual(SAFETY_BREAK);

      // A Companion button with a fixed stepId: the first press records.
      const first = await api(server.url, path, { token: m.scorerToken, body: { stepId: 'button-1', step: steps[0] } });
      expect(first).toMatchObject({ status: 201, body: { version: 1 } });
      await viewer.waitFor(1);

      // The same step again, keys in another order: the idempotent retry (200, duplicate, the original state).
      const shot = (steps[0] as { shot: Record<string, unknown> }).shot;
      const reordered = { shot: Object.fromEntries(Object.entries(shot).reverse()) };
      expect(Object.keys(shot).length).toBeGreaterThan(1);
      expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(steps[0]));
      const retry = await api(server.url, path, { token: m.scorerToken, body: { step: reordered, stepId: 'button-1' } });
      expect(retry).toMatchObject({ status: 200, body: { version: 1, duplicate: true } });
      expect(retry.body.state).toEqual(first.body.state);

      // The second press with the same stepId but another step: refused, nothing appended.
      const reused = await api(server.url, path, { token: m.scorerToken, body: { stepId: 'button-1', step: SAFETY_BREAK } });
      expect(reused).toMatchObject({ status: 409, body: { error: { code: 'step-id-reused', field: 'stepId' } } });
      expect(reused.body.error.message).toContain('"button-1"');
      expect(reused.body.error.message).toContain('version 1');
      expect(reused.body.duplicate).toBeUndefined();

      // Over Socket.IO, likewise; after more steps the message still names the version it was recorded at.
      const next = await request(scorer, 'record', { matchId: m.id, stepId: 'e2', expectedVersion: 1, step: steps[1] });
      expect(next).toMatchObject({ ok: true, version: 2 });
      const sockReused = await request(scorer, 'record', { matchId: m.id, stepId: 'button-1', step: steps[2] });
      expect(sockReused).toMatchObject({ ok: false, error: { code: 'step-id-reused', field: 'stepId' } });
      if (!sockReused.ok) expect(sockReused.error.message).toContain('version 1');
      const sockRetry = await request(scorer, 'record', { matchId: m.id, stepId: 'button-1', step: steps[0] });
      expect(sockRetry).toMatchObject({ ok: true, version: 1, duplicate: true });

      const log = await api(server.url, path);
      expect(log.body.steps.map((e: { stepId: string }) => e.stepId)).toEqual(['button-1', 'e2']);
      expect(log.body.steps[0].step).toEqual(steps[0]);
      await viewer.waitFor(2);
      expect(viewer.pushes.map((p) => p.version)).toEqual([1, 2]);

      // After a restart the ids come from the stored log: same answers.
      scorer.close();
      viewerSocket.close();
      await server.close();
      server = await startTestServer({ dataDir: dir });
      expect(await api(server.url, path, { token: m.scorerToken, body: { stepId: 'e2', step: steps[2] } })).toMatchObject({
        status: 409,
        body: { error: { code: 'step-id-reused', field: 'stepId' } },
      });
      expect(await api(server.url, path, { token: m.scorerToken, body: { stepId: 'e2', expectedVersion: 1, step: steps[1] } })).toMatchObject({
        status: 200,
        body: { version: 2, duplicate: true },
      });
      expect((await api(server.url, path)).body.version).toBe(2);
    } finally {
      scorer.close();
      viewerSocket.close();
      await server.close();
    }
  });
});
