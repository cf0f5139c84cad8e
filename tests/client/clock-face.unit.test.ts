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
  it('time played reads as minutes or hours and minutes, never as "0:01" (issue 29): played rounds down, left rounds up', () => {
    expect(hoursMinutes(0, false, 'en')).toBe('0 min');
    expect(hoursMinutes(59_999, false, 'en')).toBe('0 min');
    expect(hoursMinutes(60_000, false, 'en')).toBe('1 min');
    expect(hoursMinutes(59 * 60_000 + 59_999, false, 'en')).toBe('59 min');
    expect(hoursMinutes(60 * 60_000, false, 'en')).toBe('1 h 00');
    expect(hoursMinutes(65 * 60_000 + 59_000, false, 'en')).toBe('1 h 05');
    expect(hoursMinutes(1, true, 'en')).toBe('1 min');
    expect(hoursMinutes(60 * 60_000, true, 'en')).toBe('1 h 00');
    expect(hoursMinutes(-5, true, 'en')).toBe('0 min');
    expect(hoursMinutes(65 * 60_000, false, 'ja')).toBe('1時間05分');
    expect(hoursMinutes(5 * 60_000, false, 'zh-TW')).toBe('5 分鐘');
    for (let m = 0; m < 200; m += 7) expect(hoursMinutes(m * 60_000, false, 'en')).not.toMatch(/^\d+:\d\d$/);
  });

  it('the match clock line: time played, or time left with its warning', () => {
    const played = view(CLOCK_PRESETS.pro, { match: { playedMs: 47 * 60_000 + 10_000, since: T0, final: false } });
    expect(matchClockLine(showClock(played, T0 + 50_000), 'en')).toEqual({ text: 'Match time 48 min', warning: false });
    expect(matchClockLine(showClock(played, T0), 'ja')).toEqual({ text: '試合時間 47分', warning: false });
    const limit: ShotClockSettings = { ...CLOCK_PRESETS.pro, matchClock: { kind: 'limit', minutes: 60, warningMinutes: 10 } };
    const v = view(limit, { match: { playedMs: 45 * 60_000, since: null, final: false } });
    expect(matchClockLine(showClock(v, T0), 'en')).toEqual({ text: '15 min left', warning: false });
    const late = view(limit, { match: { playedMs: 50 * 60_000, since: null, final: false } });
    expect(matchClockLine(showClock(late, T0), 'zh-TW')).toEqual({ text: '剩餘 10 分鐘', warning: true });
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
