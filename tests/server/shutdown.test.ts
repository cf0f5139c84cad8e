/**
 * Graceful shutdown of the server process (server/main.ts, and the compiled dist/main.js the image runs):
 * on SIGTERM it stops accepting, closes every client, destroys the connections of clients that never answer
 * the websocket close handshake once the deadline (3 s) has passed, closes the store, and exits 0 — well within
 * Docker's stop grace period (10 s by default), which would otherwise kill it.
 */
import { execFileSync } from 'node:child_process';
import { connect as tcpConnect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, api, connect, createMatch, legalSteps, request, spawnServer, tempDirs, type ChildServer } from '../helpers/server';

const tempDir = tempDirs();

/** A masked websocket text frame (clients must mask), payload under 126 bytes. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]);
}

/**
 * A websocket client that joins Socket.IO's main namespace, then never answers anything: not the pings and
 * not the server's close frame. Resolves once the handshake is done; `closeFrame` tells whether the server
 * sent a close frame, `ended` resolves when the server ended the TCP connection.
 */
function mute(url: string): Promise<{ sock: Socket; closeFrame: () => boolean; ended: Promise<void> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sock = tcpConnect(Number(port), hostname);
    let buf = Buffer.alloc(0);
    let upgraded = false;
    let sawClose = false;
    const ended = new Promise<void>((done) => sock.once('close', () => done()));
    sock.once('error', reject);
    sock.on('connect', () => {
      sock.write(
        'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n' +
          `Host: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.subarray(0, end).toString();
        if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`no websocket upgrade: ${head}`));
        upgraded = true;
        buf = buf.subarray(end + 4);
        sock.write(textFrame('40')); // Socket.IO CONNECT to the main namespace
      }
      // Read the server's frames (unmasked, short): look for the close opcode; answer nothing.
      while (buf.length >= 2) {
        let len = buf[1]! & 0x7f;
        let off = 2;
        if (len === 126) {
          if (buf.length < 4) return;
          len = buf.readUInt16BE(2);
          off = 4;
        }
        if (buf.length < off + len) return;
        const opcode = buf[0]! & 0x0f;
        const payload = buf.subarray(off, off + len).toString();
        buf = buf.subarray(off + len);
        if (opcode === 0x8) sawClose = true;
        if (opcode === 0x1 && payload.startsWith('40')) resolve({ sock, closeFrame: () => sawClose, ended });
      }
    });
  });
}

/** SIGTERM `server`; resolves with its exit code and signal, and how long it took (ms). */
function terminate(server: ChildServer): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    server.proc.once('exit', (code, signal) => resolve({ code, signal, ms: Date.now() - t0 }));
    server.proc.kill('SIGTERM');
  });
}

describe.each([
  ['server/main.ts (tsx)', undefined],
  ['dist/main.js (compiled, as in the image)', ['--enable-source-maps', 'dist/main.js']],
])('SIGTERM: %s', (_name, args) => {
  beforeAll(() => {
    if (args) execFileSync('npm', ['run', '--silent', 'build:server'], { cwd: REPO_ROOT, stdio: 'inherit' });
  });

  it('closes a client that never answers the close handshake, keeps the acknowledged steps, exits 0 within 8 s', async () => {
    const dataDir = tempDir('shutdown');
    const server = await spawnServer({ DATA_DIR: dataDir }, args);
    let log = '';
    server.proc.stdout!.on('data', (d) => (log += d.toString()));
    const match = await createMatch(server.url);
    const scorer = await connect(server.url, match.scorerToken, { reconnection: false });
    const steps = legalSteps(3);
    for (const [i, step] of steps.entries()) {
      expect(await request(scorer, 'record', { matchId: match.id, eventId: `s${i}`, expectedVersion: i, step })).toMatchObject({ ok: true, version: i + 1 });
    }
    const disconnected = new Promise<string>((done) => scorer.once('disconnect', (reason) => done(reason)));
    const stuck = await mute(server.url);

    const exit = await terminate(server);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.ms).toBeLessThan(8000);
    // The scorer (a well-behaved client) was closed by the server, not left hanging.
    expect(['io server disconnect', 'transport close']).toContain(await disconnected);
    // The mute client was sent a close frame, never answered it, and its connection was ended by the server.
    await stuck.ended;
    expect(stuck.closeFrame()).toBe(true);
    expect(log).toContain('clients did not close in time');
    expect(log).toContain('cuecast server stopped');

    // Every acknowledged step is in the store after the shutdown.
    const again = await spawnServer({ DATA_DIR: dataDir }, args);
    try {
      const res = await api(again.url, `/api/matches/${match.id}`);
      expect(res.status).toBe(200);
      expect(res.body.version).toBe(steps.length);
    } finally {
      await terminate(again);
    }
  });
});
