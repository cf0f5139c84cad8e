/** CSV exports: the score sheet (docs/rules.md §3.13, one row per inning of one player) and an event's results (one row per match). */
import type { EventResults } from '../../../shared/protocol/results';
import type { MatchSetup } from '../../../shared/protocol/setup';
import type { SheetRow } from '../../../shared/protocol/state';
import type { Pair } from '../../../shared/protocol/vocabulary';

const HEADER = ['player', 'name', 'inning', 'rack', 'points', 'penalty', 'mark', 'total', 'balls', 'open'];

/** Quote a CSV cell when it holds a comma, quote or line break; neutralise spreadsheet formulas. */
function cell(v: string | number | boolean): string {
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s) && typeof v === 'string') s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV text (RFC 4180, CRLF line ends, header first) of the sheet rows of a match. */
export function sheetCsv(setup: MatchSetup, rows: readonly SheetRow[]): string {
  const lines = [HEADER.join(',')];
  for (const r of rows) {
    const name = r.player === 'A' ? setup.players[0] : setup.players[1];
    lines.push([r.player, name, r.inning, r.rack, r.points, r.penalty, r.mark, r.total, (r.balls ?? []).join(' '), r.open ? 'yes' : ''].map(cell).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

const RESULTS_HEADER = [
  'round',
  'place',
  'draw_match',
  'match_id',
  'player_a',
  'player_b',
  'score_a',
  'score_b',
  'innings_a',
  'innings_b',
  'high_run_a',
  'high_run_b',
  'winner',
  'result',
  'status',
  'table',
  'started_at',
  'ended_at',
  'sheet',
];

/** An ISO 8601 UTC time, or '' for none. */
const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

/**
 * CSV text (RFC 4180, CRLF line ends, header first) of an event's results: one row per match (see `ResultRow`),
 * times in ISO 8601 UTC, `sheet` the match's score sheet as CSV under `base` (empty when no match was played).
 */
export function resultsCsv(results: EventResults, base: string): string {
  const lines = [RESULTS_HEADER.join(',')];
  const pair = (p: Pair<number> | null): [string | number, string | number] => (p ? p : ['', '']);
  for (const r of results.matches) {
    const cells = [
      r.round ?? '',
      r.place ?? '',
      r.drawMatch ?? '',
      '',
      r.players[0],
      r.players[1],
      ...pair(r.score),
      ...pair(r.innings),
      ...pair(r.highRun),
      r.winner ?? '',
      r.kind ?? '',
      r.status,
      r.table ?? '',
      iso(r.startedAt),
      iso(r.endedAt),
      r.matchId ? `${base}/api/matches/${encodeURIComponent(r.matchId)}/sheet.csv` : '',
    ].map(cell);
    // A match id is [A-Za-z0-9_-] and may start with "-": written as it is, never neutralised as a formula.
    cells[3] = r.matchId ?? '';
    lines.push(cells.join(','));
  }
  return lines.join('\r\n') + '\r\n';
}
