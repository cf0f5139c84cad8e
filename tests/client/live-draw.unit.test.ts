/**
 * The live client's draw subscription (web/src/lib/live-draw.ts) over a fake port: the answer sets the draw, each
 * push that follows the view held applies its delta (shared/draw `withDelta`), and a push that does not — a gap
 * in the entries, a draw made again (`from` −1, another `createdAt`) — asks the server again; a push already in
 * the view is dropped; an answer older than a push already applied does not take the view back.
 */
import { describe, expect, it } from 'vitest';
import { applyDrawEntry, drawDelta, drawView, newDraw, type DrawDefinition, type DrawState } from '../../shared/draw/index';
import type { DrawPage, DrawPush } from '../../shared/protocol/draw';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import { openConnection } from '../../web/src/lib/live-connection';
import { drawClient } from '../../web/src/lib/live-draw';
import { FakeDocument, FakePort } from '../helpers/fake-port';

const DEF: DrawDefinition = { format: 'single', players: [1, 2, 3, 4].map((i) => ({ id: `p${i}` })), seeding: { by: 'order' }, races: { default: 5 } };
const CREATED = 1_796_300_000_000;

/** The draw after `n` results (the better seed wins each ready match). */
function after(n: number): DrawState {
  let s = newDraw(DEF) as DrawState;
  for (let i = 0; i < n; i++) {
    const m = drawView(s).matches.find((x) => x.status === 'ready')!;
    const r = applyDrawEntry(s, { t: 'result', match: m.id, winner: m.players[0]!, kind: 'win' });
    if ('error' in r) throw new Error(r.error.message);
    s = r.state;
  }
  return s;
}
const page = (n: number, createdAt = CREATED): DrawPage => ({
  eventId: 'ev1',
  eventName: 'Open',
  version: n,
  createdAt,
  format: 'single',
  players: DEF.players.map((p) => ({ id: p.id, name: p.id.toUpperCase() })),
  tables: [],
  draw: drawView(after(n)),
});
const push = (n: number, createdAt = CREATED): DrawPush => ({
  eventId: 'ev1',
  version: n,
  createdAt,
  delta: drawDelta(drawView(after(n - 1)), drawView(after(n))),
});

function setUp() {
  const port = new FakePort();
  const connection = openConnection(port, { document: new FakeDocument(), retryRefusedMs: () => 10 });
  const seen: DrawPage[] = [];
  const stop = drawClient({ connection }).watchDraw('ev1', (p) => seen.push(p));
  port.open();
  return { port, seen, stop };
}

describe('draw subscriptions of the live client', () => {
  it('the answer, then each push that follows it applied; a push already held dropped', () => {
    const { port, seen } = setUp();
    expect(port.asked.subscribeDraw[0]!.req).toEqual({ protocol: PROTOCOL_VERSION, eventId: 'ev1' });
    port.answer('subscribeDraw', { ok: true, ...page(0) });
    port.pushDraw(push(1));
    port.pushDraw(push(1)); // again: already in the view
    port.pushDraw(push(2));
    expect(seen.map((p) => p.draw.entries)).toEqual([0, 1, 2]);
    expect(seen[2]!.draw).toEqual(drawView(after(2)));
    expect(port.count('subscribeDraw')).toBe(1);
  });

  it('a gap, or a draw made again, asks again; the answer then sets the view', () => {
    const { port, seen } = setUp();
    port.answer('subscribeDraw', { ok: true, ...page(0) });
    port.pushDraw(push(2)); // entry 1 missed
    expect(port.count('subscribeDraw')).toBe(2);
    port.answer('subscribeDraw', { ok: true, ...page(2) });
    expect(seen.map((p) => p.draw.entries)).toEqual([0, 2]);
    port.pushDraw({ ...push(3), delta: { ...push(3).delta, from: -1 } });
    expect(port.count('subscribeDraw')).toBe(3);
    port.answer('subscribeDraw', { ok: true, ...page(0, CREATED + 5) }); // made again: version 0 of a newer draw
    expect(seen[seen.length - 1]).toMatchObject({ version: 0, createdAt: CREATED + 5 });
    port.pushDraw(push(1)); // a push of the old draw: asks again rather than mixing two draws
    expect(port.count('subscribeDraw')).toBe(4);
  });

  it('an answer older than the view held is dropped; leaving tells the server', () => {
    const { port, seen, stop } = setUp();
    port.answer('subscribeDraw', { ok: true, ...page(1) });
    port.pushDraw(push(3)); // a gap: asks again
    port.answer('subscribeDraw', { ok: true, ...page(0) }); // older than held
    expect(seen.map((p) => p.draw.entries)).toEqual([1]);
    stop();
    expect(port.told).toContainEqual({ event: 'unsubscribeDraw', req: { eventId: 'ev1' } });
  });
});
