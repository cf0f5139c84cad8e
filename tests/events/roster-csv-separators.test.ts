/**
 * Roster CSV separators (server/events/roster-csv.ts `csvDelimiter`): a comma-separated file, and the same roster
 * saved with semicolons (spreadsheets in many locales) or pasted as tab-separated cells, give the same players; the
 * separator is read from the first line outside quotes, so a comma or semicolon inside a quoted name changes
 * nothing, and a one-column file is names only.
 */
import { describe, expect, it } from 'vitest';
import { csvDelimiter, parseRosterCsv } from '../../server/events/roster-csv';

const PLAYERS = [
  { name: 'Ann Andersen', short: 'Ann', country: 'DK', rating: 612 },
  { name: 'Brown, Bob', country: 'GB-ENG', rating: 600 },
  { name: 'Chen Wei', country: 'TW' },
];

describe('roster CSV separators', () => {
  it('comma, semicolon and tab files give the same players', () => {
    const comma = 'name,short,country,rating\nAnn Andersen,Ann,DK,612\n"Brown, Bob",,GB-ENG,600\nChen Wei,,TW,\n';
    const semicolon = '\uFEFFname;short;country;rating\r\nAnn Andersen;Ann;DK;612\r\n"Brown, Bob";;GB-ENG;600\r\nChen Wei;;TW;\r\n';
    const tab = 'name\tshort\tcountry\trating\nAnn Andersen\tAnn\tDK\t612\n"Brown, Bob"\t\tGB-ENG\t600\nChen Wei\t\tTW\t\n';
    expect([csvDelimiter(comma), csvDelimiter(semicolon), csvDelimiter(tab)]).toEqual([',', ';', '\t']);
    for (const text of [comma, semicolon, tab]) expect(parseRosterCsv(text), JSON.stringify(text)).toEqual(PLAYERS);
  });

  it('reads the separator from the first line that holds anything, outside quotes', () => {
    expect(csvDelimiter('\n\n"Lee; Kim";KR\nAnn,DK')).toBe(';');
    expect(csvDelimiter('"Brown; Bob",GB-ENG')).toBe(',');
    expect(csvDelimiter('Ann Andersen\nBob Brown')).toBe(',');
    expect(parseRosterCsv('Ann Andersen\nBob Brown')).toEqual([{ name: 'Ann Andersen' }, { name: 'Bob Brown' }]);
    expect(csvDelimiter('')).toBe(',');
  });
});
