/**
 * The shot clock through the services (in-memory stores, fake clock, no sockets): turned on with a preset or
 * settings, pressed by the scorer or the event's organiser, moved on by every recorded step, pushed after every
 * change; refusals name the field and change nothing; repeats are harmless; the step log never changes.
 */
import { describe, expect, it } from 'vitest';
import { CLOCK_PRESETS } from '../../shared/shot-clock';
import { EVENT } from '../helpers/events';
import { legalSteps, SETUP } from '../helpers/server';
import { recordOk, services } from '../helpers/services';

const settle = () => new Promise((r) => setImmediate(r));

/** The opening break and the steps after it (`legalSteps`: the first is the break). */
const [BREAK, ...AFTER_BREAK] = legalSteps(3);

/**
 * A match with the pro clock, its opening break recorded (the clock does not run for a break, D-32a): the clock
 * is set for the first shot after the break (60 s); the pushes so far are cleared.
 */
async function matchWithClock() {
  const s = services();
  const m = await s.matches.create(SETUP);
  const on = await s.shotClocks.configure(m.id, { scorerToken: m.scorerToken }, 'pro');
  expect(on).toMatchObject({ ok: true, clock: { status: 'idle', kind: 'break', allowanceMs: 0, remainingMs: 0, shooter: 'A' } });
  await recordOk(s.matches, m, BREAK!);
  await settle();
  expect(await s.shotClocks.view(m.id)).toMatchObject({ ok: true, clock: { status: 'idle', kind: 'first-shot', allowanceMs: 60_000 } });
  s.pushed.shotClocks.length = 0;
  return { ...s, m, scorer: { scorerToken: m.scorerToken } };
}

