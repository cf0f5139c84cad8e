/**
 * The table overlay's cards as they print (overlay/src/table/cards-view.ts), from matches played with
 * the engine: display order (`side`), full names on the bar layout's card and short names on the corner's,
 * the race or each handicap player's own target, the format line and who breaks, the summary's statistics
 * under the right player (Rotation: racks won), rows the URL hides, the winner, names nothing can draw, and
 * every language's words from the one table.
 */
import { describe, expect, it } from 'vitest';
import '../../web/src/lib/i18n-air'; // every language's on-air and cards strings
import { introView, summaryView } from '../../overlay/src/table/cards-view';
import { parseOverlayParams } from '../../overlay/src/params';
import { introCard, replay, statsOf, summaryCard, view, type Step } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { stepsToWin } from '../helpers/events';

const CTX = { eventName: 'Friday League', tableName: 'TV table' };
const STRAIGHT = {
  discipline: '14-1',
  ruleset: 'wpa',
  players: ['Ann Andersen', 'Bob Brown'],
  shortNames: ['Ann', null],
  countries: ['DK', 'GB-ENG'],
  targets: [3, 3],
} as const;

/** The summary card of `raw` after `steps`. */
function summaryOf(raw: object, steps: Step[]) {
  const setup = parseSetup(raw);
  const m = replay(setup, steps);
  return summaryCard(setup, view(m), statsOf(m), CTX);
}

describe('intro card view', () => {
  it('given a 14-1 match, when shown on the bar layout, then full names, flags, the race, the format and who breaks', () => {
    const v = introView(introCard(parseSetup(STRAIGHT), CTX), parseOverlayParams(''));
    expect(v).toMatchObject({ kind: 'intro', title: 'Friday League', where: 'TV table', centre: 'Race to 3', rows: [] });
    expect(v.players.map((p) => [p.key, p.name, p.country, p.target, p.score])).toEqual([
      ['A', 'Ann Andersen', 'DK', null, null],
      ['B', 'Bob Brown', 'GB-ENG', null, null],
    ]);
    expect(v.details).toEqual(['14-1 \u00b7 WPA', 'Ann Andersen to break']);
  });

  it('given an intro re-sent after the first shot, then it shows the score so far in display order, not who breaks; after undoing every step, who breaks again', () => {
    const setup = parseSetup(STRAIGHT);
    const steps = stepsToWin({ ...STRAIGHT });
    const mid = view(replay(setup, steps.slice(0, 3)));
    expect(mid.steps).toBe(3);
    const v = introView(introCard(setup, CTX, mid), parseOverlayParams(''));
    expect(v.details).toEqual(['14-1 \u00b7 WPA', `Score ${mid.score[0]} \u2013 ${mid.score[1]}`]);
    expect(v.details.join(' ')).not.toContain('to break');
    const sideB = introView(introCard(setup, CTX, mid), parseOverlayParams('?side=B'));
    expect(sideB.details[1]).toBe(`Score ${mid.score[1]} \u2013 ${mid.score[0]}`);
    const back = view(replay(setup, [...steps.slice(0, 1), { undo: true }]));
    expect(back.steps).toBe(0);
    expect(introView(introCard(setup, CTX, back), parseOverlayParams('')).details[1]).toBe('Ann Andersen to break');
  });

  it('given the corner layout and side=B, then B comes first and short names are used where there is one', () => {
    const v = introView(introCard(parseSetup({ ...STRAIGHT, breaker: 'B' }), CTX), parseOverlayParams('?layout=corner&side=B'));
    expect(v.players.map((p) => [p.key, p.name, p.fullName])).toEqual([
      ['B', 'Bob Brown', 'Bob Brown'],
      ['A', 'Ann', 'Ann Andersen'],
    ]);
    expect(v.details[1]).toBe('Bob Brown to break');
  });

  it('given a Rotation handicap single rack, then the discipline in the centre, each target under its player, and the format', () => {
    const setup = parseSetup({ discipline: 'rotation', players: ['Chen Wei', 'Dora Díaz'], targets: [120, 90], options: { format: 'single-rack-61' } });
    const v = introView(introCard(setup, CTX), parseOverlayParams('?lang=ja'));
    expect(v.centre).toBe('ローテーション');
    expect(v.players.map((p) => p.target)).toEqual(['120点先取', '90点先取']);
    expect(v.details[0]).toBe('ローテーション \u00b7 1ラック(61点先取)');
    // hide=target: no targets, and no race in the centre of an even match either.
    expect(introView(introCard(setup, CTX), parseOverlayParams('?hide=target')).players.map((p) => p.target)).toEqual([null, null]);
    expect(introView(introCard(parseSetup(STRAIGHT), CTX), parseOverlayParams('?hide=target')).centre).toBe('');
  });

  it('given a name nothing on the machine can draw, then the card reads "Player A" instead of a blank', () => {
    const v = introView(introCard(parseSetup(STRAIGHT), CTX), parseOverlayParams('?lang=zh-TW&layout=corner'), (s) => (s.startsWith('Ann') ? '' : s));
    expect(v.players[0].name).toBe('選手 A');
    expect(v.details[1]).toBe('選手 A 開球');
  });
});

