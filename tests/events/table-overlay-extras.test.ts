/**
 * The table overlay's production extras, as logic: which moments switch OBS scenes (obs-scenes.ts: the match won
 * while watched, each new intro card; nothing for what the page found on load; nothing without the control
 * level, outside OBS, or when OBS's API throws) and where the sponsor slot sits (sponsor-slot.ts: inside the
 * 90 % action-safe width for every layout, size and scale). The page itself: tests/pages/table-overlay-production.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { obsTriggers, parseObsScenes, switchScene } from '../../overlay/src/table/obs-scenes';
import { SLOT, SLOT_ABOVE, slotPlacement } from '../../overlay/src/table/sponsor-slot';
import { SIZE_FACTOR, type Size } from '../../overlay/src/params';

describe('OBS scene switching', () => {
  it('reads the scene names from obsWon and obsIntro (URL-decoded, trimmed); none given: no switching', () => {
    expect(parseObsScenes('?obsWon=Intermission&obsIntro=Match%20intro%3A%20TV')).toEqual({ won: 'Intermission', intro: 'Match intro: TV' });
    expect(parseObsScenes('?obsIntro=+Intro+')).toEqual({ won: '', intro: 'Intro' });
    expect(parseObsScenes('?layout=corner&obsWon=')).toBeNull();
  });

  it('switches on the match won and each new intro card, not on what the page found when it loaded', () => {
    const seen: string[] = [];
    const t = obsTriggers({ won: 'Won', intro: 'Intro' }, (n) => seen.push(n));
    t.cards('intro', 3); // up when the page loaded
    t.match('m1', 'A'); // already won when the page loaded
    expect(seen).toEqual([]);
    t.match('m2', null);
    t.match('m2', null);
    t.match('m2', 'B');
    t.match('m2', 'B'); // a later state of the won match: once only
    expect(seen).toEqual(['Won']);
    t.cards('summary', 4);
    t.cards('summary', 4);
    t.cards('intro', 5);
    t.cards('intro', 5); // the same card again (a table push for another reason)
    expect(seen).toEqual(['Won', 'Intro']);
    t.match('m2', null); // undo of the win
    t.match('m2', 'B');
    expect(seen).toEqual(['Won', 'Intro', 'Won']);
  });

  it('switches only with the advanced control level, and never throws', () => {
    const calls: string[] = [];
    const obs = (level: number) => ({ getControlLevel: (cb: (l: number) => void) => cb(level), setCurrentScene: (n: string) => calls.push(`${level}:${n}`) });
    for (const level of [0, 1, 2, 3, 4, 5]) switchScene('S', obs(level));
    expect(calls).toEqual(['4:S', '5:S']);
    expect(() => switchScene('S', undefined)).not.toThrow();
    expect(() => switchScene('S', {})).not.toThrow();
    expect(() =>
      switchScene('S', {
        getControlLevel: () => {
          throw new Error('x');
        },
      }),
    ).not.toThrow();
    expect(() =>
      switchScene('S', {
        getControlLevel: (cb) => cb(5),
        setCurrentScene: () => {
          throw new Error('x');
        },
      }),
    ).not.toThrow();
    expect(() => switchScene('S', { getControlLevel: (cb) => cb(5) })).not.toThrow();
  });
});

describe('sponsor slot placement', () => {
  const safeHalf = 864;
  it('stays inside the action-safe width beside the bar or the bug for every size and scale, above the bar when it cannot', () => {
    for (const size of ['s', 'm', 'l'] as Size[]) {
      for (const scale of [0.5, 0.75, 1, 1.25, 1.5, 2]) {
        const k = SIZE_FACTOR[size] * scale;
        const bar = slotPlacement({ layout: 'bar', size, scale });
        const kb = Math.min(k, 1.44);
        if (bar.where === 'beside') expect((600 + SLOT.gap + bar.w) * kb).toBeLessThanOrEqual(safeHalf);
        else expect(bar).toEqual({ where: 'above', w: SLOT_ABOVE.w, h: SLOT_ABOVE.h });
        const bug = slotPlacement({ layout: 'corner', size, scale });
        expect(bug.where).toBe('beside');
        expect((520 + SLOT.gap + bug.w) * Math.min(k, 2.5)).toBeLessThanOrEqual(2 * safeHalf);
        expect(bug.w).toBeGreaterThan(100);
      }
    }
    expect(slotPlacement({ layout: 'bar', size: 'm', scale: 1 })).toEqual({ where: 'beside', w: 180, h: 96 });
    expect(slotPlacement({ layout: 'bar', size: 'l', scale: 1 }).where).toBe('above');
  });
});
