/**
 * The shot clock chosen when a match is made, on a real Redis:
 * - `POST /api/matches` with `clock` (`{preset}` or `{settings}`): the match is made with that clock (`GET
 *   /api/matches/:id` has it); `off` or none: no clock; a bad clock is refused naming the field and makes no match;
 * - an event's `defaults.clock` (create and PATCH): checked the same way (refused naming `defaults.clock.…`, the
 *   event unchanged), and applied to every match made on the event's tables.
 */
import { describe, expect, it } from 'vitest';
import { CLOCK_PRESETS } from '../../shared/shot-clock';
import { createEvent, EVENT, tableMatch } from '../helpers/events';
import { requireRedis, testPrefix } from '../helpers/redis';
import { api, recordBreak, SETUP, twoInstances } from '../helpers/server';

const redis = await requireRedis();

describe.skipIf(!redis.available)('shot clock settings at creation', () => {
  const pair = twoInstances(redis.url, testPrefix('clock-settings'));
  const matchCount = async () => (await api(pair.s1.url, '/api/matches')).body.matches.length as number;

  it('POST /api/matches with a preset, custom settings, off, or none', async () => {
    const pro = await api(pair.s1.url, '/api/matches', { body: { ...SETUP, clock: { preset: 'pro' } } });
    expect(pro.status).toBe(201);
    // The clock does not run for a break (D-32a): set for it, it has no allowance; the first shot after the break
    // gets the preset's (pro: 60 s).
    expect((await api(pair.s2.url, `/api/matches/${pro.body.id}`)).body.clock).toMatchObject({
      status: 'idle',
      kind: 'break',
      allowanceMs: 0,
      extensionsLeft: [1, 1],
      warningSeconds: 10,
    });
    await recordBreak(pair.s1.url, pro.body);
    expect((await api(pair.s2.url, `/api/matches/${pro.body.id}`)).body.clock).toMatchObject({
      status: 'idle',
      allowanceMs: 60_000,
      extensionsLeft: [1, 1],
      warningSeconds: 10,
    });

    const settings = { ...CLOCK_PRESETS.league, shotSeconds: 25, firstShotSeconds: 25, pushOutSeconds: 25, extensionSeconds: 20 };
    const custom = await api(pair.s1.url, '/api/matches', { body: { ...SETUP, clock: { settings } } });
    expect(custom.status).toBe(201);
    await recordBreak(pair.s1.url, custom.body);
    expect((await api(pair.s1.url, `/api/matches/${custom.body.id}`)).body.clock).toMatchObject({ allowanceMs: 25_000, remainingMs: 25_000 });

    for (const body of [{ ...SETUP, clock: { preset: 'off' } }, SETUP]) {
      const made = await api(pair.s1.url, '/api/matches', { body });
      expect(made.status).toBe(201);
      expect((await api(pair.s1.url, `/api/matches/${made.body.id}`)).body.clock).toBeNull();
    }
  });

  it('a bad clock is refused naming the field, and no match is made', async () => {
    const before = await matchCount();
    const cases: [unknown, string][] = [
      [{ preset: 'blitz' }, 'clock.preset'],
      [{ settings: { ...CLOCK_PRESETS.pro, shotSeconds: 0 } }, 'clock.settings.shotSeconds'],
      [{ settings: { ...CLOCK_PRESETS.pro, urgentSeconds: 20 } }, 'clock.settings.urgentSeconds'],
      [{ settings: { ...CLOCK_PRESETS.pro, colour: 'red' } }, 'clock.settings.colour'],
      [{ settings: { ...CLOCK_PRESETS.pro, shotSeconds: 'thirty' } }, 'clock.settings.shotSeconds'],
    ];
    for (const [clock, field] of cases) {
      const res = await api(pair.s1.url, '/api/matches', { body: { ...SETUP, clock } });
      expect(res, JSON.stringify(clock)).toMatchObject({ status: 400, body: { error: { code: 'invalid-setup', field } } });
      expect(res.body.error.message).toContain(field);
    }
    expect(await matchCount()).toBe(before);
  });

  it("an event's default clock is checked, and every match made on its tables gets it", async () => {
    const bad = await api(pair.s1.url, '/api/events', {
      body: { ...EVENT, defaults: { ...EVENT.defaults, clock: { settings: { ...CLOCK_PRESETS.pro, warningSeconds: 4000 } } } },
    });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid-event', field: 'defaults.clock.settings.warningSeconds' } } });
    const unknown = await api(pair.s1.url, '/api/events', { body: { ...EVENT, defaults: { ...EVENT.defaults, clock: { preset: 'blitz' } } } });
    expect(unknown).toMatchObject({ status: 400, body: { error: { code: 'invalid-event', field: 'defaults.clock.preset' } } });

    const ev = await createEvent(pair.s1.url, { ...EVENT, defaults: { ...EVENT.defaults, clock: { preset: 'league' } } });
    const shown = await api(pair.s2.url, `/api/events/${ev.id}`);
    expect(shown.body.defaults.clock).toEqual({ preset: 'league' });
    const [a, b, c, d] = ev.event.roster.map((p) => p.id) as [string, string, string, string];
    const m1 = await tableMatch(pair.s1.url, ev, 'table-1', [a, b], true);
    await recordBreak(pair.s1.url, m1);
    expect((await api(pair.s2.url, `/api/matches/${m1.id}`)).body.clock).toMatchObject({ status: 'idle', allowanceMs: 45_000 });
    // The set-up itself carries no clock field.
    expect((await api(pair.s2.url, `/api/matches/${m1.id}`)).body.setup.clock).toBeUndefined();

    // PATCH: a bad clock is refused and changes nothing; a good one applies to the next match made.
    const version = (await api(pair.s1.url, `/api/events/${ev.id}`)).body.version;
    const refused = await api(pair.s1.url, `/api/events/${ev.id}`, {
      method: 'PATCH',
      token: ev.organiserToken,
      body: { defaults: { ...EVENT.defaults, clock: { settings: { ...CLOCK_PRESETS.pro, extensionsPerPlayer: -1 } } } },
    });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'invalid-event', field: 'defaults.clock.settings.extensionsPerPlayer' } } });
    expect((await api(pair.s1.url, `/api/events/${ev.id}`)).body).toMatchObject({ version, defaults: { clock: { preset: 'league' } } });
    const patched = await api(pair.s1.url, `/api/events/${ev.id}`, {
      method: 'PATCH',
      token: ev.organiserToken,
      body: { defaults: { ...EVENT.defaults, clock: { preset: 'off' } } },
    });
    expect(patched.status).toBe(200);
    const m2 = await tableMatch(pair.s1.url, ev, 'tv-table', [c, d], true);
    expect((await api(pair.s1.url, `/api/matches/${m2.id}`)).body.clock).toBeNull();
  });
});
