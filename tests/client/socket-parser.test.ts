/**
 * The pages' text-only socket.io codec (overlay/src/lib/socket-parser.ts), which the page builds bundle in place
 * of socket.io-parser, against the official socket.io-parser the server uses:
 * - the same string for every packet the pages send (connect with auth, events with and without an ack id,
 *   acks, disconnect; default and other namespaces), and for random JSON payloads (fast-check);
 * - the same packet from every text the server can send (random payloads too), and the same refusals of
 *   malformed or binary input (the official decoder throws where this one throws);
 * - live: a socket.io-client using it as its `parser` subscribes to a real server, records and hears the push.
 */
import fc from 'fast-check';
import { io, type Socket } from 'socket.io-client';
import * as official from 'socket.io-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ours from '../../overlay/src/lib/socket-parser';
import type { RunningServer } from '../../server/app';
import { PROTOCOL_VERSION, type SubscribeAck } from '../../shared/protocol/wire';
import type { Step } from '../../shared/protocol/steps';
import { api, createMatch, SETUP, startTestServer } from '../helpers/server';

type Packet = ours.Packet;

/** Decode `text` with a decoder: the packet, `{ error: true }` when it throws, null when it waits for more (binary). */
function decode(d: { add(s: unknown): void; on(e: 'decoded', fn: (p: Packet) => void): unknown }, text: unknown): Packet | { error: true } | null {
  let out: Packet | null = null;
  d.on('decoded', (p: Packet) => (out = { ...p }));
  try {
    d.add(text);
  } catch {
    return { error: true };
  }
  return out;
}
const decodeOurs = (text: unknown) => decode(new ours.Decoder(), text);
const decodeOfficial = (text: unknown) => decode(new official.Decoder() as never, text);

const PACKETS: Packet[] = [
  { type: 0, nsp: '/', data: { token: 'abc' } },
  { type: 0, nsp: '/', data: {} },
  { type: 0, nsp: '/admin', data: { sid: 'x' } },
  { type: 1, nsp: '/' },
  { type: 1, nsp: '/admin' },
  { type: 2, nsp: '/', data: ['subscribe', { protocol: PROTOCOL_VERSION, matchId: 'm-1', sinceVersion: 3 }], id: 0 },
  { type: 2, nsp: '/', data: ['unsubscribe', { matchId: 'm-1' }] },
  { type: 2, nsp: '/', data: ['state', { name: 'Ann — 漢字 😀 "quoted" \\ back', n: -1.5, none: null }] },
  { type: 2, nsp: '/admin', data: ['record', {}], id: 12345 },
  { type: 3, nsp: '/', data: [{ ok: true, version: 7 }], id: 7 },
  { type: 3, nsp: '/', data: [], id: 1 },
  { type: 4, nsp: '/', data: { message: 'refused' } },
  { type: 4, nsp: '/', data: 'refused' },
];

describe('the pages\' text-only socket.io codec', () => {
  it('encodes every packet the pages send exactly as socket.io-parser does, and decodes it back the same', () => {
    for (const p of PACKETS) {
      const text = ours.Encoder.prototype.encode.call(new ours.Encoder(), p);
      expect(text, JSON.stringify(p)).toEqual(new official.Encoder().encode(p as never));
      expect(decodeOurs(text[0]), text[0]).toEqual(decodeOfficial(text[0]));
      expect(decodeOurs(text[0])).toEqual(p);
    }
  });

  it('agrees with socket.io-parser on random JSON payloads, ack ids and namespaces, both ways', () => {
    const packet = fc.record({
      type: fc.constantFrom(2, 3),
      nsp: fc.constantFrom('/', '/a', '/live-1'),
      id: fc.option(fc.nat(), { nil: undefined }),
      event: fc.constantFrom('state', 'subscribe', 'x y', '漢字'),
      args: fc.array(fc.jsonValue(), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(packet, ({ type, nsp, id, event, args }) => {
        const p: Packet = { type, nsp, data: type === 2 ? [event, ...args] : args };
        if (id !== undefined) p.id = id;
        const text = new official.Encoder().encode(p as never);
        expect(new ours.Encoder().encode(p)).toEqual(text);
        expect(decodeOurs(text[0])).toEqual(decodeOfficial(text[0]));
      }),
      { numRuns: 400 },
    );
  });

  it('refuses what socket.io-parser refuses (unknown and binary types, bad payloads) and reads the rest alike', () => {
    const texts = [
      'x', '7', '9[]', '5',
      '0', '0[]', '0"s"', '0{bad', '1', '1{}', '1"x"', '2', '2{}', '2[]', '2[{}]', '2["connect"]', '2["disconnect",1]',
      '3', '3{}', '31"x"', '4', '4[1]', '2[unquoted]', '3[1', '2/a', '2/a,', '2/a,7["e"]', '27["e"]',
    ];
    let refused = 0;
    for (const text of texts) {
      const want = decodeOfficial(text);
      if (want && 'error' in want) refused++;
      expect(decodeOurs(text), JSON.stringify(text)).toEqual(want);
    }
    expect(refused).toBeGreaterThan(15); // the list does test refusals
    expect(decodeOurs('')).toEqual({ error: true }); // socket.io-parser reads an empty message as a bare CONNECT
    // Binary events and acks: socket.io-parser waits for their attachments; the pages never get one and refuse it.
    for (const text of ['51-["a",{"_placeholder":true,"num":0}]', '61-0[]']) {
      expect(decodeOfficial(text)).toBeNull();
      expect(decodeOurs(text)).toEqual({ error: true });
    }
    expect(decodeOurs(new Uint8Array([1, 2]))).toEqual({ error: true });
    expect(decodeOurs(new ArrayBuffer(2))).toEqual({ error: true });
  });

  it('stops handing packets to a listener taken off (socket.io-client re-subscribes on every open)', () => {
    const d = new ours.Decoder();
    const seen: Packet[] = [];
    const fn = (p: Packet) => seen.push(p);
    d.on('decoded', fn);
    d.add('2["a"]');
    d.off('decoded', fn);
    d.add('2["b"]');
    expect(seen).toEqual([{ type: 2, nsp: '/', data: ['a'] }]);
  });
});

describe('a socket.io-client speaking it to a real server', () => {
  let server: RunningServer;
  let socket: Socket | null = null;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    socket?.close();
    await server.close();
  });

  it('subscribes, and hears the state pushed after a recorded step', async () => {
    const m = await createMatch(server.url, SETUP);
    socket = io(server.url, { transports: ['websocket'], forceNew: true, parser: ours as never });
    const pushed = new Promise<{ version: number }>((resolve) => socket!.on('state', resolve));
    const ack = (await socket.timeout(5000).emitWithAck('subscribe', { protocol: PROTOCOL_VERSION, matchId: m.id })) as SubscribeAck;
    expect(ack).toMatchObject({ ok: true, matchId: m.id, version: m.version });
    const step: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
    const res = await api(server.url, `/api/matches/${m.id}/events`, { token: m.scorerToken, body: { eventId: 'parser-1', step } });
    expect(res.status).toBe(201);
    expect((await pushed).version).toBe(m.version + 1);
  });
});
