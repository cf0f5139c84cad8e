/**
 * Shared replies (server/transport/shared-replies.ts): the encoder writes the same packets as Socket.IO's stock
 * encoder for every kind of packet (shared acks, plain acks, events, binary, other namespaces), a shared ack's
 * pre-encoded WebSocket frame is the frame the WebSocket library makes of that text (every length class), a
 * shared reply's JSON is built once, and real connections subscribing to one match at one version get equal
 * whole answers.
 */
import fc from 'fast-check';
import { Encoder, PacketType, type Packet } from 'socket.io-parser';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { preEncodeSharedAck, replyBytes, SharedAck, shareReply, SharedReplyEncoder } from '../../server/transport/shared-replies';
import { connect, createMatch, LONG_SETUP, plausibleSteps, request, startTestServer, tempDirs, type Client } from '../helpers/server';

const dirs = tempDirs();
const stock = new Encoder();
const mine = new SharedReplyEncoder();
/** ws's own framing (not in its type declarations): what engine.io's broadcasts pre-encode with. */
const { Sender } = ws as unknown as { Sender: { frame(data: Buffer, o: object): Buffer[] } };
/** Our encoder's packets as text, as a client reads them. */
const text = (p: Packet) => mine.encode(p).map(String);
/** The WebSocket frame `ws` makes of one engine.io message (`4` + the Socket.IO packet's text). */
const wsFrame = (packetText: string) =>
  Buffer.concat(Sender.frame(Buffer.from(`4${packetText}`), { readOnly: false, mask: false, rsv1: false, opcode: 1, fin: true }));

/** JSON-like values (strings with quotes, escapes, non-Latin-1 text and lone surrogates; nested objects). */
const jsonValue = fc.jsonValue({ maxDepth: 4 });
const reply = fc.dictionary(fc.string({ unit: 'binary' }), jsonValue, { maxKeys: 6 });