describe('shot clock service', () => {
  it('no clock for a break (D-32a): start, resume and extension are refused with break-shot and change nothing; autoStart leaves it idle', async () => {
    const s = services();
    const m = await s.matches.create(SETUP);
    const scorer = { scorerToken: m.scorerToken };
    await s.shotClocks.configure(m.id, scorer, { ...CLOCK_PRESETS.pro, autoStart: true });
    const before = await s.shotClocks.view(m.id);
    for (const action of ['start', 'resume', 'extension'] as const) {
      const r = await s.shotClocks.act(m.id, scorer, action);
      expect(r).toMatchObject({ ok: false, error: { code: 'break-shot', field: 'action' } });
      if (!r.ok) expect(r.error.message).toMatch(/does not run for a break.*first shot after the break/);
      expect(await s.shotClocks.act(m.id, { organiser: true }, action)).toMatchObject({ ok: false, error: { code: 'break-shot' } });
    }
    expect(await s.shotClocks.act(m.id, scorer, 'pause')).toMatchObject({ ok: true, duplicate: true });
    expect(await s.shotClocks.view(m.id)).toEqual(before);
    // The break recorded: autoStart runs the clock for the first shot after it.
    await recordOk(s.matches, m, BREAK!);
    await settle();
    expect(await s.shotClocks.view(m.id)).toMatchObject({ ok: true, clock: { status: 'running', kind: 'first-shot', deadline: s.clock.now() + 60_000 } });
  });

  it('start, extension, pause, resume and expiry at the server time; every change pushed with that time', async () => {
    const { shotClocks, m, scorer, clock, pushed } = await matchWithClock();
    const t0 = clock.now();
    expect(await shotClocks.act(m.id, scorer, 'start')).toMatchObject({
      ok: true,
      duplicate: false,
      now: t0,
      clock: { status: 'running', deadline: t0 + 60_000 },
    });
    clock.advance(50_000);
    expect(await shotClocks.act(m.id, scorer, 'extension')).toMatchObject({ ok: true, clock: { deadline: t0 + 90_000, extensionsLeft: [0, 1] } });
    clock.advance(10_000);
    expect(await shotClocks.act(m.id, scorer, 'pause')).toMatchObject({ ok: true, clock: { status: 'paused', remainingMs: 30_000 } });
    clock.advance(120_000);
    expect(await shotClocks.act(m.id, scorer, 'resume')).toMatchObject({ ok: true, clock: { status: 'running', deadline: clock.now() + 30_000 } });
    clock.advance(30_000);
    expect(await shotClocks.view(m.id)).toMatchObject({ ok: true, clock: { status: 'expired', remainingMs: 0 } });
    expect(await shotClocks.act(m.id, scorer, 'start')).toMatchObject({ ok: false, error: { code: 'clock-expired', field: 'action' } });
    expect(pushed.shotClocks.map((p) => p.clock?.status)).toEqual(['running', 'running', 'paused', 'running']);
    expect(pushed.shotClocks.every((p) => p.matchId === m.id && typeof p.now === 'number')).toBe(true);
  });

  it('a recorded shot opens the next clock period; the clock never touches the log; undo does not rewind it', async () => {
    const s = await matchWithClock();
    const { shotClocks, matches, m, scorer } = s;
    await shotClocks.act(m.id, scorer, 'start');
    await shotClocks.act(m.id, scorer, 'extension');
    const [first, second] = AFTER_BREAK;
    await recordOk(matches, m, first!);
    await settle();
    const after = await shotClocks.view(m.id);
    expect(after).toMatchObject({ ok: true, clock: { status: 'idle', kind: 'shot', allowanceMs: 30_000, extensionsLeft: [0, 1] } }); // the first shot after the break was recorded: 30 s for the next
    expect((await matches.steps(m.id))!.version).toBe(2);
    await recordOk(matches, m, { undo: true });
    await settle();
    expect(await shotClocks.view(m.id)).toMatchObject({ ok: true, clock: { status: 'idle', extensionsLeft: [0, 1] } });
    await recordOk(matches, m, second!);
    expect((await matches.steps(m.id))!.version).toBe(4);
  });

  it('repeats are harmless: a second start, pause or extension, or a press for an earlier period, changes and pushes nothing', async () => {
    const { shotClocks, m, scorer, pushed, clock } = await matchWithClock();
    const started = await shotClocks.act(m.id, scorer, 'start');
    const period = started.ok ? started.clock!.shot : -1;
    clock.advance(1000);
    expect(await shotClocks.act(m.id, scorer, 'start')).toMatchObject({ ok: true, duplicate: true });
    await shotClocks.act(m.id, scorer, 'extension');
    expect(await shotClocks.act(m.id, scorer, 'extension')).toMatchObject({ ok: true, duplicate: true, clock: { extensionsLeft: [0, 1] } });
    expect(await shotClocks.act(m.id, scorer, 'pause', period - 1)).toMatchObject({ ok: true, duplicate: true, clock: { status: 'running' } });
    expect(pushed.shotClocks).toHaveLength(2); // start and the first extension
  });

  it('refusals name the field and change nothing: token, unknown match, no clock, no extension left, match won, bad settings', async () => {
    const s = await matchWithClock();
    const { shotClocks, matches, m, scorer } = s;
    expect(await shotClocks.act(m.id, { scorerToken: undefined }, 'start')).toMatchObject({ ok: false, error: { code: 'unauthorized', field: 'token' } });
    expect(await shotClocks.act(m.id, { scorerToken: 'nope' }, 'start')).toMatchObject({ ok: false, error: { code: 'forbidden', field: 'token' } });
    expect(await shotClocks.act('nosuch', scorer, 'start')).toMatchObject({ ok: false, error: { code: 'not-found', field: 'matchId' } });
    const plain = await matches.create(SETUP);
    expect(await shotClocks.act(plain.id, { scorerToken: plain.scorerToken }, 'start')).toMatchObject({
      ok: false,
      error: { code: 'no-clock', field: 'matchId' },
    });
    expect(await shotClocks.configure(m.id, scorer, { ...CLOCK_PRESETS.pro, urgentSeconds: 20 })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request', field: 'settings.urgentSeconds' },
    }); // as PUT …/clock's body names it
    await shotClocks.act(m.id, scorer, 'extension');
    await recordOk(matches, m, AFTER_BREAK[0]!);
    await settle();
    expect(await shotClocks.act(m.id, scorer, 'extension')).toMatchObject({
      ok: false,
      error: { code: 'no-extension-left', message: 'no extension left: player A has used the extension of this rack' },
    });
    expect(await shotClocks.view(m.id)).toMatchObject({ ok: true, clock: { status: 'idle', extensionsLeft: [0, 1] } });

    const near = await matches.create({ ...SETUP, targets: [1, 100] });
    await shotClocks.configure(near.id, { scorerToken: near.scorerToken }, 'league');
    await recordOk(matches, near, legalSteps(1)[0]!);
    await settle();
    expect((await matches.currentState(near.id))!.state.winner).toBe('A');
    expect(await shotClocks.act(near.id, { scorerToken: near.scorerToken }, 'start')).toMatchObject({ ok: false, error: { code: 'match-over' } });
    expect(await shotClocks.configure(near.id, { scorerToken: near.scorerToken }, 'pro')).toMatchObject({ ok: false, error: { code: 'match-over' } });
  });

  it('off and on again: a clock turned off answers no-clock; turned on again it keeps the extensions used', async () => {
    const { shotClocks, m, scorer } = await matchWithClock();
    await shotClocks.act(m.id, scorer, 'extension');
    expect(await shotClocks.configure(m.id, scorer, null)).toMatchObject({ ok: true, clock: null });
    expect(await shotClocks.view(m.id)).toMatchObject({ ok: true, clock: null });
    expect(await shotClocks.act(m.id, scorer, 'start')).toMatchObject({ ok: false, error: { code: 'no-clock' } });
    expect(await shotClocks.configure(m.id, scorer, 'pro')).toMatchObject({ ok: true, clock: { extensionsLeft: [0, 1], status: 'idle' } });
  });

  it('autoStart: a recorded shot starts the next shot running at the time it was recorded', async () => {
    const { shotClocks, matches, m, scorer, clock } = await matchWithClock();
    await shotClocks.configure(m.id, scorer, { ...CLOCK_PRESETS.pro, autoStart: true });
    await recordOk(matches, m, AFTER_BREAK[0]!);
    await settle();
    expect(await shotClocks.view(m.id)).toMatchObject({ ok: true, clock: { status: 'running', deadline: clock.now() + 30_000, kind: 'shot' } });
  });

  it("the event's organiser finds the table's current match for its clock keys; refusals name the field", async () => {
    const s = services();
    const { event, organiserToken } = await s.events.create(EVENT);
    expect(await s.events.currentMatchFor(event.id, organiserToken, 'table-1')).toMatchObject({
      ok: false,
      error: { code: 'no-current-match', field: 'table' },
    });
    expect(await s.events.currentMatchFor(event.id, 'wrong', 'table-1')).toMatchObject({ ok: false, error: { code: 'forbidden', field: 'token' } });
    expect(await s.events.currentMatchFor(event.id, undefined, 'table-1')).toMatchObject({ ok: false, error: { code: 'unauthorized', field: 'token' } });
    expect(await s.events.currentMatchFor('nosuch', organiserToken, 'table-1')).toMatchObject({ ok: false, error: { code: 'not-found', field: 'eventId' } });
    const m = await s.matches.create({ ...EVENT.defaults, players: ['Eve Ek', 'Fay Fox'] });
    expect((await s.events.assign(event.id, organiserToken, 'table-1', m.id, true)).ok).toBe(true);
    expect(await s.events.currentMatchFor(event.id, organiserToken, 'table-1')).toEqual({ ok: true, matchId: m.id });
    await s.shotClocks.configure(m.id, { scorerToken: m.scorerToken }, 'pro');
    expect(await s.shotClocks.act(m.id, { organiser: true }, 'start')).toMatchObject({ ok: false, error: { code: 'break-shot' } });
    await recordOk(s.matches, m, legalSteps(1, { ...EVENT.defaults, players: ['Eve Ek', 'Fay Fox'] })[0]!);
    await settle();
    expect(await s.shotClocks.act(m.id, { organiser: true }, 'start')).toMatchObject({ ok: true, clock: { status: 'running' } });
  });
});
