/**
 * The draw page's live feed (issue 27) on a server over the real Redis: `subscribeDraw` answers the whole draw with
 * the players' names (or `not-found` naming `eventId` / `draw`, `protocol-mismatch` for another version); after each
 * change of the draw — a result, a correction, a match put on a table by autopilot — the room gets a `draw` push
 * that, applied to the view held (shared/draw `withDelta`), gives exactly the draw `GET /api/events/<id>/draw`
 * answers, each push ≤ 8 KB; a draw made again pushes `from: -1` (subscribe again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { withDelta, type DrawView } from '../../shared/draw/index';
import type { DrawPush, SubscribeDrawAck } from '../../shared/protocol/draw';
import { createEvent, EVENT, type CreatedEvent } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, call, connect, request, startTestServer, type Client } from '../helpers/server';

const redis = await requireRedis();
const ROSTER = Array.from({ length: 16 }, (_, i) => ({ name: `Player ${String.fromCharCode(65 + i)}`, country: i % 2 ? 'DE' : 'JP', rating: 700 - i }));

/** The `draw` pushes a socket receives, in order. */
class DrawWatcher {
  pushes: DrawPush[] = [];
  bytes: number[] = [];
  constructor(socket: Client) {
    socket.on('draw', (p) => {
      this.pushes.push(p);
      this.bytes.push(Buffer.byteLength(JSON.stringify(p)));
    });
  }
  async next(count: number): Promise<DrawPush> {
    await expect.poll(() => this.pushes.length, { timeout: 5000 }).toBeGreaterThanOrEqual(count);
    return this.pushes[count - 1]!;
  }
}

