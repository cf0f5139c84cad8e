/**
 * Websocket admission: which Socket.IO connections this instance takes.
 * - Origin: a browser page may open a websocket only from this server's own origin or an origin listed in
 *   CORS_ORIGIN — the same rule as REST (`OriginPolicy`, also what app.ts gives the REST CORS middleware).
 *   A handshake without an Origin header is a non-browser client (a script, the demo, Companion) and is
 *   taken: browsers always send Origin on a websocket handshake, and a non-browser client could send any
 *   Origin it likes, so the header protects browsers' users (cross-site websocket hijacking), nothing more.
 * - Counts: at most `socketsPerAddress` websockets open at once from one client address (IPv6: per /56, as
 *   the REST rate limit counts) and `maxSockets` on this instance.
 * The client address is what express computes for `req.ip` with the app's 'trust proxy' setting (behind
 * TRUST_PROXY: from X-Forwarded-For), and it becomes the connection's `handshake.address`.
 * A refused connection gets a Socket.IO CONNECT_ERROR right after the websocket opens — the client sees
 * `connect_error` with `err.data = {code, message}` (`origin-not-allowed`, `too-many-connections`,
 * `server-full`) and does not reconnect by itself — and is closed; it never counts.
 */
import type { IncomingMessage } from 'node:http';
import type { Application, Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { ApiError } from '../../shared/protocol/errors';

/** Websocket caps; both are per instance. */
export interface ConnectionLimits {
  /** Websockets open at once from one client address (default 200). */
  socketsPerAddress: number;
  /** Websockets open at once on this instance (default 20,000). */
  maxSockets: number;
  /**
   * TCP connections (plain HTTP and websockets) open at once from one peer address (default 256; off behind
   * TRUST_PROXY). At least `socketsPerAddress` + 56 is used: each websocket holds one.
   */
  connectionsPerAddress: number;
}

/**
 * Cross-origin callers allowed by CORS_ORIGIN: a list of origins (`https://studio.example`, compared after
 * URL normalisation: case, default port, trailing slash), `*` for any origin, or nothing.
 */
export class OriginPolicy {
  private readonly any: boolean;
  private readonly origins: ReadonlySet<string>;

  /** @throws when an entry is not an origin (scheme://host[:port]) — names the entry. */
  constructor(list: string | readonly string[] | undefined) {
    const entries = (typeof list === 'string' ? [list] : (list ?? [])).map((e) => e.trim()).filter(Boolean);
    this.any = entries.includes('*');
    this.origins = new Set(entries.filter((e) => e !== '*').map(normalOrigin));
  }

  /** Is any cross-origin caller configured (REST then answers CORS requests)? */
  get configured(): boolean {
    return this.any || this.origins.size > 0;
  }

  /** Is `origin` (an Origin header) a configured cross-origin caller? */
  listed(origin: string | undefined): boolean {
    if (!origin) return false;
    if (this.any) return true;
    try {
      return this.origins.has(normalOrigin(origin));
    } catch {
      return false;
    }
  }

  /**
   * May a websocket handshake with this Origin header proceed? Yes without an Origin (not a browser), for
   * the server's own origin (`host` is the Host the client addressed), and for a listed origin. `null`
   * (file pages, sandboxed frames) is foreign unless listed as `null`.
   */
  allowsHandshake(origin: string | undefined, host: string | undefined): boolean {
    if (origin === undefined) return true;
    if (origin === 'null') return this.any || this.origins.has('null');
    return sameOrigin(origin, host) || this.listed(origin);
  }
}

function normalOrigin(entry: string): string {
  if (entry === 'null') return 'null';
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new Error(`CORS_ORIGIN: "${entry}" is not an origin such as https://studio.example`);
  }
  if (url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new Error(`CORS_ORIGIN: "${entry}" is not an origin (scheme://host[:port], no path)`);
  }
  return url.origin;
}

/** Does the Origin header name the host the request was sent to (host and port; the scheme may differ behind TLS termination)? */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    const o = new URL(origin);
    return o.host === new URL(`${o.protocol}//${host}`).host;
  } catch {
    return false;
  }
}

/** The client address and addressed host of a raw request, exactly as express computes `req.ip` / `req.host`. */
export function clientOf(app: Application, req: IncomingMessage): { address: string; host: string | undefined } {
  // app.request is the prototype of every express request; its `ip` and `host` getters read only these.
  const view = Object.create((app as unknown as { request: object }).request, {
    app: { value: app },
    headers: { value: req.headers },
    socket: { value: req.socket },
    connection: { value: req.socket },
  }) as Request;
  return { address: view.ip ?? req.socket.remoteAddress ?? '', host: view.host };
}

