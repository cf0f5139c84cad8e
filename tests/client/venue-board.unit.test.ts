/**
 * The hall board's pure parts (issue 29 item 6, issue 27 §5): a name printed whole up to 40 characters (graphemes)
 * and cut with "…" after 39 past it; the largest size at which a text fits; a draw match's round and place as one
 * line; "next up" from a draw (ready matches in the draw's order, at most 4, names from the roster, the pinned or
 * featured table) and nothing without a draw.
 */
import { describe, expect, it } from 'vitest';
import { drawPlaceLabel, type DrawMatchView } from '../../shared/draw/index';
import { capName, fitPx } from '../../web/src/lib/names';
import { drawPlaceOf, nextUp, type BoardDraw } from '../../web/src/venue/venue';

const view = (id: string, o: Partial<DrawMatchView>): DrawMatchView => ({
  id,
  side: 'W',
  round: 'R1',
  roundName: 'Round 1',
  place: `R1 M${id.slice(-1)}`,
  players: ['p1', 'p2'],
  race: 5,
  status: 'ready',
  ...o,
});

describe('hall board parts', () => {
  it('capName: whole up to 40 graphemes, else 39 and "…"', () => {
    const forty = 'Maximiliano Alejandro de la Cruz Herrera';
    expect([...forty]).toHaveLength(40);
    expect(capName(forty)).toBe(forty);
    expect(capName(`  ${forty}  `)).toBe(forty);
    expect(capName('Johann Sebastian Ferdinand von Hohenzollern-Sigmaringen')).toBe('Johann Sebastian Ferdinand von Hohenzol…');
    const flags = '🇹🇼'.repeat(41);
    expect([...new Intl.Segmenter().segment(capName(flags))]).toHaveLength(40);
  });

  it('fitPx: the largest whole size that fits, at most the given one', () => {
    const measure = (text: string, px: number) => text.length * px * 0.6;
    expect(fitPx('abcdefghij', 1000, measure, 40)).toBe(40);
    const px = fitPx('abcdefghij', 100, measure, 40);
    expect(measure('abcdefghij', px)).toBeLessThanOrEqual(100);
    expect(measure('abcdefghij', px + 1)).toBeGreaterThan(100);
    expect(fitPx('abc', 0, measure, 30)).toBe(30);
  });

  it('drawPlaceLabel: round name, group, match number', () => {
    expect(drawPlaceLabel({ roundName: 'Semi-finals', place: 'R3 M2' })).toBe('Semi-finals · Match 2');
    expect(drawPlaceLabel({ roundName: "Losers' round 3", place: 'L R3 M1' })).toBe("Losers' round 3 · Match 1");
    expect(drawPlaceLabel({ roundName: 'Hot seat', place: 'Hot seat' })).toBe('Hot seat');
    expect(drawPlaceLabel({ roundName: 'Final reset', place: 'Final reset' })).toBe('Final reset');
    expect(drawPlaceLabel({ roundName: 'Group round 2', place: 'Group B R2 M1', group: 'B' })).toBe('Group B · Round 2 · Match 1');
  });

  it('nextUp: the ready matches in order, at most 4, names from the roster, the planned table; none without a draw', () => {
    const roster = [
      { id: 'p1', name: 'Ann Andersen', country: 'DK' },
      { id: 'p2', name: 'Bob Brown' },
    ];
    const tables = [
      { id: 'tv', name: 'TV table' },
      { id: 't2', name: 'Table 2' },
    ];
    const matches = ['R1-1', 'R1-2', 'R1-3', 'R1-4', 'R1-5', 'R1-6'].map((id) => view(id, {}));
    matches[0] = view('R1-1', { status: 'playing', matchId: 'm-1', table: 't2' });
    matches[5] = view('R1-6', { players: ['p1', 'bye'], status: 'bye' });
    const d: BoardDraw = {
      settings: { pins: { 'R1-3': 't2' }, featured: ['R1-4'], tvTable: 'tv' },
      draw: { matches, ready: ['R1-2', 'R1-3', 'R1-4', 'R1-5', 'R1-6'] },
    };
    const up = nextUp(d, roster, tables);
    expect(up.map((u) => u.id)).toEqual(['R1-2', 'R1-3', 'R1-4', 'R1-5']);
    expect(up[0]).toEqual({ id: 'R1-2', label: 'Round 1 · Match 2', players: ['Ann Andersen', 'Bob Brown'], countries: ['DK', null], table: null });
    expect(up.map((u) => u.table)).toEqual([null, 'Table 2', 'TV table', null]);
    expect(nextUp(d, roster, tables, 2)).toHaveLength(2);
    expect(nextUp(null, roster, tables)).toEqual([]);
    expect(drawPlaceOf(d, 'm-1')).toBe('Round 1 · Match 1');
    expect(drawPlaceOf(d, 'other')).toBeNull();
    expect(drawPlaceOf(null, 'm-1')).toBeNull();
  });
});
