/**
 * The Companion module's logic (companion/src/control.ts `CuecastControl`) against a real cuecast server on the real
 * Redis: it follows a table's current match over Socket.IO, its variables and feedback states change with shots
 * recorded over REST, its actions drive the table (cards, caption, the shot clock, start next match and its undo),
 * and the clock's shown seconds count down while it runs. Refusals (a wrong token, an unknown table, a clock press on
 * a match without a clock) come back in the server's words; bad settings name their field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, type CuecastConfig } from '../../companion/src/config';
import { ActionError, CuecastControl } from '../../companion/src/control';
import { atTable, cardUp, clockWarning, onTwoFouls, type VariableValues } from '../../companion/src/values';
import type { RunningServer } from '../../server/app';
import { CLOCK_PRESETS, type ShotClockSettings } from '../../shared/shot-clock';
import type { Step } from '../../shared/protocol/steps';
import { createEvent, recordStep, tableMatch, type CreatedEvent } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, startTestServer } from '../helpers/server';

const redis = await requireRedis();

/** A legal 14-1 sequence (race to 3): A breaks and pockets the 1, misses; B scratches, misses, scratches: B on two fouls, A at the table. */
const SHOTS: Step[] = [
  { shot: { call: { ball: 1 }, pocketed: [1] } },
  { shot: { call: { made: false } } },
  { shot: { call: { made: false }, cueBall: 'scratch' } },
  { shot: { call: { made: false } } },
  { shot: { call: { made: false }, cueBall: 'scratch' } },
];

/** A clock whose warning starts one second after a start (30 s for every shot and per extension, warning from 29 s, urgent from 5 s). */
const QUICK_CLOCK: ShotClockSettings = {
  ...CLOCK_PRESETS.pro,
  shotSeconds: 30,
  firstShotSeconds: 30,
  pushOutSeconds: 30,
  extensionSeconds: 30,
  warningSeconds: 29,
  urgentSeconds: 5,
};

