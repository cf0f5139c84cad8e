/**
 * The shot clock across instances and restarts (its store port on every backend is the contract suite,
 * tests/server/store-port.test.ts):
 * - two instances over one Redis: the clock set and pressed over REST on one reaches viewers of both rooms on
 *   both instances (`shotClock` pushes with the server time); the scorer's socket presses it; `time` answers the
 *   server's time; `GET /api/matches/:id` includes it; the event's organiser presses the table's current match;
 *   a recorded shot opens the next clock period; a server restarted on the same Redis sees the same clock.
 */
import { describe, expect, it } from 'vitest';
import type { ShotClockAck, ShotClockPush, TimeAck } from '../../shared/protocol/shot-clock';
import { CLOCK_PRESETS } from '../../shared/shot-clock';
import { createEvent, tableMatch } from '../helpers/events';
import { requireRedis, testPrefix } from '../helpers/redis';
import { api, call, connect, createMatch, legalSteps, request, SETUP, startTestServer, twoInstances, type Client } from '../helpers/server';

const redis = await requireRedis();

/** A match picked up mid-rack: the next shot is an ordinary shot, so the clock may run at once (no break, D-32a). */
const MID_RACK = { ...SETUP, start: { ballsOnTable: 9 } };

describe.skipIf(!redis.available)('shot clock on two instances over one Redis', () => {
  const prefix = testPrefix('shot-clock');
  const pair = twoInstances(redis.url, prefix);

  /** Collect `shotClock` pushes of `socket` subscribed to `matchId` with `detail`. */
  async function watch(socket: Client, matchId: string, detail: 'full' | 'scorebug'): Promise<ShotClockPush[]> {
    const got: ShotClockPush[] = [];
    socket.on('shotClock', (p) => got.push(p));
    expect(await request(socket, 'subscribe', { matchId, detail })).toMatchObject({ ok: true });
    return got;
  }

  it('set and pressed over REST on one instance, seen in both rooms on both; the scorer presses over its socket', async () => {
    const m = await createMatch(pair.s1.url, MID_RACK);
    const full2 = await watch(await pair.open(pair.s2.url), m.id, 'full');
    const bug1 = await watch(await pair.open(pair.s1.url), m.id, 'scorebug');
    const on = await api(pair.s1.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { preset: 'pro' } });
    expect(on).toMatchObject({ status: 200, body: { matchId: m.id, clock: { status: 'idle', allowanceMs: 30_000, extensionsLeft: [1, 1] } } });
    const start = await api(pair.s2.url, `/api/matches/${m.id}/clock/start`, { method: 'POST', token: m.scorerToken });
    expect(start).toMatchObject({ status: 200, body: { duplicate: false, clock: { status: 'running' } } });
    expect(start.body.clock.deadline).toBe(start.body.now + 30_000);
    const again = await api(pair.s1.url, `/api/matches/${m.id}/clock/start`, { method: 'POST', token: m.scorerToken, body: { period: start.body.clock.shot } });
    expect(again).toMatchObject({ status: 200, body: { duplicate: true, clock: { deadline: start.body.clock.deadline } } });
    await expect.poll(() => full2.length).toBe(2);
    await expect.poll(() => bug1.length).toBe(2);
    expect(full2.map((p) => p.clock?.status)).toEqual(['idle', 'running']);

    const scorer = await pair.open(pair.s2.url, m.scorerToken);
    const ext = await call<ShotClockAck>(scorer, 'shotClockAction' as never, { matchId: m.id, action: 'extension' });
    expect(ext).toMatchObject({ ok: true, clock: { deadline: start.body.clock.deadline + 30_000, extensionsLeft: [0, 1] } });
    const viewer = await pair.open(pair.s1.url);
    expect(await call<ShotClockAck>(viewer, 'shotClockAction' as never, { matchId: m.id, action: 'pause' })).toMatchObject({
      ok: false,
      error: { code: 'unauthorized', field: 'token' },
    });
    expect(await call<ShotClockAck>(viewer, 'shotClock' as never, { matchId: m.id })).toMatchObject({
      ok: true,
      clock: { status: 'running', extensionsLeft: [0, 1] },
    });
    const before = Date.now();
    const time = await call<TimeAck>(viewer, 'time' as never, {});
    expect(time.ok && time.now >= before - 1000 && time.now <= Date.now() + 1000).toBe(true);
    expect(await call<ShotClockAck>(viewer, 'time' as never, { extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid-request' } });

    expect((await api(pair.s1.url, `/api/matches/${m.id}`)).body.clock).toMatchObject({ status: 'running', extensionsLeft: [0, 1] });
    // A recorded shot opens the next clock period on both instances.
    expect(await request(scorer, 'record', { matchId: m.id, stepId: 'c1', expectedVersion: 0, step: legalSteps(1, MID_RACK)[0] })).toMatchObject({ ok: true });
    await expect.poll(() => full2.at(-1)?.clock?.status).toBe('idle');
    expect(full2.at(-1)?.clock).toMatchObject({ kind: 'shot', extensionsLeft: [0, 1] });
  });

  it('no clock for a break (D-32a): start, resume and extension answer 409 break-shot; the first shot after the break starts it', async () => {
    const m = await createMatch(pair.s1.url);
    const on = await api(pair.s1.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { preset: 'pro' } });
    expect(on).toMatchObject({ status: 200, body: { clock: { status: 'idle', kind: 'break', allowanceMs: 0 } } });
    for (const action of ['start', 'resume', 'extension']) {
      const r = await api(pair.s2.url, `/api/matches/${m.id}/clock/${action}`, { method: 'POST', token: m.scorerToken });
      expect(r).toMatchObject({
        status: 409,
        body: {
          error: {
            code: 'break-shot',
            field: 'action',
            message: 'the shot clock does not run for a break (D-32a): it starts for the first shot after the break',
          },
        },
      });
    }
    expect((await api(pair.s1.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: 'b1', step: legalSteps(1)[0] } })).status).toBe(201);
    const start = await api(pair.s2.url, `/api/matches/${m.id}/clock/start`, { method: 'POST', token: m.scorerToken });
    expect(start).toMatchObject({ status: 200, body: { clock: { status: 'running', kind: 'first-shot', allowanceMs: 60_000 } } });
  });

  it('refusals over REST: unknown action, no clock, bad settings, wrong token, extension after time ran out', async () => {
    const m = await createMatch(pair.s1.url, MID_RACK);
    expect(await api(pair.s1.url, `/api/matches/${m.id}/clock/explode`, { method: 'POST', token: m.scorerToken })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid-request', field: 'action' } },
    });
    expect(await api(pair.s1.url, `/api/matches/${m.id}/clock/start`, { method: 'POST', token: m.scorerToken })).toMatchObject({
      status: 409,
      body: { error: { code: 'no-clock' } },
    });
    expect(await api(pair.s1.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { preset: 'blitz' } })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid-request' } },
    });
    const bad = await api(pair.s1.url, `/api/matches/${m.id}/clock`, {
      method: 'PUT',
      token: m.scorerToken,
      body: { settings: { ...CLOCK_PRESETS.pro, shotSeconds: 0 } },
    });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid-request', field: 'settings.shotSeconds' } } });
    // Named as the body names it, whether the shape or the meaning is wrong; both choices at once say so.
    const order = await api(pair.s1.url, `/api/matches/${m.id}/clock`, {
      method: 'PUT',
      token: m.scorerToken,
      body: { settings: { ...CLOCK_PRESETS.pro, warningSeconds: 100, urgentSeconds: 200 } },
    });
    expect(order.body.error.field).toMatch(/^settings\./);
    const both = await api(pair.s1.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { preset: 'pro', settings: {} } });
    expect(both).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid-request', field: 'settings', message: 'settings: give either preset or settings, not both' } },
    });
    const created = await api(pair.s1.url, '/api/matches', { body: { discipline: '14-1', players: ['A', 'B'], clock: { preset: 'pro', settings: {} } } });
    expect(created).toMatchObject({ status: 400, body: { error: { code: 'invalid-setup', field: 'clock.settings' } } });
    expect(await api(pair.s1.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: 'wrong', body: { preset: 'pro' } })).toMatchObject({
      status: 403,
      body: { error: { code: 'forbidden' } },
    });
    const one = { ...CLOCK_PRESETS.pro, shotSeconds: 1, firstShotSeconds: 1, pushOutSeconds: 1, warningSeconds: 1, urgentSeconds: 1, showFromSeconds: null };
    expect((await api(pair.s1.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { settings: one } })).status).toBe(200);
    expect((await api(pair.s1.url, `/api/matches/${m.id}/clock/start`, { method: 'POST', token: m.scorerToken })).status).toBe(200);
    await expect.poll(async () => (await api(pair.s2.url, `/api/matches/${m.id}`)).body.clock.status, { timeout: 5000 }).toBe('expired');
    expect(await api(pair.s2.url, `/api/matches/${m.id}/clock/extension`, { method: 'POST', token: m.scorerToken })).toMatchObject({
      status: 409,
      body: { error: { code: 'clock-expired' } },
    });
    expect((await api(pair.s2.url, `/api/matches/${m.id}/clock/reset`, { method: 'POST', token: m.scorerToken })).body.clock).toMatchObject({
      status: 'idle',
      remainingMs: 1000,
    });
  });

  it("the organiser's button box presses the clock of the table's current match", async () => {
    const ev = await createEvent(pair.s1.url);
    const m = await tableMatch(pair.s1.url, ev, 'table-1', [ev.event.roster[0]!.id, ev.event.roster[1]!.id], true);
    await api(pair.s1.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { preset: 'league' } });
    // The opening break first: the clock does not run for it (D-32a).
    expect(await api(pair.s2.url, `/api/events/${ev.id}/tables/table-1/clock/start`, { method: 'POST', token: ev.organiserToken })).toMatchObject({
      status: 409,
      body: { error: { code: 'break-shot' } },
    });
    const setup = (await api(pair.s1.url, `/api/matches/${m.id}`)).body.setup;
    expect((await api(pair.s1.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: 'b1', step: legalSteps(1, setup)[0] } })).status).toBe(
      201,
    );
    const pressed = await api(pair.s2.url, `/api/events/${ev.id}/tables/table-1/clock/start`, { method: 'POST', token: ev.organiserToken });
    expect(pressed).toMatchObject({ status: 200, body: { matchId: m.id, clock: { status: 'running', allowanceMs: 45_000 } } });
    expect(await api(pair.s2.url, `/api/events/${ev.id}/tables/table-1/clock/start`, { method: 'POST', token: m.scorerToken })).toMatchObject({ status: 403 });
    expect(await api(pair.s2.url, `/api/events/${ev.id}/tables/tv-table/clock/start`, { method: 'POST', token: ev.organiserToken })).toMatchObject({
      status: 409,
      body: { error: { code: 'no-current-match' } },
    });
  });

  it('a server restarted on the same Redis sees the same clock', async () => {
    const m = await createMatch(pair.s1.url, MID_RACK);
    await api(pair.s1.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { preset: 'pro' } });
    const started = await api(pair.s1.url, `/api/matches/${m.id}/clock/start`, { method: 'POST', token: m.scorerToken });
    const fresh = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    try {
      const s = await connect(fresh.url);
      try {
        expect(await call<ShotClockAck>(s, 'shotClock' as never, { matchId: m.id })).toMatchObject({
          ok: true,
          clock: { status: 'running', deadline: started.body.clock.deadline },
        });
      } finally {
        s.close();
      }
    } finally {
      await fresh.close();
    }
  });
});