describe.skipIf(!redis.available)('draw pushes over Socket.IO', () => {
  const prefix = testPrefix('draw-push');
  let s: RunningServer;
  let ev: CreatedEvent;
  const sockets: Client[] = [];
  const draw = (path = '', body?: unknown) => api(s.url, `/api/events/${ev.id}/draw${path}`, { body, token: ev.organiserToken });

  beforeAll(async () => {
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    ev = await createEvent(s.url, { ...EVENT, tables: ['Table 1', 'Table 2', 'Table 3', 'TV table'], roster: ROSTER });
  });
  afterAll(async () => {
    for (const c of sockets) c.close();
    await s?.close();
    await dropPrefix(redis.url, prefix);
  });
  const open = async () => {
    const c = await connect(s.url);
    sockets.push(c);
    return c;
  };

  it('refuses a subscription naming the field: no event, no draw yet, another protocol version', async () => {
    const c = await open();
    expect(await request(c, 'subscribeDraw', { eventId: 'nope' })).toMatchObject({ ok: false, error: { code: 'not-found', field: 'eventId' } });
    expect(await request(c, 'subscribeDraw', { eventId: ev.id })).toMatchObject({ ok: false, error: { code: 'not-found', field: 'draw' } });
    expect(await call(c, 'subscribeDraw', { protocol: 3, eventId: ev.id })).toMatchObject({ ok: false, error: { code: 'protocol-mismatch' } });
    expect(await call(c, 'subscribeDraw', { protocol: 4, eventId: 'a/b' })).toMatchObject({ ok: false, error: { field: 'eventId' } });
  });

  it('each change pushes what changed (≤ 8 KB), which applied to the view held gives the stored draw', async () => {
    expect((await draw('', { format: 'double', trueDouble: true, seeding: 'rating', races: { default: 7, sides: { L: 5 } } })).status).toBe(201);
    const c = await open();
    const watcher = new DrawWatcher(c);
    const ack = (await request(c, 'subscribeDraw', { eventId: ev.id })) as Extract<SubscribeDrawAck, { ok: true }>;
    expect(ack).toMatchObject({ ok: true, eventName: 'Friday League', format: 'double', version: 0 });
    expect(ack.players).toHaveLength(16);
    expect(ack.players[0]).toMatchObject({ id: 'p1', name: 'Player A', country: 'JP', rating: 700 });
    expect(ack.tables.map((t) => t.name)).toEqual(['Table 1', 'Table 2', 'Table 3', 'TV table']);
    let view: DrawView = ack.draw;
    const stored = async () => (await draw()).body.draw.draw as DrawView;
    /** Apply push `n` (it must follow the view held); `check`: the view is then the stored draw. */
    const follow = async (n: number, check = true) => {
      const p = await watcher.next(n);
      expect(p.delta.from).toBe(view.entries);
      expect(p.createdAt).toBe(ack.createdAt);
      view = withDelta(view, p.delta);
      if (check) expect(view).toEqual(await stored());
    };

    // Results, in bracket order: the winner goes on, the loser to the losers' side.
    const w11 = view.matches.find((m) => m.id === 'W1-1')!;
    expect((await draw('/results', { match: 'W1-1', winner: w11.players[0], kind: 'win', score: [7, 3], highRun: [5, 2], innings: 9 })).status).toBe(200);
    await follow(1);
    expect(view.matches.find((m) => m.id === 'W2-1')!.players[0]).toBe(w11.players[0]);
    expect(view.matches.find((m) => m.id === 'L1-1')!.players[0]).toBe(w11.players[1]);
    const w12 = view.matches.find((m) => m.id === 'W1-2')!;
    expect((await draw('/results', { match: 'W1-2', winner: w12.players[1], kind: 'walkover' })).status).toBe(200);
    await follow(2);
    // A correction (nothing that depends on it has started): the other player goes on.
    expect((await draw('/results', { match: 'W1-1', winner: w11.players[1], kind: 'retired', score: [2, 1] })).status).toBe(200);
    await follow(3);
    expect(view.matches.find((m) => m.id === 'W2-1')!.players[0]).toBe(w11.players[1]);
    // Autopilot: each match put on a table is a change of the draw (its start), pushed too.
    expect((await draw('/autopilot', { on: true })).status).toBe(200);
    await expect.poll(async () => (await stored()).matches.filter((m) => m.status === 'playing').length, { timeout: 10_000 }).toBe(4);
    for (let n = 4; n <= 6; n++) await follow(n, false);
    await follow(7);
    expect(
      view.matches
        .filter((m) => m.status === 'playing')
        .map((m) => m.table)
        .sort(),
    ).toEqual(['table-1', 'table-2', 'table-3', 'tv-table']);
    expect(view.matches.filter((m) => m.status === 'playing').every((m) => typeof m.matchId === 'string')).toBe(true);
    // Each match the draw put on a table carries its round and bracket place: the event's match and the table's state.
    const event = (await api(s.url, `/api/events/${ev.id}`)).body as { matches: { id: string; draw?: { match: string; round: string } }[] };
    for (const m of view.matches.filter((x) => x.status === 'playing')) {
      expect(event.matches.find((e) => e.id === m.matchId)!.draw).toEqual({ match: m.id, side: m.side, round: m.round, roundName: m.roundName });
      const table = await request(c, 'subscribeTable', { eventId: ev.id, table: m.table! });
      expect(table).toMatchObject({ ok: true, current: m.matchId, currentDraw: { match: m.id, round: m.round } });
    }
    expect(Math.max(...watcher.bytes)).toBeLessThanOrEqual(8 * 1024);
    expect(watcher.pushes.map((p) => p.version)).toEqual([...watcher.pushes.map((p) => p.version)].sort((a, b) => a - b));

    // Made again (cancelled): `from: -1` says the view held no longer applies.
    expect((await draw('', { format: 'single', races: { default: 5 }, cancel: true })).status).toBe(201);
    await expect.poll(() => watcher.pushes.some((p) => p.delta.from === -1), { timeout: 5000 }).toBe(true);
    const again = (await request(c, 'subscribeDraw', { eventId: ev.id })) as Extract<SubscribeDrawAck, { ok: true }>;
    expect(again.format).toBe('single');
    expect(again.createdAt).toBeGreaterThanOrEqual(ack.createdAt);
  });
});
