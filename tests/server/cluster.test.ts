/**
 * Redis Cluster mode against a real 3-master cluster (Debian's redis-server, started by the suite on free
 * ports of 127.0.0.1): two instances — one in process, one a child process configured by the environment
 * (REDIS_CLUSTER_URLS) — share it through the sharded Socket.IO adapter (SPUBLISH). Pushes reach viewers on
 * both instances, every version in order; every key of a match lands in one slot (the append script and the
 * creation MULTI run there); the listing spans slots; the log survives a kill -9 and restart of an instance.
 * A match's two rooms (`match:<id>` with statistics deltas, `scorebug:<id>` without) each have a shard channel;
 * its checkpoint is a key of the match's slot, and another instance loads the match from it.
 * Events too: made, given matches and switched on one instance, seen on the other (table and event rooms on
 * their own shard channels), each event's document in its own slot and each match's event links in the match's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createCluster } from 'redis';
import { testPrefix } from '../helpers/redis';
import { cli, requireRedisCluster, spawnRedisCluster, type RedisClusterHandle } from '../helpers/redis-cluster';
import {
  api,
  connect,
  createMatch,
  legalSteps,
  LONG_SETUP,
  plausibleSteps,
  spawnServer,
  startTestServer,
  request,
  Viewer,
  type ChildServer,
  type Client,
} from '../helpers/server';
import { CHECKPOINT_EVERY } from '../../server/matches/live-cache';
import type { RunningServer } from '../../server/app';
import type { EventLivePush, TableState } from '../../shared/protocol/event';
import { createEvent, EVENT, recordStep, stepsToWin, TableWatcher, tableMatch } from '../helpers/events';

const available = requireRedisCluster();
const steps = legalSteps(60);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/**
 * The versions a viewer saw, as a client keeps them: a repeat of the latest version (a resync push: see the
 * first-viewer test) is dropped; an older version is kept, so a push out of order shows.
 */
const kept = (v: Viewer) => v.pushes.map((p) => p.version).filter((ver, i, all) => i === 0 || ver !== all[i - 1]);