describe('summary card view', () => {
  it('given a 14-1 match won by A with a foul by B, then "Final", the scores, the winner and the statistics under each player', () => {
    const win = stepsToWin(STRAIGHT);
    const card = summaryOf(STRAIGHT, [win[0]!, { shot: { call: { made: false }, cueBall: 'scratch' } }, ...win.slice(2)]);
    const v = summaryView(card, parseOverlayParams(''));
    expect(v).toMatchObject({ kind: 'summary', title: 'Final', where: 'Friday League \u00b7 TV table', centre: 'Race to 3', details: [] });
    expect(v.players.map((p) => [p.key, p.score, p.winner])).toEqual([
      ['A', '3', true],
      ['B', '\u22121', false],
    ]);
    expect(v.rows.map((r) => [r.id, r.label, ...r.values])).toEqual([
      ['high-run', 'High run', '3', '0'],
      ['innings', 'Innings', String(card.innings[0]), String(card.innings[1])],
      ['average', 'Average', card.average[0]!.toFixed(2), '\u22121.00'],
      ['fouls', 'Fouls', '0', '1'],
    ]);
    // side=B swaps every column; hide=highrun,fouls drops those rows.
    const swapped = summaryView(card, parseOverlayParams('?side=B&hide=highrun,fouls'));
    expect(swapped.players.map((p) => p.key)).toEqual(['B', 'A']);
    expect(swapped.rows.map((r) => [r.id, ...r.values])).toEqual([
      ['innings', String(card.innings[1]), String(card.innings[0])],
      ['average', '\u22121.00', card.average[0]!.toFixed(2)],
    ]);
  });

  it('given a Rotation match in progress, then "Score" (no winner yet) and the racks each player won', () => {
    const raw = { discipline: 'rotation', players: ['Chen Wei', 'Dora Díaz'], targets: [240, 240] };
    // A pockets the 1 with the 15, then clears 2–14: rack 1 (120 points) goes to A, the match goes on.
    const steps: Step[] = [{ shot: { pocketed: [1, 15] } }, ...[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map((b) => ({ shot: { pocketed: [b] } }))];
    const card = summaryOf(raw, steps);
    const v = summaryView(card, parseOverlayParams('?lang=en'));
    expect(v.title).toBe('Score');
    expect(v.players.every((p) => !p.winner)).toBe(true);
    expect(v.rows.at(-1)).toEqual({ id: 'racks-won', label: 'Racks won', values: [String(card.racksWon![0]), String(card.racksWon![1])] });
    expect(card.racksWon).toEqual([1, 0]);
  });
});

describe('a match the draw made', () => {
  const drawn = { ...CTX, draw: { match: 'W2-5', side: 'W' as const, round: 'W2', roundName: "Winners' round 2" } };
  it('given a draw place, when the intro is shown, then its round and bracket place stand before the table, in the overlay language', () => {
    expect(introView(introCard(parseSetup(STRAIGHT), drawn), parseOverlayParams('')).where).toBe('Winners R2 \u00b7 M5 \u00b7 TV table');
    expect(introView(introCard(parseSetup(STRAIGHT), drawn), parseOverlayParams('?lang=ja')).where).toBe('ウィナーズ 2回戦 \u00b7 第5試合 \u00b7 TV table');
    const final = { ...CTX, draw: { match: 'L6-1', side: 'L' as const, round: 'L6', roundName: "Losers' final" } };
    expect(introView(introCard(parseSetup(STRAIGHT), final), parseOverlayParams('?lang=zh-TW')).where).toBe('敗部決賽 \u00b7 TV table');
    // Without a draw the card is as before.
    expect(introView(introCard(parseSetup(STRAIGHT), CTX), parseOverlayParams('')).where).toBe('TV table');
  });
  it('given a draw place, when the summary is shown, then the event and the place', () => {
    const setup = parseSetup(STRAIGHT);
    const m = replay(setup, []);
    const card = summaryCard(setup, view(m), statsOf(m), { ...CTX, draw: { match: 'GB-2-1', side: 'G', round: 'G2', roundName: 'Group round 2', group: 'B' } });
    expect(summaryView(card, parseOverlayParams('')).where).toBe('Friday League \u00b7 Group B \u00b7 R2');
  });
});
