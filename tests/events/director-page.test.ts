/**
 * The auto-director page's pure parts (web/src/director/director-page.ts): its address, its URL settings with a
 * warning for each bad value (the default used), the settings kept per event in the browser (anything unreadable
 * → defaults), the first guess of a table's OBS scene, and the test clock. The OBS link (web/src/director/obs.ts)
 * with stand-ins: the control level gates the scene reads, a throwing or missing API breaks nothing.
 */
import { describe, expect, it } from 'vitest';
import { directorEvent, directorParams, guessScene, holdOf, loadSettings, pageClock, saveSettings } from '../../web/src/director/director-page';
import { OBS_ADVANCED, setScene, watchObs, type ObsInfo } from '../../web/src/director/obs';

/** A Storage stand-in over a Map. */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

describe('director page: address and settings', () => {
  it('names the event from /director/<id> or ?event=', () => {
    expect(directorEvent({ pathname: '/director/abc123', search: '' })).toBe('abc123');
    expect(directorEvent({ pathname: '/director.html', search: '?event=e1' })).toBe('e1');
    expect(directorEvent({ pathname: '/director', search: '' })).toBeNull();
    expect(directorEvent({ pathname: '/venue/abc', search: '' })).toBeNull();
  });

  it('reads hold, settle, margin, tv and clock; a bad value is a warning naming it, and its default is used', () => {
    expect(directorParams('')).toEqual({ holdS: null, settleS: 8, margin: 10, tv: null, testClock: false, debug: false, warnings: [] });
    expect(directorParams('?hold=45&settle=3&margin=0&tv=tv-table&clock=test&debug=1')).toEqual({
      holdS: 45,
      settleS: 3,
      margin: 0,
      tv: 'tv-table',
      testClock: true,
      debug: true,
      warnings: [],
    });
    const bad = directorParams('?hold=1&settle=abc&margin=500&clock=fast');
    expect([bad.holdS, bad.settleS, bad.margin, bad.testClock]).toEqual([20, 8, 10, false]);
    expect(bad.warnings).toHaveLength(4);
    for (const k of ['hold=1', 'settle=abc', 'margin=500', 'clock=fast']) expect(bad.warnings.some((w) => w.startsWith(k))).toBe(true);
  });

  it('keeps the settings per event; anything unreadable gives the defaults', () => {
    const s = memoryStorage();
    expect(loadSettings(s, 'e1')).toEqual({ scenes: {}, holdS: 20, tv: '' });
    saveSettings(s, 'e1', { scenes: { 'table-1': 'Cam 1' }, holdS: 45, tv: 'table-1' });
    expect(loadSettings(s, 'e1')).toEqual({ scenes: { 'table-1': 'Cam 1' }, holdS: 45, tv: 'table-1' });
    expect(loadSettings(s, 'e2')).toEqual({ scenes: {}, holdS: 20, tv: '' });
    s.setItem('cuecast.director.e3', '{not json');
    expect(loadSettings(s, 'e3')).toEqual({ scenes: {}, holdS: 20, tv: '' });
    s.setItem('cuecast.director.e4', JSON.stringify({ scenes: { a: 3, b: '', c: 'C' }, holdS: 9999, tv: 5 }));
    expect(loadSettings(s, 'e4')).toEqual({ scenes: { c: 'C' }, holdS: 20, tv: '' });
    expect(loadSettings(null, 'e1')).toEqual({ scenes: {}, holdS: 20, tv: '' });
    expect([holdOf('45'), holdOf(1), holdOf(10_000), holdOf('x')]).toEqual([45, 3, 600, null]);
  });

  it("guesses a table's scene by its name or id, and only when one scene fits", () => {
    const scenes = ['Intro', 'Table 1', 'table-2', 'Cam – TV table', 'Break'];
    expect(guessScene({ id: 'table-1', name: 'Table 1' }, scenes)).toBe('Table 1');
    expect(guessScene({ id: 'table-2', name: 'Table 2' }, scenes)).toBe('table-2');
    expect(guessScene({ id: 'tv-table', name: 'TV table' }, scenes)).toBe('Cam – TV table');
    expect(guessScene({ id: 'table-3', name: 'Table 3' }, scenes)).toBeNull();
    expect(guessScene({ id: 'table-1', name: 'Table 1' }, ['Table 1 wide', 'Table 1 close'])).toBeNull();
    // "Table 1" is no word of "Table 10".
    expect(guessScene({ id: 'table-1', name: 'Table 1' }, ['Table 10'])).toBeNull();
  });

  it('the test clock moves only when told; the real one ignores advance', () => {
    const c = pageClock(true);
    let heard = 0;
    const off = c.onAdvance(() => heard++);
    expect(c.now()).toBe(0);
    c.advance(1500);
    expect([c.now(), heard]).toEqual([1500, 1]);
    off();
    c.advance(1);
    expect(heard).toBe(1);
    expect(() => c.advance(-1)).toThrow(/ms/);
    const real = pageClock(false);
    const t0 = real.now();
    real.advance(1e9);
    expect(real.now() - t0).toBeLessThan(1e9);
  });
});

describe('director page: the OBS link', () => {
  it('reads the scenes and the program only with the permission; switches with setCurrentScene', async () => {
    const seen: ObsInfo[] = [];
    const set: string[] = [];
    const obs = (level: number) => ({
      getControlLevel: (cb: (l: number) => void) => cb(level),
      getScenes: (cb: (s: string[]) => void) => cb(['A', 'B']),
      getCurrentScene: (cb: (s: { name: string }) => void) => cb({ name: 'A' }),
      setCurrentScene: (n: string) => void set.push(n),
    });
    const target = new EventTarget();
    Object.assign(globalThis, { addEventListener: target.addEventListener.bind(target), removeEventListener: target.removeEventListener.bind(target) });
    const stop = watchObs((i) => seen.push(i), obs(OBS_ADVANCED));
    expect(seen.at(-1)).toEqual({ present: true, level: 4, scenes: ['A', 'B'], current: 'A' });
    target.dispatchEvent(Object.assign(new Event('obsSceneChanged'), { detail: { name: 'B' } }));
    expect(seen.at(-1)!.current).toBe('B');
    stop();
    const low: ObsInfo[] = [];
    watchObs((i) => low.push(i), obs(1))();
    expect(low.at(-1)).toEqual({ present: true, level: 1, scenes: null, current: null });
    const none: ObsInfo[] = [];
    watchObs((i) => none.push(i), null)();
    expect(none).toEqual([{ present: false, level: null, scenes: null, current: null }]);
    // A throwing API breaks nothing.
    const throwing = {
      getControlLevel: () => {
        throw new Error('no');
      },
      setCurrentScene: () => {
        throw new Error('no');
      },
    };
    expect(() => watchObs(() => {}, throwing)()).not.toThrow();
    expect(setScene('B', obs(OBS_ADVANCED))).toBe(true);
    expect(set).toEqual(['B']);
    expect(setScene('B', throwing)).toBe(false);
    expect(setScene('B', null)).toBe(false);
    expect(setScene('', obs(OBS_ADVANCED))).toBe(false);
  });
});
