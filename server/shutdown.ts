/**
 * The close sequence of a server: stop accepting, let in-flight records finish and acknowledge, disconnect the
 * clients (a client that never answers the websocket close handshake has its connection destroyed after a
 * deadline), let the reactions to the last steps finish, then close the stores and the bus.
 */
import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';

/**
 * Every TCP connection of `http` from now on, upgraded websockets included (`closeAllConnections()` no longer
 * sees those): on close, what is still open after the deadline is destroyed.
 */
export function trackConnections(http: HttpServer): Set<Socket> {
  const connections = new Set<Socket>();
  http.on('connection', (c: Socket) => {
    connections.add(c);
    c.once('close', () => connections.delete(c));
  });
  return connections;
}

/** What the close sequence closes, in its order. */
export interface ClosingParts {
  http: HttpServer;
  connections: Set<Socket>;
  /** Socket.IO's close: sends every client a close, resolves when all their connections have ended. */
  closeClients(): Promise<void>;
  /** Stops what runs by itself (idle sweep, fan-out); first. */
  stopTimers(): void;
  /** Resolves when every change in flight is written and acknowledged (the match and event services' queues). */
  drain(): Promise<void>;
  /** Resolves when the reactions to the steps recorded so far have finished (server/reactions.ts). */
  settled(): Promise<void>;
  /** Closes the stores and then the bus; last. */
  closeParts(): Promise<void>;
  /** How long (ms) clients get to finish the websocket close handshake. */
  closeTimeoutMs: number;
  log: Logger;
}

/** Run the close sequence once; resolves when everything is closed. */
export async function shutdown(p: ClosingParts): Promise<void> {
  p.stopTimers();
  // Stop accepting, let in-flight records finish (their acks still go out), then disconnect everyone.
  p.http.close();
  await p.drain();
  // A client that never answers the websocket close handshake would hold closeClients (ws waits 30 s): past the
  // deadline, destroy the rest.
  const closed = p.closeClients();
  let deadline: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([closed.then(() => false), new Promise<boolean>((ok) => (deadline = setTimeout(() => ok(true), p.closeTimeoutMs)))]);
  clearTimeout(deadline);
  if (timedOut) {
    const peers = [...p.connections].map((c) => `${c.remoteAddress}:${c.remotePort}`);
    p.log.warn({ connections: p.connections.size, peers }, 'clients did not close in time; closing their connections');
  }
  p.http.closeAllConnections();
  for (const c of p.connections) c.destroy();
  await closed;
  await p.drain();
  await p.settled();
  await p.closeParts();
  p.log.info('cuecast server stopped');
}
