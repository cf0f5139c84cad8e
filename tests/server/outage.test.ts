/**
 * A 2 s Redis outage during a stream of shots. The suite spawns its OWN redis-server (AOF, fsync always) on
 * a free port and kills / restarts that one; the machine's shared Redis is never touched. Two instances,
 * viewers on both; the viewers here never resubscribe, so reaching the final version proves the server's
 * own resync after the Redis reconnection. The scorer retries a failed record with the same stepId. After a
 * reconnection every watched match is re-read at once and each viewer gets one push per match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { proxyRedis, requireRedisServerBinary, spawnRedis, type PrivateRedis } from '../helpers/redis';
import { api, connect, createMatch, legalSteps, request, startTestServer, Viewer, type Client } from '../helpers/server';
import { applyStatsDelta } from '../../shared/index';

const hasBinary = requireRedisServerBinary();
const SHOTS = 40;
const steps = legalSteps(SHOTS);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!hasBinary)('Redis outage during a stream of shots', () => {
  let redis: PrivateRedis;
  let s1: RunningServer;
  let s2: RunningServer;
  const sockets: Client[] = [];

  beforeAll(async () => {
    redis = await spawnRedis();
    s1 = await startTestServer({ redisUrl: redis.url, redisPrefix: 'outage:' });
    s2 = await startTestServer({ redisUrl: redis.url, redisPrefix: 'outage:' });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all([s1?.close(), s2?.close()]);
    await redis?.dispose();
  });

  it('ends with every viewer on both instances at the final version, and the log holds each shot once', async () => {
    const m = await createMatch(s1.url);
    const viewers: Viewer[] = [];
    for (const url of [s1.url, s1.url, s2.url, s2.url, s2.url]) {
      const sock = await connect(url);
      sockets.push(sock);
      const v = new Viewer(sock);
      const ack = await request(sock, 'subscribe', { matchId: m.id });
      expect(ack.ok).toBe(true);
      viewers.push(v);
    }
    const scorer = await connect(s1.url, m.scorerToken);
    sockets.push(scorer);

    let outage: Promise<void> | null = null;
    let retries = 0;
    for (let i = 0; i < SHOTS; i++) {
      if (i === 10) {
        outage = (async () => {
          await redis.stop();
          await sleep(2000);
          await redis.start();
        })();
      }
      // Like the scorer page: retry with the same stepId until acknowledged.
      for (;;) {
        const ack = await request(scorer, 'record', { matchId: m.id, stepId: `shot-${i}`, step: steps[i] }, 10_000).catch((e: Error) => ({
          ok: false as const,
          error: { code: 'internal' as const, message: e.message },
        }));
        if (ack.ok) {
          expect(ack.version).toBe(i + 1);
          break;
        }
        // No answer in time (the request's own timeout: 'internal'), or the store's: not confirmed, or refused.
        expect(['internal', 'outcome-unknown', 'store-unavailable']).toContain(ack.error.code);
        retries++;
        await sleep(100);
      }
      await sleep(60);
    }
    await outage;
    await Promise.all(viewers.map((v) => v.waitFor(SHOTS, 15_000)));
    for (const v of viewers) {
      expect(v.latest).toBe(SHOTS);
      expect(v.pushes.at(-1)!.state.steps).toBe(SHOTS);
    }
    const log = await api(s2.url, `/api/matches/${m.id}/steps`);
    expect(log.body.version).toBe(SHOTS);
    expect(log.body.steps.map((e: { stepId: string }) => e.stepId)).toEqual(steps.map((_, i) => `shot-${i}`));
    console.info(`[outage] ${SHOTS} shots through a 2 s Redis outage, ${retries} scorer retries`);
  });

  it('an instance cut off from Redis while another records brings its viewers up to date on reconnection', async () => {
    // Instance 3 reaches Redis through a proxy that the test cuts: pub/sub drops what is published meanwhile.
    const proxy = await proxyRedis(redis.url);
    const s3 = await startTestServer({ redisUrl: proxy.url, redisPrefix: 'outage:' });
    try {
      const m = await createMatch(s1.url);
      const watchers: Viewer[] = [];
      for (const url of [s3.url, s3.url, s1.url]) {
        const sock = await connect(url);
        sockets.push(sock);
        watchers.push(new Viewer(sock));
        await request(sock, 'subscribe', { matchId: m.id });
      }
      const scorer = await connect(s1.url, m.scorerToken);
      sockets.push(scorer);
      for (let i = 0; i < 3; i++) await request(scorer, 'record', { matchId: m.id, stepId: `p${i}`, expectedVersion: i, step: steps[i] });
      await Promise.all(watchers.map((v) => v.waitFor(3)));
      proxy.cut();
      for (let i = 3; i < 6; i++) {
        const ack = await request(scorer, 'record', { matchId: m.id, stepId: `p${i}`, expectedVersion: i, step: steps[i] });
        expect(ack).toMatchObject({ ok: true, version: i + 1 });
      }
      await sleep(300);
      expect(watchers[0]!.latest).toBe(3); // the cut really dropped the pushes
      proxy.heal();
      await Promise.all(watchers.map((v) => v.waitFor(6, 5000)));
      for (const v of watchers.slice(0, 2)) expect(v.pushes.at(-1)).toMatchObject({ version: 6, step: steps[5] });
    } finally {
      await s3.close();
      await proxy.close();
    }
  });

  it('after a reconnection each viewer gets one push per watched match: the full room with the statistics delta, the scorebug room without', async () => {
    const proxy = await proxyRedis(redis.url);
    const s3 = await startTestServer({ redisUrl: proxy.url, redisPrefix: 'outage:' });
    try {
      const a = await createMatch(s1.url);
      const b = await createMatch(s1.url);
      const watch = async (subs: { id: string; detail: 'full' | 'scorebug' }[]) => {
        const sock = await connect(s3.url);
        sockets.push(sock);
        const v = new Viewer(sock);
        const acks = [];
        for (const sub of subs) acks.push(await request(sock, 'subscribe', { matchId: sub.id, detail: sub.detail }));
        return { v, acks };
      };
      const onA = await watch([{ id: a.id, detail: 'full' }]);
      const onB = await watch([{ id: b.id, detail: 'scorebug' }]);
      const both = await watch([
        { id: a.id, detail: 'full' },
        { id: b.id, detail: 'full' },
      ]);
      const scorerA = await connect(s1.url, a.scorerToken);
      const scorerB = await connect(s1.url, b.scorerToken);
      sockets.push(scorerA, scorerB);
      for (let i = 0; i < 3; i++) {
        await request(scorerA, 'record', { matchId: a.id, stepId: `a${i}`, expectedVersion: i, step: steps[i] });
        await request(scorerB, 'record', { matchId: b.id, stepId: `b${i}`, expectedVersion: i, step: steps[i] });
      }
      await Promise.all([onA.v.waitFor(3), onB.v.waitFor(3), both.v.waitFor(3)]);
      const seen = [onA, onB, both].map((w) => w.v.pushes.length);
      proxy.cut();
      expect(await request(scorerA, 'record', { matchId: a.id, stepId: 'a3', expectedVersion: 3, step: steps[3] })).toMatchObject({ ok: true, version: 4 });
      await sleep(300);
      expect(onA.v.latest).toBe(3); // the cut really dropped the push
      proxy.heal();
      await Promise.all([onA.v.waitFor(4, 5000), both.v.waitFor(4, 5000)]);
      await sleep(1800); // past the second resync pass
      const after = [onA, onB, both].map((w, i) => w.v.pushes.slice(seen[i]));
      expect(after[0]!.map((p) => [p.matchId, p.version])).toEqual([[a.id, 4]]);
      expect(after[1]!.map((p) => [p.matchId, p.version])).toEqual([[b.id, 3]]);
      expect(after[2]!.map((p) => [p.matchId, p.version]).sort()).toEqual(
        [
          [a.id, 4],
          [b.id, 3],
        ].sort(),
      );
      expect(after[1]![0]).not.toHaveProperty('stats');
      // The full room's push is the delta from the version the viewers had: applied, it gives the server's statistics.
      const ack = onA.acks[0]!;
      if (!ack.ok || ack.detail !== 'full' || 'unchanged' in ack) throw new Error('subscribe refused');
      let stats = ack.stats;
      for (const p of onA.v.pushes) stats = applyStatsDelta(stats, p.stats!)!;
      expect(after[0]![0]!.stats?.since).toBe(3);
      expect(stats).toEqual((await api(s1.url, `/api/matches/${a.id}`)).body.stats);
    } finally {
      await s3.close();
      await proxy.close();
    }
  });
});
