/**
 * socket.io's packet codec (protocol 5) for text packets — all the pages ever send or receive (JSON; no binary
 * attachments) — bundled in place of socket.io-parser by the page builds (overlay/vite.shared.ts
 * `textOnlyParser()`), so the pages do not ship its binary reconstruction (≈ 1.3 KB gzip of the overlay's
 * 32 KB budget). The wire format is socket.io-parser's own, `<type>[<nsp>,][<ack id>][<JSON>]`, so the server
 * and every Node client keep the official parser (tests/client/socket-parser.test.ts checks both directions).
 *
 * A binary packet, an unknown type or a payload the packet type does not allow throws, as the official decoder
 * does (which also reads an empty message as a bare CONNECT; this one refuses it); socket.io-client's manager turns that into a "parse error" close and reconnects. The exports are the
 * ones socket.io-client uses: `protocol`, `PacketType`, `Encoder`, `Decoder`.
 */

/** socket.io protocol revision this codec speaks (socket.io-parser 4.x). */
export const protocol = 5;

/** Packet types (socket.io-parser's enum values; 5 and 6 are the binary forms, refused here). */
export const PacketType = { CONNECT: 0, DISCONNECT: 1, EVENT: 2, ACK: 3, CONNECT_ERROR: 4, BINARY_EVENT: 5, BINARY_ACK: 6 } as const;

/** A decoded or to-be-encoded packet: `type` from {@link PacketType}, namespace, JSON data, ack id. */
export interface Packet {
  type: number;
  nsp: string;
  data?: unknown;
  id?: number;
}

/** Event names socket.io reserves (never an event's name on the wire). */
const RESERVED = ['connect', 'connect_error', 'disconnect', 'disconnecting', 'newListener', 'removeListener'];

const isObject = (v: unknown): boolean => Object.prototype.toString.call(v) === '[object Object]';

/** Whether `data` is what a packet of `type` may carry (socket.io-parser's `isPayloadValid`). */
function payloadValid(type: number, data: unknown): boolean {
  switch (type) {
    case PacketType.CONNECT:
      return isObject(data);
    case PacketType.DISCONNECT:
      return false; // carries no payload
    case PacketType.CONNECT_ERROR:
      return typeof data === 'string' || isObject(data);
    case PacketType.EVENT:
      return Array.isArray(data) && (typeof data[0] === 'number' || (typeof data[0] === 'string' && !RESERVED.includes(data[0])));
    default: // ACK
      return Array.isArray(data);
  }
}

/** Encodes packets as socket.io-parser's text form (the pages' packets hold JSON only). */
export class Encoder {
  /** One packet → the one string the transport sends (an array, as socket.io-client expects). */
  encode(p: Packet): string[] {
    let s = String(p.type);
    if (p.nsp && p.nsp !== '/') s += `${p.nsp},`;
    if (p.id != null) s += p.id;
    if (p.data != null) s += JSON.stringify(p.data);
    return [s];
  }
}

/** The packet syntax: type, optional namespace up to a comma (or the end), optional ack id, then the JSON payload. */
const SYNTAX = /^(\d)(\/[^,]*,?)?(\d*)([\s\S]*)$/;

/** Decodes text packets and hands each to its `decoded` listeners. */
export class Decoder {
  private readonly listeners = new Set<(p: Packet) => void>();

  on(_event: 'decoded', fn: (p: Packet) => void): this {
    this.listeners.add(fn);
    return this;
  }

  off(_event?: 'decoded', fn?: (p: Packet) => void): this {
    if (fn) this.listeners.delete(fn);
    else this.listeners.clear();
    return this;
  }

  /**
   * Decode one transport message and emit it as `decoded`.
   * @throws Error when `chunk` is binary, of an unknown or binary type, or its payload is not valid for its type.
   */
  add(chunk: unknown): void {
    if (typeof chunk !== 'string') throw new Error('binary packets are not supported');
    const m = SYNTAX.exec(chunk);
    const type = m ? Number(m[1]) : -1;
    if (!m || type > PacketType.CONNECT_ERROR) throw new Error(`unknown packet type ${chunk.charAt(0)}`);
    const p: Packet = { type, nsp: m[2]?.replace(/,$/, '') || '/' };
    if (m[3]) p.id = Number(m[3]);
    if (m[4]) {
      let data: unknown;
      try {
        data = JSON.parse(m[4]);
      } catch {
        data = false; // like socket.io-parser: an unparsable payload is an invalid one
      }
      if (!payloadValid(type, data)) throw new Error('invalid payload');
      p.data = data;
    }
    for (const fn of this.listeners) fn(p);
  }

  /** Nothing to release (no binary reconstruction in progress, ever). */
  destroy(): void {}
}