describe('the shared-reply encoder', () => {
  it('writes what the stock encoder writes, for shared and plain acks, events, ids and namespaces', () => {
    fc.assert(
      fc.property(
        reply,
        fc.constantFrom(PacketType.ACK, PacketType.EVENT),
        fc.option(fc.nat(), { nil: undefined }),
        fc.constantFrom('/', '/admin', undefined),
        fc.boolean(),
        (data, type, id, nsp, shared) => {
          const arg = shared ? shareReply(structuredClone(data)) : data;
          const packet = { type, id, nsp, data: type === PacketType.EVENT ? ['state', arg] : [arg] } as Packet;
          // Twice: the first encode builds the shared JSON, the second reuses it.
          const want = stock.encode(packet);
          expect(text(packet)).toEqual(want);
          expect(text(packet)).toEqual(want);
          const [out] = mine.encode(packet);
          expect(out instanceof SharedAck).toBe(shared && type === PacketType.ACK);
          if (out instanceof SharedAck) {
            expect(Buffer.concat(out.frame())).toEqual(wsFrame(want[0]));
            expect(out.length).toBe(Buffer.byteLength(want[0]));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves binary replies, several arguments and non-ack packets to the stock encoder', () => {
    const packets: Packet[] = [
      { type: PacketType.ACK, id: 7, nsp: '/', data: [shareReply({ a: 1 }), shareReply({ b: 2 })] },
      { type: PacketType.EVENT, nsp: '/', data: ['x', shareReply({ a: 1 })] },
      { type: PacketType.CONNECT, nsp: '/', data: { sid: 'abc' } },
      { type: PacketType.ACK, id: 8, nsp: '/', data: [{ logo: Buffer.from([1, 2, 3]) }] },
    ];
    for (const p of packets) expect(mine.encode(p)).toEqual(stock.encode(p));
    expect(stock.encode(packets[3]!)).toHaveLength(2); // the binary one really is sent as a packet and an attachment
  });

  it('frames shared acks of every length class (7-bit, 16-bit, 64-bit lengths) as ws does, and marks their engine.io packets', () => {
    for (const n of [0, 100, 118, 119, 120, 125, 126, 65_520, 65_530, 65_536, 70_000, 300_000]) {
      const r = shareReply({ s: 'x'.repeat(n) });
      const packet = { type: PacketType.ACK, id: 12, nsp: '/', data: [r] } as Packet;
      const [out] = mine.encode(packet);
      const got = Buffer.concat((out as SharedAck).frame());
      const want = wsFrame(stock.encode(packet)[0]);
      // Buffer.equals: a byte-wise toEqual of 300 KB takes seconds.
      expect(
        got.equals(want),
        `reply of ${n} characters: ${got.subarray(0, 16).toString('hex')} vs ${want.subarray(0, 16).toString('hex')}, ${got.length} vs ${want.length} bytes`,
      ).toBe(true);
      const enginePacket: { data: unknown; options?: { compress?: boolean; wsPreEncodedFrame?: Buffer[] } } = { data: out, options: { compress: true } };
      preEncodeSharedAck(enginePacket);
      const pre = enginePacket.options?.wsPreEncodedFrame;
      expect(enginePacket.options?.compress).toBe(true);
      expect(pre && Buffer.concat(pre).equals(got)).toBe(true);
    }
    const plain: { data: unknown; options?: object } = { data: '3[{}]', options: {} };
    preEncodeSharedAck(plain);
    expect(plain.options).toEqual({});
  });

  it('builds a shared reply’s JSON once: later changes to the object are not seen (it must not change)', () => {
    const r = shareReply({ sheet: [1, 2, 3] });
    const first = text({ type: PacketType.ACK, id: 1, nsp: '/', data: [r] });
    r.sheet.push(4);
    expect(text({ type: PacketType.ACK, id: 1, nsp: '/', data: [r] })).toEqual(first);
    expect(replyBytes(r)).toBe(JSON.stringify({ sheet: [1, 2, 3] }).length);
    // A plain reply is measured as it is now.
    const plain = { sheet: [1, 2, 3] };
    expect(replyBytes(plain)).toBe(JSON.stringify(plain).length);
  });
});

describe('shared whole answers over real connections', () => {
  let server: RunningServer;
  const sockets: Client[] = [];
  beforeAll(async () => {
    server = await startTestServer({ dataDir: dirs('shared') });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  it('connections asking for one match at one version get equal answers; a newer version a newer answer', async () => {
    const m = await createMatch(server.url, LONG_SETUP);
    const scorer = await connect(server.url, m.scorerToken);
    sockets.push(scorer);
    const steps = plausibleSteps(301, LONG_SETUP, { seed: 5, undoRate: 0 });
    for (let i = 0; i < 300; i++)
      expect(await request(scorer, 'record', { matchId: m.id, stepId: `s${i}`, expectedVersion: i, step: steps[i] })).toMatchObject({ ok: true });
    const viewers = await Promise.all(Array.from({ length: 4 }, () => connect(server.url)));
    sockets.push(...viewers);
    const answers = await Promise.all(viewers.map((v) => request(v, 'subscribe', { matchId: m.id })));
    expect(answers[0]).toMatchObject({ ok: true, detail: 'full', version: 300, setup: { players: ['Ann', 'Bob'] } });
    for (const a of answers.slice(1)) expect(a).toEqual(answers[0]);
    const again = await request(viewers[0]!, 'subscribe', { matchId: m.id });
    expect(again).toEqual(answers[0]);
    expect(await request(scorer, 'record', { matchId: m.id, stepId: 's300', expectedVersion: 300, step: steps[300] })).toMatchObject({
      ok: true,
      version: 301,
    });
    const newer = (await request(viewers[1]!, 'subscribe', { matchId: m.id })) as { version: number; stats: { sheet: unknown[] } };
    expect(newer.version).toBe(301);
    expect(newer).not.toEqual(answers[0]);
    // The scorebug detail is never shared across details: it carries figures, not stats.
    expect(await request(viewers[2]!, 'subscribe', { matchId: m.id, detail: 'scorebug' })).toMatchObject({
      ok: true,
      detail: 'scorebug',
      version: 301,
      figures: expect.any(Object),
    });
  });
});
