/**
 * Replies many connections get unchanged (a match's whole snapshot at one version) are serialised once. Socket.IO
 * encodes every acknowledgement on its own: a walk of the whole reply looking for binary data, `JSON.stringify`,
 * then engine.io and the WebSocket library build the packet's text again and measure and copy it (a fresh string
 * of the whole sheet per connection; over 128 KB V8 puts each in its large-object space, milliseconds apiece). 20
 * connections asking for a 5,000-step sheet again and again kept the event loop busy for seconds
 * (bench/flood.bench.ts). So a reply marked with `shareReply` is turned into UTF-8 bytes once, the first time it
 * is sent or measured (`replyBytes`), and each ack that carries it goes out as a pre-encoded WebSocket frame: a
 * small head (frame header, engine.io and Socket.IO packet types, the ack id) and those shared bytes, handed to
 * the TCP socket as they are (engine.io's `wsPreEncodedFrame`, the path its broadcasts take). The bytes on the
 * wire are the same as Socket.IO's own (tests/server/shared-replies.test.ts compares them), so clients need
 * nothing new. Where a frame cannot be pre-encoded (compression on), the packet is sent as its text.
 *
 * A shared reply must not change once marked (nothing here copies it) and holds JSON data only (no binary, no
 * `toJSON` with side effects). Its bytes live as long as the reply object (a WeakMap).
 */
import { Decoder, Encoder, PacketType, type Packet } from 'socket.io-parser';

/** The bytes of each shared reply's JSON followed by the `]` closing the ack's arguments (null until needed). */
const bodies = new WeakMap<object, Buffer | null>();

/** Mark `reply` as sent unchanged to many connections (its JSON is built once); returns it. */
export function shareReply<T extends object>(reply: T): T {
  if (!bodies.has(reply)) bodies.set(reply, null);
  return reply;
}

/** `<json>]` of a shared reply as UTF-8 (built on first use), or undefined for a reply that is not shared. */
function bodyOf(reply: unknown): Buffer | undefined {
  if (typeof reply !== 'object' || reply === null) return undefined;
  let b = bodies.get(reply);
  if (b === null) {
    b = Buffer.from(`${JSON.stringify(reply)}]`);
    bodies.set(reply, b);
  }
  return b;
}

/**
 * Size in bytes of `reply` as sent: a shared reply's cached JSON (UTF-8), else a fresh `JSON.stringify`'s
 * length (which only a small reply should need).
 */
export function replyBytes(reply: unknown): number {
  const b = bodyOf(reply);
  return b ? b.length - 1 : (JSON.stringify(reply) ?? '').length;
}

/**
 * The WebSocket frame header (RFC 6455 §5.2) of one unmasked, final text frame carrying `length` payload bytes.
 */
export function textFrameHeader(length: number): Buffer {
  if (length < 126) return Buffer.from([0x81, length]);
  if (length < 65536) return Buffer.from([0x81, 126, length >> 8, length & 0xff]);
  const h = Buffer.alloc(10);
  h[0] = 0x81;
  h[1] = 127;
  h.writeUIntBE(length, 4, 6); // bytes 2–3 stay 0: no frame here reaches 2^48 bytes
  return h;
}

/**
 * The encoded ACK of a shared reply, as the encoder hands it to engine.io: the Socket.IO packet's text is
 * `head` + the reply's JSON + `]`. `frame()` is the whole engine.io message as a WebSocket frame (the shared
 * bytes not copied); `toString()` the packet's text (for a transport that cannot take the frame); `length` its
 * size in bytes (what `bufferedBytes` counts).
 */
export class SharedAck {
  constructor(
    readonly head: string,
    private readonly body: Buffer,
  ) {}

  get length(): number {
    return Buffer.byteLength(this.head) + this.body.length;
  }

  /** The frame: header and engine.io's `4` (message) with `head` in one small buffer, then the shared bytes. */
  frame(): [Buffer, Buffer] {
    const head = Buffer.from(`4${this.head}`);
    return [Buffer.concat([textFrameHeader(head.length + this.body.length), head]), this.body];
  }

  toString(): string {
    return this.head + this.body.toString('utf8');
  }
}

/**
 * Socket.IO's encoder for shared replies: an ACK packet whose one argument is a shared reply becomes a
 * `SharedAck` (`3[<nsp>,]<id>[` + JSON + `]`, exactly what the stock encoder writes for it); every other packet
 * is the stock encoder's. The ack then needs `preEncodeSharedAck` on its connection to skip the text.
 */
export class SharedReplyEncoder extends Encoder {
  /** No JSON replacer (Socket.IO constructs its encoder without one; the stock encoder then uses none either). */
  constructor() {
    super();
  }

  override encode(packet: Packet): ReturnType<Encoder['encode']> {
    if (packet.type === PacketType.ACK && Array.isArray(packet.data) && packet.data.length === 1) {
      const body = bodyOf(packet.data[0]);
      if (body !== undefined) {
        const nsp = packet.nsp && packet.nsp !== '/' ? `${packet.nsp},` : '';
        return [new SharedAck(`${PacketType.ACK}${nsp}${packet.id ?? ''}[`, body)];
      }
    }
    return super.encode(packet);
  }
}

/** The `parser` option of the Socket.IO server: the stock decoder, the encoder above. */
export const sharedReplyParser = { Encoder: SharedReplyEncoder, Decoder };

/** An engine.io packet as its `packetCreate` event gives it. */
interface EnginePacket {
  data?: unknown;
  options?: { wsPreEncodedFrame?: Buffer[] };
}

/**
 * Listener for each engine.io connection's `packetCreate` (one function for all of them): a shared ack goes out
 * as its pre-encoded frame.
 */
export function preEncodeSharedAck(packet: EnginePacket): void {
  if (packet.data instanceof SharedAck) packet.options = { ...packet.options, wsPreEncodedFrame: packet.data.frame() };
}
