/**
 * Small pushes (protocol 3), two instances over the real Redis, a plausible match (shared/simulate) with undos:
 * - a push carries the state and only what changed in the statistics since the version before; it stays small
 *   late in a long match, while the whole statistics grow; applied in order, the deltas rebuild exactly the
 *   server's statistics (undos included), also in the pages' live client;
 * - a `scorebug` subscription (the overlay) never receives the statistics, in its ack or its pushes, only the
 *   figures its scorebug shows (`figures`: each player's average, equal to the statistics', and a Rotation race's
 *   racks won, as the summary card counts them);
 * - a viewer that misses a version re-subscribes and gets the right whole sheet, then follows the deltas again;
 * - subscribing again with another detail moves the connection to that room (one push per version).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { applyStatsDelta, racksWon, replay, statsOf, type MatchStats, type StatePush, type Step } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { createClient, type LiveClient, type MatchFeed } from '../../web/src/lib/client';
import { requireRedis, testPrefix } from '../helpers/redis';
import { api, createMatch, LONG_SETUP, plausibleSteps, request, twoInstances, Viewer } from '../helpers/server';

const redis = await requireRedis();
const prefix = testPrefix('pushes');
const setup = parseSetup(LONG_SETUP);
const bytes = (x: unknown) => Buffer.byteLength(JSON.stringify(x));

describe.skipIf(!redis.available)('small pushes', () => {
  const env = twoInstances(redis.url, prefix);
  const { open } = env;
  const clients: LiveClient[] = [];
  afterAll(() => {
    for (const c of clients) c.close();
  });

  /** Record `steps` through a scorer socket on `url`, from version `from`; returns the acks. */
  async function recordAll(url: string, matchId: string, token: string, steps: readonly Step[], from = 0) {
    const scorer = await open(url, token);
    const acks = [];
    for (const [i, step] of steps.entries()) {
      const ack = await request(scorer, 'record', { matchId, stepId: `s${from + i}`, expectedVersion: from + i, step });
      if (!ack.ok) throw new Error(`step ${from + i + 1} refused: ${JSON.stringify(ack.error)}`);
      acks.push(ack);
    }
    return acks;
  }

  it('a push carries only what changed and stays small late in the match; the deltas rebuild the statistics exactly; the scorebug room gets none', async () => {
    const m = await createMatch(env.s1.url, LONG_SETUP);
    const steps = plausibleSteps(700, LONG_SETUP, { seed: 21, undoRate: 0.04 });
    const fullSocket = await open(env.s2.url);
    const bugSocket = await open(env.s2.url);
    const full = new Viewer(fullSocket);
    const bug = new Viewer(bugSocket);
    const fullAck = await request(fullSocket, 'subscribe', { matchId: m.id });
    const bugAck = await request(bugSocket, 'subscribe', { matchId: m.id, detail: 'scorebug' });
    expect(fullAck).toMatchObject({ ok: true, detail: 'full', version: 0 });
    expect(bugAck).toMatchObject({ ok: true, detail: 'scorebug', version: 0 });
    expect(bugAck).not.toHaveProperty('stats');
    expect(bugAck).toMatchObject({ figures: { average: [0, 0], racksWon: null } });
    if (!fullAck.ok || fullAck.detail !== 'full' || 'unchanged' in fullAck) return;
    // The pages' live client follows the same match (deltas applied, resync on a gap).
    const client = createClient({ url: env.s1.url });
    clients.push(client);
    const feeds: MatchFeed[] = [];
    client.watch(m.id, (f) => feeds.push(f));

    const acks = await recordAll(env.s1.url, m.id, m.scorerToken, steps);
    await Promise.all([full.waitFor(steps.length), bug.waitFor(steps.length)]);
    expect(full.pushes.map((p) => p.version)).toEqual(steps.map((_, i) => i + 1));
    expect(bug.pushes.map((p) => p.version)).toEqual(steps.map((_, i) => i + 1));

    // Full room: each push's delta is from the version before; applied in order they give the server's statistics.
    let stats: MatchStats = fullAck.stats;
    for (const [i, p] of full.pushes.entries()) {
      expect(p.stats?.since).toBe(p.version - 1);
      stats = applyStatsDelta(stats, p.stats!)!;
      // The scorebug's figures of each version: the statistics' averages (14-1: no racks won).
      expect(bug.pushes[i]!.figures).toEqual({ average: [stats.players[0].average, stats.players[1].average], racksWon: null });
      const ack = acks[i]!;
      if (ack.ok) expect(ack.figures).toEqual(bug.pushes[i]!.figures);
    }
    expect(stats.players.some((p) => p.average > 0)).toBe(true);
    const whole = replay(setup, steps);
    const server = (await api(env.s2.url, `/api/matches/${m.id}`)).body;
    expect(stats).toEqual(server.stats);
    expect(stats).toEqual(statsOf(whole));
    expect(stats.sheet.length).toBeGreaterThan(150);
    // The record acks carry the same delta as the push of their version.
    for (const [i, ack] of acks.entries()) if (ack.ok) expect(ack.stats).toEqual(full.pushes[i]!.stats);

    // Scorebug room: the same states, never the statistics.
    for (const [i, p] of bug.pushes.entries()) {
      expect(p).not.toHaveProperty('stats');
      expect(p.state).toEqual(full.pushes[i]!.state);
    }

    // Small: no push over 4 KB, late pushes no bigger than early ones, while the whole statistics grew large.
    const late = full.pushes.slice(-100).map(bytes);
    const early = full.pushes.slice(20, 120).map(bytes);
    expect(Math.max(...full.pushes.map(bytes))).toBeLessThanOrEqual(4096);
    expect(Math.max(...late)).toBeLessThanOrEqual(Math.max(...early) + 256);
    expect(Math.max(...bug.pushes.map(bytes))).toBeLessThan(Math.min(...late));
    expect(bytes(server.stats)).toBeGreaterThan(10 * Math.max(...late));

    // The live client rebuilt the same statistics from the deltas.
    const deadline = Date.now() + 10_000;
    while (feeds.at(-1)?.version !== steps.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(feeds.at(-1)!.version).toBe(steps.length);
    expect(feeds.at(-1)!.stats).toEqual(server.stats);
  });

  it('a viewer that misses a version re-subscribes and gets the right whole sheet, then follows the deltas again', async () => {
    const m = await createMatch(env.s1.url, LONG_SETUP);
    const steps = plausibleSteps(160, LONG_SETUP, { seed: 22, undoRate: 0.15 });
    const socket = await open(env.s2.url);
    const ack = await request(socket, 'subscribe', { matchId: m.id });
    if (!ack.ok || ack.detail !== 'full' || 'unchanged' in ack) throw new Error('subscribe refused');
    let version = ack.version;
    let stats = ack.stats;
    const resyncs: number[] = [];
    const lost = new Set([40, 41, 97]);
    const done = new Promise<void>((resolve, reject) => {
      let chain = Promise.resolve();
      socket.on('state', (p: StatePush) => {
        chain = chain
          .then(async () => {
            if (p.version <= version) return;
            if (lost.delete(p.version)) return; // this push is lost on the way
            const next = p.stats && p.stats.since === version ? applyStatsDelta(stats, p.stats) : null;
            if (next) {
              version = p.version;
              stats = next;
            } else {
              resyncs.push(version);
              const again = await request(socket, 'subscribe', { matchId: m.id, sinceVersion: version });
              if (!again.ok || again.detail !== 'full' || 'unchanged' in again) throw new Error('resync refused');
              // The whole sheet at the version of the ack: the server's, and the engine's for that log prefix.
              expect(again.stats).toEqual(statsOf(replay(setup, steps.slice(0, again.version))));
              version = again.version;
              stats = again.stats;
            }
            if (version === steps.length) resolve();
          })
          .catch(reject);
      });
    });
    await recordAll(env.s1.url, m.id, m.scorerToken, steps);
    await done;
    expect(resyncs.length).toBeGreaterThanOrEqual(2);
    expect(stats).toEqual((await api(env.s1.url, `/api/matches/${m.id}`)).body.stats);
    expect(stats).toEqual(statsOf(replay(setup, steps)));
  });

  it('a Rotation race: the scorebug room gets the racks each player won, as the summary card counts them, with the averages', async () => {
    const rotation = { discipline: 'rotation', players: ['Ann', 'Bo'], targets: [240, 240] };
    const m = await createMatch(env.s1.url, rotation);
    // Ann clears rack 1 ball by ball (120 points: she reached 61), and rack 2 opens.
    const rack1: Step[] = Array.from({ length: 15 }, (_, i) => ({ shot: { pocketed: [i + 1] } }));
    const socket = await open(env.s2.url);
    const bug = new Viewer(socket);
    expect(await request(socket, 'subscribe', { matchId: m.id, detail: 'scorebug' })).toMatchObject({ figures: { average: [0, 0], racksWon: [0, 0] } });
    await recordAll(env.s1.url, m.id, m.scorerToken, rack1);
    await bug.waitFor(rack1.length);
    const server = (await api(env.s2.url, `/api/matches/${m.id}`)).body;
    const last = bug.pushes.at(-1)!;
    expect(last.state.rack).toBe(2);
    expect(last.figures!.racksWon).toEqual([1, 0]);
    expect(last.figures!.racksWon).toEqual(racksWon(parseSetup(rotation), server.stats.racks, null));
    expect(last.figures!.average).toEqual([server.stats.players[0].average, server.stats.players[1].average]);
    expect(last.figures!.average[0]).toBeGreaterThan(0);
    // Half-way through rack 1 nobody has won a rack yet.
    expect(bug.pushes[6]!.figures!.racksWon).toEqual([0, 0]);
  });

  it('subscribing again with another detail moves the connection to that room: one push per version', async () => {
    const m = await createMatch(env.s2.url, LONG_SETUP);
    const steps = plausibleSteps(4, LONG_SETUP, { seed: 23 });
    const socket = await open(env.s1.url);
    const viewer = new Viewer(socket);
    expect(await request(socket, 'subscribe', { matchId: m.id, detail: 'scorebug' })).toMatchObject({ ok: true, detail: 'scorebug' });
    await recordAll(env.s2.url, m.id, m.scorerToken, steps.slice(0, 2));
    await viewer.waitFor(2);
    const up = await request(socket, 'subscribe', { matchId: m.id, detail: 'full', sinceVersion: 2 });
    expect(up).toMatchObject({ ok: true, detail: 'full', version: 2 });
    expect(up).toHaveProperty('stats.sheet');
    await recordAll(env.s2.url, m.id, m.scorerToken, steps.slice(2), 2);
    await viewer.waitFor(4);
    await new Promise((r) => setTimeout(r, 200));
    expect(viewer.pushes.map((p) => [p.version, 'stats' in p])).toEqual([
      [1, false],
      [2, false],
      [3, true],
      [4, true],
    ]);
  });
});
