/**
 * `releaseUpgradeRequest` against the real engine.io in node_modules: after it runs, nothing of a
 * connection still reaches its upgrade request, and the connection keeps working (messages, close).
 * If an engine.io upgrade renames the upgrade listeners, this fails instead of memory silently growing.
 */
import { createServer } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { Server } from 'socket.io';
import { releaseUpgradeRequest, type RawEngineSocket } from '../../server/transport/socket-memory';
import { connect } from '../helpers/server';

describe('releaseUpgradeRequest', () => {
  const http = createServer();
  const io = new Server(http, { transports: ['websocket'] });
  afterAll(() => io.close());

  it('drops every reference to the upgrade request and leaves the connection working', async () => {
    const seen: RawEngineSocket[] = [];
    io.engine.on('connection', (raw: RawEngineSocket) => {
      const req = raw.request as unknown as { rawHeaders: string[] };
      expect(req.rawHeaders.length).toBeGreaterThan(0);
      releaseUpgradeRequest(raw);
      seen.push(raw);
    });
    io.on('connection', (socket) => {
      socket.on('echo', (msg: unknown, ack: (m: unknown) => void) => ack({ msg, auth: socket.handshake.auth }));
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
    const client = await connect(url, 'secret');
    expect(await (client.timeout(2000) as unknown as { emitWithAck(e: string, m: unknown): Promise<unknown> }).emitWithAck('echo', 'hi')).toEqual({
      msg: 'hi',
      auth: { token: 'secret' },
    });
    const raw = seen[0]!;
    expect(raw.request).toBeNull();
    const ws = raw.transport!.socket as unknown as NodeJS.EventEmitter & { _socket: NodeJS.EventEmitter };
    expect(ws.listeners('error').map((f) => f.name)).not.toContain('onUpgradeError');
    expect(ws.listeners('error').length).toBeGreaterThan(0); // engine.io's transport still handles errors
    expect(ws._socket.rawListeners('close').map((f) => String((f as { listener?: unknown }).listener ?? f))).not.toContainEqual(
      expect.stringContaining('this.emit("close")'),
    );
    const closed = new Promise((r) => io.once('connection', r));
    client.close();
    const again = await connect(url);
    await closed;
    again.close();
  });
});
