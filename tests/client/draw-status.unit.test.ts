/**
 * The state line under a draw match on the draw page (web/src/draw/match-status.ts `matchStatusText`), for every
 * match status: the race shows only where a race will be played, never on a decided match, a bye or a void one
 * (a bye against a bye, a final reset not played), in each language.
 */
import { describe, expect, it } from 'vitest';
import type { DrawMatchView, MatchStatus } from '../../shared/draw/state';
import { matchStatusText } from '../../web/src/draw/match-status';

const view = (status: MatchStatus, o: Partial<DrawMatchView> = {}): DrawMatchView => ({
  id: 'W1-1',
  side: 'W',
  round: 'W1',
  roundName: 'Round 1',
  place: 'W1 M1',
  players: ['p1', 'p2'],
  race: 3,
  status,
  ...o,
});
const TABLES = new Map([['table-2', 'Table 2']]);
const win = { winner: 'p1', kind: 'win', score: [3, 1] } as DrawMatchView['result'];

describe('matchStatusText', () => {
  it('names the table, the walkover or retirement, and the race only where one is to be played', () => {
    expect(matchStatusText(view('playing', { table: 'table-2' }), TABLES, 'en')).toBe('Live on Table 2');
    expect(matchStatusText(view('playing', { table: 'table-9' }), TABLES, 'en')).toBe('Live on table-9');
    expect(matchStatusText(view('ready'), TABLES, 'en')).toBe('Up next · Race to 3');
    expect(matchStatusText(view('waiting', { players: [null, null] }), TABLES, 'en')).toBe('Race to 3');
    expect(matchStatusText(view('held'), TABLES, 'en')).toBe('Race to 3');
    expect(matchStatusText(view('done', { result: { ...win!, kind: 'walkover' } }), TABLES, 'en')).toBe('walkover');
    expect(matchStatusText(view('done', { result: { ...win!, kind: 'retired' } }), TABLES, 'en')).toBe('retired');
    for (const status of ['done', 'bye', 'void'] as const) {
      const m = view(status, status === 'done' ? { result: win } : { players: status === 'void' ? ['bye', 'bye'] : ['p1', 'bye'] });
      for (const lang of ['en', 'ja', 'zh-TW'] as const) expect(matchStatusText(m, TABLES, lang), `${status} ${lang}`).toBe('');
    }
  });
});
