/**
 * The pure parts of events: the intro and summary card data (shared/cards.ts) from matches played with the
 * engine, the card actions, the event pages' theme-preset merge, every accepted country having a flag in the
 * shipped package (the event pages' strings are in the one translation table: tests/pages/i18n-tables.test.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyCardAction, initialCards, introCard, replay, racksWon, statsOf, summaryCard, view, COUNTRY_CODES, flagFile, type Step } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { presetSearch } from '../../overlay/src/theme-preset';
import { flagUrl } from '../../web/src/lib/flags';
import { stepsToWin } from '../helpers/events';
import { REPO_ROOT } from '../helpers/server';

const CTX = { eventName: 'Friday League', tableName: 'TV table' };

describe('intro card', () => {
  it('given a set-up with countries and a handicap, when the intro is built, then it names both players, flags, race, format and where', () => {
    const setup = parseSetup({ discipline: 'rotation', players: ['Chen Wei', 'Dora Díaz'], countries: ['TW', null], targets: [120, 90], breaker: 'B' });
    expect(introCard(setup, CTX)).toEqual({
      ...CTX,
      discipline: 'rotation',
      ruleset: 'nba',
      format: 'race',
      targets: [120, 90],
      handicap: true,
      players: [
        { name: 'Chen Wei', short: null, country: 'TW' },
        { name: 'Dora Díaz', short: null, country: null },
      ],
      breaker: 'B',
      scoreSoFar: null,
    });
    expect(introCard(parseSetup({ discipline: 'rotation', players: ['A', 'B'], options: { format: 'single-rack-61' } }), CTX).format).toBe('single-rack-61');
  });
});

describe('summary card', () => {
  it('given a 14-1 match won by A, when the summary is built, then it carries the final score, high runs, innings, averages and fouls', () => {
    const raw = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [3, 3] } as const;
    const foul: Step = { shot: { call: { made: false }, cueBall: 'scratch' } };
    const win = stepsToWin(raw);
    // B fouls once before missing: insert the scratch in place of B's miss.
    const steps = [win[0]!, foul, ...win.slice(2)];
    const setup = parseSetup(raw);
    const m = replay(setup, steps);
    const s = statsOf(m);
    const card = summaryCard(setup, view(m), s, CTX);
    expect(card).toMatchObject({ ...CTX, discipline: '14-1', winner: 'A', score: [3, -1], targets: [3, 3], highRun: [3, 0], racksWon: null, racks: 1 });
    expect(card.innings).toEqual(view(m).innings);
    expect(card.fouls).toEqual([0, 1]);
    expect(card.average[0]).toBeCloseTo(s.players[0].average);
  });

  it('given Rotation racks, when racks won are counted, then a rack goes to the player who reached 61, and the single rack to the winner', () => {
    const race = parseSetup({ discipline: 'rotation', players: ['A', 'B'] });
    const racks = [
      { rack: 1, points: [70, 50] as [number, number], balls: [[], []] as [number[], number[]] },
      { rack: 2, points: [40, 80] as [number, number], balls: [[], []] as [number[], number[]] },
      { rack: 3, points: [61, 0] as [number, number], balls: [[], []] as [number[], number[]] },
      { rack: 4, points: [30, 20] as [number, number], balls: [[], []] as [number[], number[]] },
    ];
    expect(racksWon(race, racks, null)).toEqual([2, 1]);
    const single = parseSetup({ discipline: 'rotation', players: ['A', 'B'], options: { format: 'single-rack-61' } });
    expect(racksWon(single, [{ rack: 1, points: [60, 60], balls: [[], []] }], 'B')).toEqual([0, 1]);
  });
});

describe('card actions', () => {
  it('show, toggle and hide cards for the current match, keep the caption and auto flags apart, and refuse a card without a match', () => {
    let c = initialCards();
    expect(applyCardAction(c, 'intro', null)).toBeNull();
    c = applyCardAction(c, 'intro', 'm1')!;
    expect(c).toMatchObject({ show: 'intro', matchId: 'm1', shownBy: 'organiser', seq: 1 });
    c = applyCardAction(c, 'toggle-summary', 'm1')!;
    expect(c).toMatchObject({ show: 'summary', seq: 2 });
    c = applyCardAction(c, 'toggle-summary', 'm1')!;
    expect(c).toMatchObject({ show: 'none', matchId: null });
    c = applyCardAction(applyCardAction(c, 'caption-toggle', null)!, 'auto-off', null)!;
    expect(c).toMatchObject({ captionHidden: true, auto: false, show: 'none' });
  });
});

describe('theme preset', () => {
  it('adds the preset’s parameters where the overlay URL has none; the URL’s own win', () => {
    expect(presetSearch('', { theme: 'light', accent: 'ff8800' })).toBe('?theme=light&accent=ff8800');
    expect(presetSearch('?theme=dark&lang=ja', { theme: 'light', layout: 'corner' })).toBe('?theme=dark&lang=ja&layout=corner');
    expect(presetSearch('?debug=1', {})).toBe('?debug=1');
  });
});

describe('flags', () => {
  it('ships a flag for every accepted country code, at the URL the pages use', () => {
    expect(COUNTRY_CODES.size).toBe(254);
    for (const code of COUNTRY_CODES) {
      expect(existsSync(join(REPO_ROOT, 'node_modules/flag-icons/flags/4x3', flagFile(code))), code).toBe(true);
      expect(flagUrl(code)).toBe(`/flags/${flagFile(code)}`);
    }
  });
});