/** An engine.io connection as seen on `io.engine`'s `connection` event (the parts used here). */
interface EngineSocket {
  request: IncomingMessage | null;
  remoteAddress: string;
  write(data: string | Buffer): unknown;
  close(): void;
  on(event: 'close', listener: (this: EngineSocket) => void): unknown;
}

/** What the gate needs of the Socket.IO server (`io.engine`, `io.encoder`). */
export interface GateServer {
  engine: { prependListener(event: 'connection', f: (raw: EngineSocket) => void): unknown };
  encoder: { encode(packet: { type: number; nsp: string; data: unknown }): (string | Buffer)[] };
}

/** Socket.IO protocol v5 packet type of a refused namespace connection (socket.io-parser `PacketType.CONNECT_ERROR`). */
const CONNECT_ERROR = 4;

/** Counts open websockets per client address and in total, and refuses the ones over a limit or from a foreign origin. */
export class ConnectionGate {
  private readonly perAddress = new Map<string, number>();
  private open = 0;

  constructor(
    private readonly app: Application,
    private readonly limits: ConnectionLimits,
    private readonly origins: OriginPolicy,
  ) {
    const release = (address: string): void => this.release(address);
    // One listener shared by every connection: `this` is the engine socket, whose remoteAddress is its client's.
    this.onClose = function (this: EngineSocket) {
      release(this.remoteAddress);
    };
  }

  /**
   * Admit or refuse every new connection of `io`. The listener goes first on the engine's `connection`
   * event, before anything drops the upgrade request (socket-memory.ts) it reads the headers of.
   */
  attach(io: GateServer): void {
    io.engine.prependListener('connection', (raw) => this.admit(raw, io));
  }

  private readonly onClose: (this: EngineSocket) => void;

  /** The refusal for a new connection, or null when it may stay. */
  private verdict(address: string, origin: string | undefined, host: string | undefined): ApiError | null {
    if (!this.origins.allowsHandshake(origin, host)) {
      return { code: 'origin-not-allowed', message: `origin ${origin} may not open a websocket here (same origin or CORS_ORIGIN only)`, field: 'origin' };
    }
    if ((this.perAddress.get(ipKeyGenerator(address)) ?? 0) >= this.limits.socketsPerAddress) {
      return { code: 'too-many-connections', message: `${this.limits.socketsPerAddress} websockets are already open from ${address}; close one first` };
    }
    if (this.open >= this.limits.maxSockets) {
      return { code: 'server-full', message: `this server has ${this.limits.maxSockets} websockets open; retry later` };
    }
    return null;
  }

  private admit(raw: EngineSocket, io: GateServer): void {
    const req = raw.request;
    if (!req) return;
    const { address, host } = clientOf(this.app, req);
    const origin = req.headers.origin;
    const refusal = this.verdict(address, origin, host);
    if (refusal) {
      for (const chunk of io.encoder.encode({ type: CONNECT_ERROR, nsp: '/', data: { message: refusal.message, data: refusal } })) raw.write(chunk);
      raw.close(); // after the write buffer drained
      return;
    }
    raw.remoteAddress = address;
    const key = ipKeyGenerator(address);
    this.perAddress.set(key, (this.perAddress.get(key) ?? 0) + 1);
    this.open++;
    raw.on('close', this.onClose);
  }

  private release(address: string): void {
    const key = ipKeyGenerator(address);
    const n = (this.perAddress.get(key) ?? 1) - 1;
    if (n <= 0) this.perAddress.delete(key);
    else this.perAddress.set(key, n);
    this.open--;
  }
}

/** What `capConnections` needs of the HTTP server. */
interface ConnectionSource {
  on(event: 'connection', f: (socket: import('node:net').Socket) => void): unknown;
}

/**
 * Cap the TCP connections (plain HTTP and websockets alike) open at once from one peer address (IPv6: per /56,
 * as the websocket gate counts) at `perAddress`: a connection over the cap is closed at once, before a byte is
 * read, so idle connections from one address cannot use up the process's file descriptors. Off behind a proxy
 * (TRUST_PROXY): every connection then comes from the proxy, which must cap its own clients.
 * @returns the number of connections open from `address` (for tests and the log).
 */
export function capConnections(server: ConnectionSource, perAddress: number, onRefused?: (address: string) => void): (address: string) => number {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const key = ipKeyGenerator(socket.remoteAddress ?? '');
    const n = open.get(key) ?? 0;
    if (n >= perAddress) {
      onRefused?.(socket.remoteAddress ?? '');
      socket.destroy();
      return;
    }
    open.set(key, n + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
  return (address) => open.get(ipKeyGenerator(address)) ?? 0;
}
