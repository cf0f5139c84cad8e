/**
 * Heap per connected viewer. Every Socket.IO connection keeps the HTTP upgrade request it came in on
 * (an IncomingMessage with its headers) for its whole life: engine.io holds it as `socket.request`, and two
 * listeners left from the upgrade (`onUpgradeError` on the WebSocket, and the `close` relay of engine.io's
 * WebSocketResponse on the TCP socket) keep it reachable. Nothing reads it after the handshake here (the
 * scorer token travels in the CONNECT packet's `auth`), so `releaseUpgradeRequest` drops all three: about
 * 1.4 KB less heap per viewer. Matching the two listeners is by name / source text of engine.io 6.6; if a
 * later engine.io changes them, they are simply left in place (more memory, nothing breaks) — the fan-out
 * benchmark's heap column shows it.
 */

interface Emitter {
  listeners(event: string): ((...args: unknown[]) => unknown)[];
  rawListeners(event: string): ((...args: unknown[]) => unknown)[];
  removeListener(event: string, f: (...args: unknown[]) => unknown): void;
}

/** An engine.io socket as seen on `io.engine`'s `connection` event (the parts used here). */
export interface RawEngineSocket {
  request: { rawHeaders: string[]; headers: Record<string, string>; url: string; _query: Record<string, string> } | null;
  transport?: { socket?: Partial<Emitter> & { _socket?: Partial<Emitter> } };
}

const isEmitter = (e: unknown): e is Emitter => !!e && typeof (e as Emitter).listeners === 'function' && typeof (e as Emitter).rawListeners === 'function';

/** Drop the references that keep a connection's upgrade request alive (see the file comment). */
export function releaseUpgradeRequest(raw: RawEngineSocket): void {
  const req = raw.request;
  raw.request = null;
  if (req) {
    // Whatever still reaches the request object holds no header copies.
    req.rawHeaders = [];
    req.headers = {};
    req.url = '';
    req._query = {};
  }
  const ws = raw.transport?.socket;
  if (ws && isEmitter(ws)) {
    // Transport errors are handled by engine.io's WebSocket transport listener; this one only served the upgrade.
    for (const f of ws.listeners('error')) if (f.name === 'onUpgradeError') ws.removeListener('error', f);
    const tcp = raw.transport?.socket?._socket;
    if (isEmitter(tcp)) {
      for (const f of tcp.rawListeners('close')) {
        const inner = (f as { listener?: unknown }).listener ?? f;
        if (/this\.emit\("close"\)/.test(String(inner))) tcp.removeListener('close', f);
      }
    }
  }
}
