/** The score sheet (docs/rules.md §3.13) as CSV: one row per inning of one player. */
import type { MatchSetup } from '../../../shared/protocol/setup';
import type { SheetRow } from '../../../shared/protocol/state';

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
