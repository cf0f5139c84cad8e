/**
 * The off-air clock face's pure parts (web/src/lib/clock-face.ts): the match clock's line and its warning, the
 * extension markers, the status shown (a running clock at 0 is expired), and the delayed page's server time.
 */
import { describe, expect, it } from 'vitest';
import { CLOCK_PRESETS, initialShotClock, shotClockView, type ShotClockSettings } from '../../shared/shot-clock';
import { newMatch, view as stateOf } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { delayedTime, digitCount, extensionMarks, hoursMinutes, matchClockLine, statusKey } from '../../web/src/lib/clock-face';
import { showClock } from '../../web/src/lib/live-clock';

const state = stateOf(newMatch(parseSetup({ discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [50, 50] })));
const T0 = 1_700_000_000_000;

function view(settings: ShotClockSettings, patch: Partial<ReturnType<typeof initialShotClock>> = {}) {
  return shotClockView(settings, { ...initialShotClock(settings, state), ...patch }, T0);
}

describe('clock face', () => {
  it('hours and minutes: played rounds down, left rounds up', () => {
    expect(hoursMinutes(0, false)).toBe('0:00');
    expect(hoursMinutes(59_999, false)).toBe('0:00');
    expect(hoursMinutes(60_000, false)).toBe('0:01');
    expect(hoursMinutes(65 * 60_000 + 59_000, false)).toBe('1:05');
    expect(hoursMinutes(1, true)).toBe('0:01');
    expect(hoursMinutes(60 * 60_000, true)).toBe('1:00');
    expect(hoursMinutes(-5, true)).toBe('0:00');
  });

  it('the match clock line: time played, or time left with its warning', () => {
    const played = view(CLOCK_PRESETS.pro, { match: { playedMs: 47 * 60_000 + 10_000, since: T0, final: false } });
    expect(matchClockLine(showClock(played, T0 + 50_000), 'en')).toEqual({ text: 'Match time 0:48', warning: false });
    expect(matchClockLine(showClock(played, T0), 'ja')).toEqual({ text: '試合時間 0:47', warning: false });
    const limit: ShotClockSettings = { ...CLOCK_PRESETS.pro, matchClock: { kind: 'limit', minutes: 60, warningMinutes: 10 } };
    const v = view(limit, { match: { playedMs: 45 * 60_000, since: null, final: false } });
    expect(matchClockLine(showClock(v, T0), 'en')).toEqual({ text: '0:15 left', warning: false });
    const late = view(limit, { match: { playedMs: 50 * 60_000, since: null, final: false } });
    expect(matchClockLine(showClock(late, T0), 'zh-TW')).toEqual({ text: '剩餘 0:10', warning: true });
    const off = view({ ...CLOCK_PRESETS.pro, matchClock: { kind: 'off' } });
    expect(matchClockLine(showClock(off, T0), 'en')).toBeNull();
  });

  it('extension markers: the ones left first, held within the period', () => {
    expect(extensionMarks(1, 2)).toEqual([true, false]);
    expect(extensionMarks(0, 1)).toEqual([false]);
    expect(extensionMarks(5, 2)).toEqual([true, true]);
    expect(extensionMarks(-1, 2)).toEqual([false, false]);
    expect(extensionMarks(0, 0)).toEqual([]);
  });

  it('status shown: a running clock at 0 is expired; words for all but running', () => {
    const running = view(CLOCK_PRESETS.pro, { status: 'running', deadline: T0 + 1500 });
    expect(showClock(running, T0).status).toBe('running');
    expect(showClock(running, T0 + 1500).status).toBe('expired');
    expect(showClock(view(CLOCK_PRESETS.pro), T0).status).toBe('idle');
    expect([statusKey('idle'), statusKey('paused'), statusKey('expired'), statusKey('running')]).toEqual(['clk.idle', 'clk.paused', 'clk.expired', null]);
  });

  it('a delayed page draws at the server time minus its delay; no delay keeps the time itself', () => {
    const time = { now: () => T0, onChange: () => () => {} };
    expect(delayedTime(time, 0)).toBe(time);
    expect(delayedTime(time, 2500).now()).toBe(T0 - 2500);
  });

  it('digits: at least two, so the face keeps one size from 10 down', () => {
    expect([digitCount(0), digitCount(9), digitCount(60), digitCount(120), digitCount(3600)]).toEqual([2, 2, 2, 3, 4]);
  });
});