describe.skipIf(!redis.available)('the Companion module against a live cuecast server', () => {
  const prefix = testPrefix('companion');
  let server: RunningServer;
  let ev: CreatedEvent;
  let first: { id: string; scorerToken: string };
  const controls: CuecastControl[] = [];
  const open = (over: Partial<CuecastConfig> = {}) => {
    const c = new CuecastControl({ url: server.url, eventId: ev.id, table: 'table-1', token: ev.organiserToken, ...over });
    controls.push(c);
    c.start();
    return c;
  };
  /** Wait until `c`'s variables hold `want` (a ceiling, never a measurement). */
  const until = (c: CuecastControl, want: Partial<VariableValues>) => expect.poll(() => c.values, { timeout: 10_000, interval: 20 }).toMatchObject(want);

  beforeAll(async () => {
    server = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    ev = await createEvent(server.url);
    const [ann, bob] = ev.event.roster;
    first = await tableMatch(server.url, ev, 'table-1', [ann!.id, bob!.id], true);
  });
  afterAll(async () => {
    for (const c of controls) c.stop();
    await server?.close();
    await dropPrefix(redis.url, prefix);
  });

  it('follows the table: names, short names, race; shots recorded over REST move the score, run, fouls and who is at the table', async () => {
    const c = open();
    const heard: Partial<VariableValues>[] = [];
    c.onValues((v) => heard.push(v));
    await expect.poll(() => c.status.kind, { timeout: 10_000 }).toBe('ok');
    await until(c, {
      table_name: 'Table 1',
      match_id: first.id,
      name_a: 'Ann Andersen',
      short_a: 'Ann',
      name_b: 'Bob Brown',
      short_b: 'Bob Brown',
      race: 3,
      race_a: 3,
      score_a: 0,
      at_table: 'A',
      card: 'intro',
      clock_seconds: '',
    });
    expect(atTable(c.state, 'A')).toBe(true);

    await recordStep(server.url, first, SHOTS[0]!);
    await until(c, { score_a: 1, run: 1, high_run_a: 1, at_table: 'A', at_table_name: 'Ann Andersen' });
    // Only what changed is told: the names did not.
    expect(heard.at(-1)).not.toHaveProperty('name_a');
    for (const s of SHOTS.slice(1)) await recordStep(server.url, first, s);
    await until(c, { score_b: -2, fouls_b: 2, fouls_a: 0, at_table: 'A', run: 0 });
    expect(onTwoFouls(c.state, 'B')).toBe(true);
    expect(onTwoFouls(c.state, 'A')).toBe(false);
    expect(atTable(c.state, 'B')).toBe(false);
  });

  it('cards and caption pressed through the module reach the table (card-up feedback, caption variable)', async () => {
    const c = open();
    await until(c, { match_id: first.id });
    await c.card('hide');
    await until(c, { card: 'none', card_up: false });
    await c.card('summary');
    await until(c, { card: 'summary', card_up: true });
    expect(cardUp(c.state.table!.cards, 'summary')).toBe(true);
    expect(cardUp(c.state.table!.cards, 'intro')).toBe(false);
    await c.card('toggle-summary');
    await until(c, { card: 'none', card_up: false });
    await c.caption('toggle');
    await until(c, { caption_hidden: true });
    await c.caption('show');
    await until(c, { caption_hidden: false });
  });

  it('the shot clock: pressed through the module, its shown seconds count down while it runs; warning, pause, extension, reset', async () => {
    const c = open();
    await until(c, { match_id: first.id, clock_seconds: '' });
    await expect(c.clock('start')).rejects.toMatchObject({ code: 'no-clock' });
    const on = await api(server.url, `/api/matches/${first.id}/clock`, { method: 'PUT', token: first.scorerToken, body: { settings: QUICK_CLOCK } });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    await until(c, { clock_status: 'idle', clock_seconds: 30, clock_level: 'none', extensions_left_a: 1, extensions_left_b: 1 });

    const seconds: number[] = [];
    c.onValues((v) => typeof v.clock_seconds === 'number' && seconds.push(v.clock_seconds));
    await c.clock('start');
    // Waits on what the clock shows, never on a moment: the warning from the first second counted (≤ 29 s).
    await until(c, { clock_status: 'running', clock_level: 'warning' });
    expect(c.values.clock_seconds).toBeLessThanOrEqual(29);
    expect(clockWarning(c.state, 'warning')).toBe(true);
    expect(clockWarning(c.state, 'urgent')).toBe(false);
    await expect.poll(() => c.values.clock_seconds, { timeout: 10_000, interval: 20 }).toBeLessThanOrEqual(28);
    // Counting down: each change of the shown second told once, never a repeat or a step back.
    expect(seconds.length).toBeGreaterThanOrEqual(1);
    expect(seconds.every((s, k) => k === 0 || s < seconds[k - 1]!)).toBe(true);
    await c.clock('pause');
    await until(c, { clock_status: 'paused' });
    const paused = c.values.clock_seconds as number;
    expect(paused).toBeLessThanOrEqual(28);

    await c.clock('extension');
    await until(c, { extensions_left_a: 0, extensions_left_b: 1, clock_seconds: paused + 30 });
    await expect(c.clock('extension')).resolves.toBeUndefined(); // a repeat in the same clock period changes nothing
    await c.clock('reset');
    await until(c, { clock_status: 'idle', clock_seconds: 60, clock_level: 'none' });
    expect(clockWarning(c.state, 'warning')).toBe(false);
  });

  it('start next match switches every variable to the new match; undo brings the old one back', async () => {
    const c = open();
    await until(c, { match_id: first.id, next_a: '' });
    const [, , chen, dora] = ev.event.roster;
    const second = await tableMatch(server.url, ev, 'table-1', [chen!.id, dora!.id]);
    await until(c, { next_a: 'Chen Wei', next_b: 'Dora Díaz' });
    await c.startNext();
    await until(c, {
      match_id: second.id,
      name_a: 'Chen Wei',
      short_a: 'Chen',
      name_b: 'Dora Díaz',
      score_a: 0,
      score_b: 0,
      fouls_b: 0,
      clock_seconds: '',
      clock_status: '',
      next_a: '',
    });
    expect(onTwoFouls(c.state, 'B')).toBe(false);
    await c.undoStart();
    await until(c, { match_id: first.id, name_a: 'Ann Andersen', score_a: 1, fouls_b: 2, clock_status: 'idle', next_a: 'Chen Wei' });
    await expect(c.undoStart()).rejects.toMatchObject({ code: 'nothing-to-undo' });
  });

  it('refusals: a wrong token shows in the status and fails actions; an unknown table is refused by name', async () => {
    const wrong = open({ token: 'not-the-token' });
    await expect.poll(() => wrong.status, { timeout: 10_000 }).toEqual({ kind: 'refused', message: `the organiser token is not valid for event ${ev.id}` });
    const refused = await wrong.card('intro').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ActionError);
    expect(refused).toMatchObject({ code: 'forbidden' });
    // The reads are public: it still shows the table.
    await until(wrong, { name_a: 'Ann Andersen' });

    const nowhere = open({ table: 'no-such-table' });
    await expect.poll(() => nowhere.status.kind, { timeout: 10_000 }).toBe('refused');
    expect(nowhere.status).toMatchObject({ message: expect.stringContaining('no-such-table') });
    expect(nowhere.values).toMatchObject({ name_a: '', score_a: 0, clock_seconds: '' });
  });

  it('bad settings name their field and why', () => {
    const good = { url: 'http://10.0.0.5:3000/', eventId: 'ev_1', table: 'tv-table', token: ' t0k ' };
    expect(parseConfig(good)).toEqual({ url: 'http://10.0.0.5:3000', eventId: 'ev_1', table: 'tv-table', token: 't0k' });
    const bad: [Record<string, unknown>, string, RegExp][] = [
      [{ ...good, url: '' }, 'url', /is empty/],
      [{ ...good, url: 'ftp://x' }, 'url', /http:\/\/ or https:\/\//],
      [{ ...good, url: 'http://x:3000/event/abc' }, 'url', /without a path/],
      [{ ...good, eventId: 'a/b' }, 'eventId', /not an event id/],
      [{ ...good, table: 'Table 1' }, 'table', /not a table id/],
      [{ ...good, token: '  ' }, 'token', /is empty/],
      [{ ...good, table: 7 }, 'table', /must be text/],
    ];
    for (const [raw, field, why] of bad) {
      const e = (() => {
        try {
          parseConfig(raw);
        } catch (err) {
          return err;
        }
        return null;
      })();
      expect(e, field).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).field).toBe(field);
      expect((e as ConfigError).message).toMatch(why);
    }
  });
});
