/**
 * The scorer console's shot clock logic (web/src/scorer/clock.ts, keys.ts): the big control per status, the
 * shown status at zero, the alerts at the warning second and at zero (crossings only), starting by itself after
 * a recorded shot, the time foul's step (accepted by the rules engine, refused on a break), and the stored options.
 */
import { describe, expect, test } from 'vitest';
import { applyStep, newMatch, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { keyAction } from '../../web/src/scorer/keys';
import { clockAlert, loadClockPrefs, mainClockAction, saveClockPrefs, shouldAutoStart, timeFoulStep, type AutoStartInput } from '../../web/src/scorer/clock';

describe('the big control', () => {
  test('start when idle, pause when running, resume when paused, nothing once expired', () => {
    expect(mainClockAction('idle')).toBe('start');
    expect(mainClockAction('running')).toBe('pause');
    expect(mainClockAction('paused')).toBe('resume');
    expect(mainClockAction('expired')).toBeNull();
  });
  test('nothing while the clock is set for a break (D-32a: it does not run for one), whatever its status', () => {
    for (const status of ['idle', 'running', 'paused', 'expired'] as const) expect(mainClockAction(status, 'break')).toBeNull();
    expect(mainClockAction('idle', 'first-shot')).toBe('start');
  });
});

describe('alerts', () => {
  const at = (seconds: number, status: 'idle' | 'running' | 'paused' | 'expired' = 'running', shot = 3) => ({ shot, seconds, status });
  test('the warning sounds once, when a running clock crosses into its warning seconds', () => {
    expect(clockAlert(at(11), at(10), 10)).toBe('warning');
    expect(clockAlert(at(10), at(9), 10)).toBeNull();
    expect(clockAlert(at(30), at(8), 10)).toBe('warning'); // a skipped second still crosses
    expect(clockAlert(at(11, 'paused'), at(11), 10)).toBeNull();
    expect(clockAlert(at(11), at(10), 0)).toBeNull(); // no warning seconds: only zero
  });
  test('zero sounds when the clock is seen running out', () => {
    expect(clockAlert(at(1), at(0, 'expired'), 10)).toBe('zero');
    expect(clockAlert(at(0, 'expired'), at(0, 'expired'), 10)).toBeNull();
  });
  test('nothing on the first sight of a clock or in a new clock period', () => {
    expect(clockAlert(null, at(0, 'expired'), 10)).toBeNull();
    expect(clockAlert(at(11, 'running', 2), at(10, 'running', 3), 10)).toBeNull();
    expect(clockAlert(at(1, 'running', 2), at(0, 'expired', 3), 10)).toBeNull();
  });
});

describe('start by itself after a recorded shot', () => {
  const base: AutoStartInput = {
    enabled: true,
    ready: true,
    openedAt: 4,
    lastStarted: null,
    clock: { status: 'idle', shot: 5, remainingMs: 30_000, allowanceMs: 30_000, kind: 'shot' },
  };
  test('a new clock period, untouched, with the option on and the table waiting for a shot', () => {
    expect(shouldAutoStart(base)).toBe(true);
  });
  test('not with the option off, a choice pending or steps queued, nor for the period the console opened at', () => {
    expect(shouldAutoStart({ ...base, enabled: false })).toBe(false);
    expect(shouldAutoStart({ ...base, ready: false })).toBe(false);
    expect(shouldAutoStart({ ...base, openedAt: 5 })).toBe(false);
    expect(shouldAutoStart({ ...base, clock: { ...base.clock, kind: 'break', remainingMs: 0, allowanceMs: 0 } })).toBe(false); // D-32a
  });
  test('never twice for one period (a reset stays reset), and not a clock already started or paused', () => {
    expect(shouldAutoStart({ ...base, lastStarted: 5 })).toBe(false);
    expect(shouldAutoStart({ ...base, clock: { ...base.clock, status: 'running' } })).toBe(false);
    expect(shouldAutoStart({ ...base, clock: { ...base.clock, status: 'paused', remainingMs: 12_000 } })).toBe(false);
  });
});

describe('the time foul (D-32)', () => {
  test('recorded alone as fouls: ["time"]; the rules take it after the break and refuse it on the break', () => {
    expect(timeFoulStep()).toEqual({ shot: { fouls: ['time'] } });
    const fresh = newMatch(parseSetup({ discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [100, 100] }));
    expect(applyStep(fresh, timeFoulStep()).ok).toBe(false);
    const midRack = newMatch(
      parseSetup({
        discipline: '14-1',
        ruleset: 'nba',
        players: ['Ann', 'Bob'],
        targets: [100, 100],
        start: { score: [10, 12], turn: 'B', rack: 1, ballsOnTable: 9 },
      }),
    );
    const after = applyStep(midRack, timeFoulStep());
    expect(after.ok).toBe(true);
    if (after.ok) expect(view(after.match)).toMatchObject({ score: [10, 11], fouls: [0, 1], turn: 'A' });
  });
});

describe('keys and options', () => {
  test('T the big control, E extension, Shift+T reset, in both disciplines; R stays the second choice', () => {
    for (const d of ['14-1', 'rotation'] as const) {
      expect(keyAction({ key: 't' }, d, false)).toEqual({ type: 'clock', what: 'main' });
      expect(keyAction({ key: 'T', shiftKey: true }, d, false)).toEqual({ type: 'clock', what: 'reset' });
      expect(keyAction({ key: 'e' }, d, false)).toEqual({ type: 'clock', what: 'extension' });
      expect(keyAction({ key: 'r' }, d, false)).toEqual({ type: 'choice', index: 1 });
    }
    expect(keyAction({ key: ' ' }, '14-1', false)).toEqual({ type: 'made' });
  });
  test('stored per device; defaults start by hand and sound on; a broken value falls back', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    expect(loadClockPrefs(storage)).toEqual({ autoStart: false, muted: false });
    saveClockPrefs(storage, { autoStart: true, muted: true });
    expect(loadClockPrefs(storage)).toEqual({ autoStart: true, muted: true });
    store.set('cuecast.clockPrefs', '{oops');
    expect(loadClockPrefs(storage)).toEqual({ autoStart: false, muted: false });
    expect(loadClockPrefs(null)).toEqual({ autoStart: false, muted: false });
  });
});