describe.skipIf(!available)('Redis Cluster (3 masters, sharded pub/sub)', () => {
  const prefix = testPrefix('cluster');
  let cluster: RedisClusterHandle;
  let inProcess: RunningServer;
  let child: ChildServer;
  const clients: Client[] = [];
  const env = () => ({ REDIS_CLUSTER_URLS: cluster.urls.join(','), REDIS_PREFIX: prefix });
  const open = async (url: string, token?: string) => {
    const c = await connect(url, token);
    clients.push(c);
    return c;
  };
  const watch = async (url: string, matchId: string) => {
    const v = new Viewer(await open(url));
    const ack = await request(v.socket, 'subscribe', { matchId });
    expect(ack).toMatchObject({ ok: true });
    if (ack.ok) v.seen(ack.version);
    return v;
  };
  const record = async (scorer: Client, matchId: string, from: number, to: number) => {
    for (let v = from; v <= to; v++) {
      const ack = await request(scorer, 'record', { matchId, stepId: `e${v}`, expectedVersion: v - 1, step: steps[v - 1] });
      expect(ack).toMatchObject({ ok: true, version: v });
    }
  };

  /** A new match on the in-process instance, a viewer on each instance, its scorer there, `steps` recorded and seen. */
  const scene = async (steps: number) => {
    const m = await createMatch(inProcess.url);
    const remote = await watch(child.url, m.id);
    const local = await watch(inProcess.url, m.id);
    const scorer = await open(inProcess.url, m.scorerToken);
    await record(scorer, m.id, 1, steps);
    await Promise.all([remote.waitFor(steps), local.waitFor(steps)]);
    return { m, remote, local, scorer };
  };

  beforeAll(async () => {
    cluster = await spawnRedisCluster(3);
    // One seed node is enough: the client discovers the other masters.
    inProcess = await startTestServer({ redisClusterUrls: [cluster.urls[1]!], redisPrefix: prefix });
    child = await spawnServer(env());
  }, 60_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await inProcess?.close();
    await child?.kill();
    await cluster?.dispose();
  });

  it('starts in cluster mode and reports it healthy', async () => {
    for (const url of [inProcess.url, child.url]) {
      expect(await api(url, '/healthz')).toMatchObject({ status: 200, body: { ok: true, store: 'redis', redis: 'cluster' } });
    }
  });

  it('a scorer on one instance, viewers on both: every push reaches them, in order', async () => {
    const { remote, local } = await scene(40);
    expect(kept(remote)).toEqual(range(1, 40));
    expect(kept(local)).toEqual(range(1, 40));
    expect(remote.pushes[39]!.state).toEqual(local.pushes[39]!.state);

    // And the other way round: the scorer on the child process, a viewer in process.
    const other = await createMatch(child.url);
    const viewer = await watch(inProcess.url, other.id);
    await record(await open(child.url, other.scorerToken), other.id, 1, 10);
    await viewer.waitFor(10);
    expect(kept(viewer)).toEqual(range(1, 10));
  });

  it("pushes a match's state to an instance's first viewer once that instance's subscription is in place", async () => {
    // The shard channel of a room is subscribed when its first viewer here joins, one round trip after the
    // subscribe's read: the state is pushed again then, so a step recorded in between is not missed.
    const m = await createMatch(inProcess.url);
    await record(await open(inProcess.url, m.scorerToken), m.id, 1, 3);
    const viewer = await watch(child.url, m.id);
    const deadline = Date.now() + 5000;
    while (!viewer.pushes.some((p) => p.version === 3) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(viewer.pushes.map((p) => p.version)).toEqual([3]);
  });

  it('keeps every key of a match in one slot, on one master; the listing spans slots', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const m = await createMatch(child.url);
      await record(await open(inProcess.url, m.scorerToken), m.id, 1, 2);
      ids.push(m.id);
    }
    const slotsUsed = new Set<string>();
    for (const id of ids) {
      const keys = ['log', 'meta', 'eids', 'snap'].map((part) => `${prefix}{m:${id}}:${part}`);
      const slots = new Set(await Promise.all(keys.map(async (k) => (await cli(cluster.ports[0]!, 'cluster', 'keyslot', k)).trim())));
      expect(slots.size, id).toBe(1);
      slotsUsed.add([...slots][0]!);
      // Exactly one master holds all four (the others answer MOVED).
      const counts = await Promise.all(cluster.ports.map(async (p) => (await cli(p, 'exists', ...keys)).trim()));
      expect(
        counts.filter((c) => c === '4'),
        `${id}: ${counts.join(' | ')}`,
      ).toHaveLength(1);
    }
    expect(slotsUsed.size).toBe(ids.length);
    const listed = await api(inProcess.url, '/api/matches');
    expect(listed.status).toBe(200);
    const rows = listed.body.matches as { id: string; version: number }[];
    for (const id of ids) expect(rows.find((r) => r.id === id)).toMatchObject({ version: 2 });

    // The same through a cluster client: the keys exist where the hash tag sends them.
    const c = createCluster({ rootNodes: [{ url: cluster.urls[0]! }] });
    c.on('error', () => undefined);
    await c.connect();
    try {
      expect(await c.xLen(`${prefix}{m:${ids[0]}}:log`)).toBe(2);
      expect(await c.zScore(`${prefix}matches`, ids[0]!)).toBeGreaterThan(0);
    } finally {
      await c.close();
    }
  });

  it("a match's scorebug room has a shard channel of its own: its viewers get every state and no statistics", async () => {
    const m = await createMatch(inProcess.url);
    const bug = new Viewer(await open(child.url));
    const ack = await request(bug.socket, 'subscribe', { matchId: m.id, detail: 'scorebug' });
    expect(ack).toMatchObject({ ok: true, detail: 'scorebug', version: 0 });
    expect(ack).not.toHaveProperty('stats');
    const full = await watch(child.url, m.id);
    await record(await open(inProcess.url, m.scorerToken), m.id, 1, 12);
    await Promise.all([bug.waitFor(12), full.waitFor(12)]);
    expect(kept(bug)).toEqual(range(1, 12));
    expect(kept(full)).toEqual(range(1, 12));
    expect(bug.pushes.every((p) => p.stats === undefined)).toBe(true);
    // The full room's pushes carry what changed since the version before (a resync push may carry none).
    expect(full.pushes.every((p) => p.stats === undefined || p.stats.since === p.version - 1)).toBe(true);
    expect(full.pushes.at(-1)!.stats?.since).toBe(11);
    expect(bug.pushes.at(-1)!.state).toEqual(full.pushes.at(-1)!.state);
    // Each room is one shard channel, subscribed on the master of its slot.
    for (const room of [`match:${m.id}`, `scorebug:${m.id}`]) {
      const channel = `${prefix}socket.io#/#${room}#`;
      expect((await cli(await cluster.masterOf(channel), 'pubsub', 'shardchannels', channel)).trim()).toBe(channel);
    }
  });

  it("stores a match's checkpoint in the match's slot; an instance that never loaded the match loads it from there", async () => {
    const m = await createMatch(inProcess.url, LONG_SETUP);
    const plays = plausibleSteps(CHECKPOINT_EVERY + 5, LONG_SETUP, { seed: 5 });
    const scorer = await open(inProcess.url, m.scorerToken);
    for (const [i, step] of plays.entries()) {
      expect(await request(scorer, 'record', { matchId: m.id, stepId: `c${i + 1}`, expectedVersion: i, step })).toMatchObject({ ok: true, version: i + 1 });
    }
    const ckpt = `${prefix}{m:${m.id}}:ckpt`;
    expect((await cli(cluster.ports[0]!, 'cluster', 'keyslot', ckpt)).trim()).toBe(
      (await cli(cluster.ports[0]!, 'cluster', 'keyslot', `${prefix}{m:${m.id}}:log`)).trim(),
    );
    const c = createCluster({ rootNodes: [{ url: cluster.urls[0]! }] });
    c.on('error', () => undefined);
    await c.connect();
    try {
      // Written by the append script of step CHECKPOINT_EVERY, with the step (so the later steps' appends did not replace it).
      expect(JSON.parse((await c.get(ckpt)) ?? 'null')?.version ?? null).toBe(CHECKPOINT_EVERY);
    } finally {
      await c.close();
    }
    // The child loads the match (its checkpoint and the 5 steps after it) and agrees with the instance that recorded it.
    const [a, b] = await Promise.all([api(inProcess.url, `/api/matches/${m.id}`), api(child.url, `/api/matches/${m.id}`)]);
    expect(b.body.version).toBe(CHECKPOINT_EVERY + 5);
    expect(b.body).toEqual(a.body);
    // And records there: an undo, then the step again.
    const there = await open(child.url, m.scorerToken);
    const v = CHECKPOINT_EVERY + 5;
    expect(await request(there, 'record', { matchId: m.id, stepId: 'u', expectedVersion: v, step: { undo: true } })).toMatchObject({
      ok: true,
      version: v + 1,
    });
    expect(await request(there, 'record', { matchId: m.id, stepId: 'r', expectedVersion: v + 1, step: plays[v - 1]! })).toMatchObject({
      ok: true,
      version: v + 2,
    });
    const [a2, b2] = await Promise.all([api(inProcess.url, `/api/matches/${m.id}`), api(child.url, `/api/matches/${m.id}`)]);
    expect(b2.body).toEqual(a2.body);
    expect(b2.body.state).toEqual(a.body.state);
  }, 60_000);

  it('runs an event across both instances: tables switch, live lines and cards arrive; one slot per event, links in the match slots', async () => {
    const ev = await createEvent(child.url);
    const auth = { token: ev.organiserToken };
    // A table follower on the in-process instance, the organiser's event room on the child.
    const viewer = await open(inProcess.url);
    const table = new TableWatcher(viewer);
    const first = await request(viewer, 'subscribeTable', { eventId: ev.id, table: 'tv-table' });
    expect(first).toMatchObject({ ok: true, eventName: EVENT.name, current: null, next: null });
    // The table room's first viewer here: its state is pushed again once the shard channel is subscribed.
    await table.waitFor((t) => t.version === (first as TableState).version, 'again after the room subscription');
    const organiser = await open(child.url);
    const lines: EventLivePush[] = [];
    organiser.on('eventLive', (l) => lines.push(l));
    expect(await request(organiser, 'subscribeEvent', { eventId: ev.id })).toMatchObject({ ok: true });

    // Match 1 made for the table and put on at once (child), match 2 an existing match assigned next (in process).
    const m1 = await tableMatch(child.url, ev, 'tv-table', ['p1', 'p2'], true);
    expect(await table.waitFor((t) => t.current === m1.id, 'with match 1 current')).toMatchObject({ cards: { show: 'intro', matchId: m1.id } });
    const m2 = await createMatch(inProcess.url);
    expect((await api(inProcess.url, `/api/events/${ev.id}/tables/tv-table/assign`, { ...auth, body: { matchId: m2.id } })).status).toBe(200);
    await table.waitFor((t) => t.next === m2.id, 'with match 2 next');

    // Match 1 played to its end on the in-process instance: the live lines reach the organiser on the child
    // (the match's event links are read across slots), the win puts the summary up on the table.
    const win = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] });
    for (const step of win) await recordStep(inProcess.url, m1, step);
    await expect.poll(() => lines.at(-1)?.line.version, { timeout: 10_000 }).toBe(win.length);
    expect(lines.every((l) => l.eventId === ev.id && l.line.matchId === m1.id)).toBe(true);
    await table.waitFor((t) => t.cards.show === 'summary' && t.cards.matchId === m1.id, 'with the summary of match 1');

    // The next match started from the child: the in-process follower switches.
    expect((await api(child.url, `/api/events/${ev.id}/tables/tv-table/start`, { ...auth, body: {} })).status).toBe(200);
    expect(await table.waitFor((t) => t.current === m2.id, 'with match 2 current')).toMatchObject({ next: null });
    const versions = table.pushes.map((p) => p.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));

    // The event's document is one key of one slot, on one master; each match's event links live in the match's slot.
    const slot = async (key: string) => (await cli(cluster.ports[0]!, 'cluster', 'keyslot', key)).trim();
    const doc = `${prefix}{e:${ev.id}}:doc`;
    const holders = await Promise.all(cluster.ports.map(async (p) => (await cli(p, 'exists', doc)).trim()));
    expect(holders.filter((h) => h === '1')).toHaveLength(1);
    for (const m of [m1, m2]) {
      const links = `${prefix}{m:${m.id}}:event-links`;
      expect(await slot(links)).toBe(await slot(`${prefix}{m:${m.id}}:log`));
      const c = createCluster({ rootNodes: [{ url: cluster.urls[0]! }] });
      c.on('error', () => undefined);
      await c.connect();
      try {
        expect(await c.hKeys(links)).toEqual([ev.id]);
      } finally {
        await c.close();
      }
    }
    const listed = await api(inProcess.url, '/api/events');
    expect(listed.body.events.map((e: { id: string }) => e.id)).toContain(ev.id);
    expect((await api(inProcess.url, `/api/events/${ev.id}`)).body).toMatchObject({ tables: [{ id: 'table-1' }, { id: 'tv-table', current: m2.id }] });
  }, 60_000);

  it('resyncs viewers after a subscriber connection was dropped: a push published meanwhile is not lost for good', async () => {
    const { m, remote, scorer } = await scene(2);
    // On the master of the room's channel, drop the subscriber connections and, in the same transaction, take
    // no new connection (maxclients = those left): the child process cannot subscribe again, so the push of
    // version 3 reaches no one there. Once it may reconnect, only the resync after its reconnection brings
    // version 3 to its viewer (no further step is recorded).
    const admin = createClient({ url: `redis://127.0.0.1:${await cluster.masterOf(`${prefix}socket.io#/#match:${m.id}#`)}` });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      const clientsNow = (await admin.clientList()).length;
      const subscribers = (await admin.clientList({ TYPE: 'PUBSUB' })).length;
      expect(subscribers).toBeGreaterThan(0);
      await admin
        .multi()
        .clientKill({ filter: 'TYPE', type: 'pubsub' })
        .configSet('maxclients', String(clientsNow - subscribers))
        .exec();
      await record(scorer, m.id, 3, 3);
      await new Promise((r) => setTimeout(r, 300));
      expect(remote.latest).toBe(2);
      await admin.configSet('maxclients', '10000');
    } finally {
      await admin.configSet('maxclients', '10000').catch(() => undefined);
      await admin.close();
    }
    await remote.waitFor(3, 10_000);
    expect(kept(remote).at(-1)).toBe(3);
  });

  it("after a crash and restart of the master serving a match's channel, viewers on both instances catch up", async () => {
    const { m, remote, local, scorer } = await scene(3);
    // Kill the master of the room's shard channel: subscriptions on it are gone until the subscribers reconnect,
    // and what is published meanwhile reaches no one there. The instances resync their viewers after.
    await cluster.restart(await cluster.masterOf(`${prefix}socket.io#/#match:${m.id}#`));
    for (let v = 4; v <= 6; v++) {
      // While a master is away its commands wait or fail: retry with the same stepId (a retry records once).
      const deadline = Date.now() + 15_000;
      for (;;) {
        const ack = await request(scorer, 'record', { matchId: m.id, stepId: `e${v}`, expectedVersion: v - 1, step: steps[v - 1] }).catch(() => null);
        if (ack?.ok) break;
        if (Date.now() > deadline) throw new Error(`record v${v} still failing: ${JSON.stringify(ack)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    await Promise.all([remote.waitFor(6, 15_000), local.waitFor(6, 15_000)]);
    expect(kept(remote).at(-1)).toBe(6);
    expect(kept(local).at(-1)).toBe(6);
    expect((await api(child.url, `/api/matches/${m.id}/steps`)).body.version).toBe(6);
  }, 60_000);

  it('keeps the whole log through a kill -9 and restart of an instance, and pushes resume across instances', async () => {
    const m = await createMatch(child.url);
    const viewer = await watch(inProcess.url, m.id);
    await record(await open(child.url, m.scorerToken), m.id, 1, 20);
    // (A push published by a process killed right after its ack may be lost; clients see the gap and resync.)
    await viewer.waitFor(20);
    await child.kill();
    child = await spawnServer(env());
    const log = await api(child.url, `/api/matches/${m.id}/steps`);
    expect(log.status).toBe(200);
    expect(log.body.steps.map((e: { version: number; stepId: string }) => [e.version, e.stepId])).toEqual(range(1, 20).map((v) => [v, `e${v}`]));
    expect(log.body.steps.map((e: { step: unknown }) => e.step)).toEqual(steps.slice(0, 20));
    await record(await open(child.url, m.scorerToken), m.id, 21, 25);
    await viewer.waitFor(25);
    expect(kept(viewer)).toEqual(range(1, 25));
  });
});
