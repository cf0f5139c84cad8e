/**
 * The reply budget (server/transport/backpressure.ts `spendReplyBytes`): whatever a connection asks, it is sent
 * at most `replyBurstBytes` of subscription replies at once and `replyBytesPerSecond` after that, so one that
 * never reads cannot have the server fill the kernel's socket buffers with whole sheets as fast as it may ask:
 * - the bucket never grants more than burst + rate × elapsed (plus one reply over the whole burst, when full),
 *   and a refusal spends nothing;
 * - over real sockets: a connection that stopped reading and asks for a long sheet again and again gets a few
 *   answers, then refusals naming the budget; another connection gets the sheet at once, the scorer records.
 */
import type { Socket as TcpSocket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { replyBudgetLeft, spendReplyBytes, type BackpressureLimits, type ReplyBudget } from '../../server/transport/backpressure';
import { PROTOCOL_VERSION } from '../../shared/protocol/wire';
import { connect, createMatch, LONG_SETUP, plausibleSteps, request, startTestServer, tempDirs, type Client } from '../helpers/server';

const dirs = tempDirs();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('spendReplyBytes', () => {
  it('grants at most the burst plus the refill (and one reply over the burst when full); a refusal spends nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1 << 20 }),
        fc.integer({ min: 1, max: 1 << 18 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 1 << 21 }), fc.integer({ min: -500, max: 2000 })), { maxLength: 60 }),
        (burst, rate, asks) => {
          const limits = { replyBurstBytes: burst, replyBytesPerSecond: rate } as BackpressureLimits;
          const budget: ReplyBudget = {};
          let now = 1_000_000;
          let elapsed = 0;
          let granted = 0;
          let largest = 0;
          for (const [bytes, dt] of asks) {
            now += dt; // a clock set back (dt < 0) refills nothing
            elapsed += Math.max(0, dt);
            const before = replyBudgetLeft(budget, limits, now);
            const ok = spendReplyBytes(budget, bytes, limits, now);
            expect(ok).toBe(before >= bytes || before >= burst);
            if (ok) {
              granted += bytes;
              largest = Math.max(largest, bytes);
              expect(budget.replyBytes).toBe(before - bytes);
            } else expect(budget.replyBytes).toBe(before);
            expect(granted).toBeLessThanOrEqual(burst + (rate * elapsed) / 1000 + largest + 1e-6);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('a connection that never reads, under the reply budget', () => {
  let server: RunningServer;
  let m: { id: string; scorerToken: string };
  let sheetBytes = 0;
  const sockets: Client[] = [];
  const dir = dirs('budget');
  const steps = plausibleSteps(801, LONG_SETUP, { seed: 11, undoRate: 0 });
  beforeAll(async () => {
    // A first server only to learn the sheet's size; the budget is then set in sheets.
    server = await startTestServer({ dataDir: dir });
    m = await createMatch(server.url, LONG_SETUP);
    const scorer = await connect(server.url, m.scorerToken);
    sockets.push(scorer);
    const acks = await Promise.all(
      steps.slice(0, 800).map((step, i) => request(scorer, 'record', { matchId: m.id, stepId: `b${i}`, expectedVersion: i, step }, 60_000)),
    );
    expect(acks.every((a) => a.ok)).toBe(true);
    const probe = await connect(server.url);
    sockets.push(probe);
    sheetBytes = JSON.stringify(await request(probe, 'subscribe', { matchId: m.id })).length;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  it('gets a few whole sheets, then refusals naming the budget; others get theirs at once and the scorer records', async () => {
    await server.close();
    // Three sheets at once, half of one a second; the buffer bounds far away, so only the budget acts.
    server = await startTestServer({
      dataDir: dir,
      limits: { replyBurstBytes: 3 * sheetBytes, replyBytesPerSecond: Math.ceil(sheetBytes / 2), replyBufferBytes: 1e12, maxBufferedBytes: 1e12 },
    });
    const reader = await connect(server.url);
    sockets.push(reader);
    const tcp = (reader.io.engine.transport as unknown as { ws: { _socket: TcpSocket } }).ws._socket;
    tcp.pause(); // the client still writes its requests
    const answers: { ok: boolean; error?: { code: string; message: string } }[] = [];
    const asks = 40;
    for (let i = 0; i < asks; i++)
      reader.emit('subscribe', { protocol: PROTOCOL_VERSION, matchId: m.id } as never, ((a: (typeof answers)[number]) => answers.push(a)) as never);
    await sleep(300); // the server has answered them all by now, into the kernel's buffers (or is still at it)
    const other = await connect(server.url);
    sockets.push(other);
    expect(await request(other, 'subscribe', { matchId: m.id }, 10_000)).toMatchObject({ ok: true, version: 800 });
    const scorer = await connect(server.url, m.scorerToken);
    sockets.push(scorer);
    expect(await request(scorer, 'record', { matchId: m.id, stepId: 'during', expectedVersion: 800, step: steps[800]! }, 10_000)).toMatchObject({
      ok: true,
      version: 801,
    });
    tcp.resume();
    const deadline = Date.now() + 30_000;
    while (answers.length < asks && Date.now() < deadline) await sleep(50);
    expect(answers).toHaveLength(asks);
    const sent = answers.filter((a) => a.ok).length;
    const overBudget = answers.filter((a) => a.error?.code === 'rate-limited' && /more than it can be sent/.test(a.error.message)).length;
    // Three at once, and at most a few more from the refill while the asks came in (they go out together).
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(sent).toBeLessThanOrEqual(5);
    expect(overBudget).toBe(asks - sent);
    // The budget refills: after a while the connection is answered again.
    await sleep(2_500);
    expect(await request(reader, 'subscribe', { matchId: m.id }, 10_000)).toMatchObject({ ok: true, version: 801 });
    console.info(`[reply budget] ${asks} asks for a ${sheetBytes} B sheet while not reading: ${sent} sent, ${overBudget} over the budget`);
  });
});
