/**
 * Roster import from CSV (issue 27 §6): rows `name, short, country, rating` (RFC 4180 as csv-parse reads it:
 * quoted fields, `""` in quotes, CRLF or LF, a byte-order mark; separated by commas, or by semicolons or tabs when
 * the first line has no comma). A first row naming the columns (`name`, `short`,
 * `country`, `rating`, in any order; `name` required, others optional) is a header and sets the columns' order;
 * without one the columns are in that order. Empty lines are skipped; an empty cell leaves the field out.
 * Every row is checked as `POST /api/events/<id>/players` checks a player (playerSchema), and a name may be in
 * the file once (trimmed, case-insensitive): the first bad row is refused naming its row (the file's line, 1 =
 * the first) and column, and nothing is imported. Names already on the roster are the import's to skip.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { RulesError } from '../../shared/protocol/errors';
import { EVENT_LIMITS } from '../../shared/protocol/event';
import { playerSchema } from '../protocol/event-schemas';
import { playerNameKey, type PlayerInput } from './event-docs';

const COLUMNS = ['name', 'short', 'country', 'rating'] as const;
type Column = (typeof COLUMNS)[number];

function refuse(row: number, column: Column | null, why: string): never {
  const where = column === null ? `row ${row}` : `row ${row}, column ${column}`;
  throw new RulesError('invalid-roster', `${where}: ${why}; nothing was imported`, column === null ? `rows.${row}` : `rows.${row}.${column}`);
}

/**
 * The separator of roster CSV `text`, read from its first line outside quotes: a comma when it has one, else a
 * semicolon (what spreadsheets in many locales save as "CSV"), else a tab (cells pasted from a spreadsheet), else a
 * comma (one column).
 */
export function csvDelimiter(text: string): ',' | ';' | '\t' {
  const seen = new Set<string>();
  let quoted = false;
  let content = false;
  for (const ch of text) {
    if (ch === '"') {
      quoted = !quoted;
      content = true;
    } else if (quoted) continue;
    else if (ch === '\n' || ch === '\r') {
      if (content) break; // the end of the first line that holds anything
    } else if (ch === ',' || ch === ';' || ch === '\t') {
      seen.add(ch);
      content = true;
    } else if (ch.trim() !== '') content = true;
  }
  return seen.has(',') ? ',' : seen.has(';') ? ';' : seen.has('\t') ? '\t' : ',';
}

/**
 * The players of roster CSV `text` (comma-, semicolon- or tab-separated: csvDelimiter), in file order.
 * @throws RulesError `invalid-roster` naming `rows.<row>.<column>` (or `rows.<row>` for a row that does not
 * parse, `csv` when there is no player or too many).
 */
export function parseRosterCsv(text: string): PlayerInput[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true, trim: true, delimiter: csvDelimiter(text) }) as never;
  } catch (err) {
    if (err instanceof CsvError) {
      const line = (err as CsvError & { lines?: number }).lines ?? 1;
      refuse(line, null, `not CSV: ${err.message.replace(/^Invalid [^:]*:\s*/, '')}`);
    }
    throw err;
  }
  let columns: readonly Column[] = COLUMNS;
  const first = records[0]?.record.map((c) => c.toLowerCase());
  if (first && first.includes('name') && first.every((c) => (COLUMNS as readonly string[]).includes(c))) {
    const seen = new Set<string>();
    for (const c of first) {
      if (seen.has(c)) refuse(records[0]!.info.lines, c as Column, 'the header names this column twice');
      seen.add(c);
    }
    columns = first as Column[];
    records = records.slice(1);
  }
  if (records.length === 0) throw new RulesError('invalid-roster', 'csv: no player in it (rows: name, short, country, rating); nothing was imported', 'csv');
  if (records.length > EVENT_LIMITS.roster)
    throw new RulesError('invalid-roster', `csv: ${records.length} players; a roster holds at most ${EVENT_LIMITS.roster}; nothing was imported`, 'csv');
  const out: PlayerInput[] = [];
  const rowOfName = new Map<string, number>();
  for (const { record, info } of records) {
    const row = info.lines;
    if (record.length > columns.length)
      refuse(row, null, `${record.length} columns; a row has at most ${columns.length} (${columns.join(', ')}): quote a value that holds a comma`);
    const p: Record<string, unknown> = {};
    for (const [i, col] of columns.entries()) {
      const v = record[i] ?? '';
      if (v === '') continue;
      if (col === 'rating') {
        const n = Number(v);
        if (!/^\d+(\.\d+)?$/.test(v) || !Number.isFinite(n)) refuse(row, col, `"${v.slice(0, 20)}" is not a number (a rating is 0 to 100000)`);
        p.rating = n;
      } else p[col] = col === 'country' ? v.toUpperCase() : v;
    }
    if (p.name === undefined) refuse(row, 'name', 'a player needs a name');
    const checked = playerSchema.safeParse(p);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const col = String(issue.path[0] ?? 'name') as Column;
      refuse(row, col, `${issue.message} (got "${String(p[col]).slice(0, 40)}")`);
    }
    const key = playerNameKey(checked.data.name);
    const earlier = rowOfName.get(key);
    if (earlier !== undefined) refuse(row, 'name', `"${checked.data.name}" is on row ${earlier} already; each player's name is different`);
    rowOfName.set(key, row);
    out.push(checked.data);
  }
  return out;
}
