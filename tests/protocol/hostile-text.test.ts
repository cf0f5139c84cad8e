/**
 * Hostile text, by kind: every Unicode noncharacter (U+FDD0–U+FDEF, U+xFFFE/U+xFFFF in all 17 planes) and every
 * character XML 1.0 forbids (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF) is refused in every text
 * input — player names and short names of a set-up, event, roster and table names, sponsor names, step ids, the
 * called pocket — with an error naming the field and the character (shared/protocol/limits.ts `unsafeTextReason`);
 * and a table's feed (server/events/table-feed.ts) is well-formed XML whatever is stored, checked with
 * fast-xml-parser's validator over generated names (the output side: names stored before the rule).
 */
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { feedText, feedXml, tableFeed } from '../../server/events/table-feed';
import { sponsorName } from '../../server/events/sponsors';
import { eventCreateSchema, parseEventBody, tableAddSchema } from '../../server/protocol/event-schemas';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { parseStep } from '../../server/protocol/step-schemas';
import { recordBodySchema } from '../../server/protocol/wire-schemas';
import { newMatch, view } from '../../shared/index';
import type { TableState } from '../../shared/protocol/event';
import { RulesError } from '../../shared/protocol/errors';
import { UNSAFE_TEXT, unsafeTextReason } from '../../shared/protocol/limits';
import { fcRuns } from '../helpers/fc-runs';

/** The 66 noncharacters. */
const NONCHARACTERS: number[] = [];
for (let c = 0xfdd0; c <= 0xfdef; c++) NONCHARACTERS.push(c);
for (let plane = 0; plane <= 0x10; plane++) NONCHARACTERS.push(plane * 0x10000 + 0xfffe, plane * 0x10000 + 0xffff);
/** C0 controls XML 1.0 forbids (all but tab, LF, CR). */
const C0_FORBIDDEN: number[] = [];
for (let c = 0; c < 0x20; c++) if (c !== 0x09 && c !== 0x0a && c !== 0x0d) C0_FORBIDDEN.push(c);
/** Every character XML 1.0 forbids or Unicode never interchanges, as strings (lone surrogates as one code unit). */
const FORBIDDEN: string[] = [
  ...NONCHARACTERS.map((c) => String.fromCodePoint(c)),
  ...C0_FORBIDDEN.map((c) => String.fromCharCode(c)),
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\ud83c', // lone high and low surrogates
];

/** Characters a real name may hold: letters of several scripts, digits, punctuation, emoji (a surrogate pair), spaces. */
const friendly = fc.constantFrom(...'AaZzÉéßŁ王小明山田محمدНиколай01 .-’'.split(''), '🎱', '😀', 'Ω');
/** A name with at least one forbidden character among ordinary ones, within its first 8 code units (so the 16-character short forms keep it). */
const hostileName = fc
  .tuple(
    fc.array(friendly, { maxLength: 4 }),
    fc.array(fc.constantFrom(...FORBIDDEN), { minLength: 1, maxLength: 3 }),
    fc.array(friendly, { minLength: 1, maxLength: 12 }),
  )
  // A letter first: trimming never takes a bad character away. The bad characters are kept apart by a letter:
  // two lone surrogates side by side (U+D800 then U+DC00) are one real character (U+10000), not a bad one.
  .map(([a, bad, b]) => `Z${a.join('')}${bad.join('x')}x${b.join('')}`.slice(0, 50));
/** Any text at all, forbidden characters often among it: what the store may hold from before the rule. */
const storedText = fc
  .array(fc.oneof(friendly, fc.constantFrom(...FORBIDDEN, '&', '<', '>', '"', "'", ']]>', '\t', '\n', '\r'), fc.string({ unit: 'binary' })), { maxLength: 10 })
  .map((parts) => parts.join(''));

function refusal(f: () => unknown): RulesError {
  try {
    f();
  } catch (err) {
    if (err instanceof RulesError) return err;
    throw err;
  }
  throw new Error('accepted');
}

/** The first forbidden character of `s`, as `U+XXXX`. */
const firstBad = (s: string) => `U+${UNSAFE_TEXT.exec(s)![0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

describe('refused on input, naming the field and the character', () => {
  it('the rule covers every noncharacter and every character XML 1.0 forbids; tab, LF and CR too (they break a line on air)', () => {
    expect(NONCHARACTERS).toHaveLength(66);
    for (const ch of FORBIDDEN) expect(UNSAFE_TEXT.test(`Ann${ch}`), ch.codePointAt(0)!.toString(16)).toBe(true);
    for (const ch of ['\t', '\n', '\r']) expect(UNSAFE_TEXT.test(`Ann${ch}Bob`)).toBe(true);
    expect(unsafeTextReason('Ann\ufffe')).toMatch(/U\+FFFE, a Unicode noncharacter/);
    expect(unsafeTextReason('Ann\u{10ffff}')).toMatch(/U\+10FFFF, a Unicode noncharacter/);
    expect(unsafeTextReason('Ann\ufdd0')).toMatch(/U\+FDD0, a Unicode noncharacter/);
    expect(unsafeTextReason('Ann\u0001')).toMatch(/U\+0001, a control character/);
    expect(unsafeTextReason('Ann\udc00')).toMatch(/U\+DC00, half of a character \(a lone surrogate\)/);
    // Real names stay: the replacement character, private use, an astral emoji, U+FFFD's neighbours that are characters.
    for (const ok of ['Ann \ufffd', 'Ann \ue000', '🎱 Eddie', 'Ann \ufdcf\ufdf0', 'Ann \u{1fffd}']) expect(unsafeTextReason(ok), ok).toBeNull();
    // A high and a low surrogate side by side are one character, not two lone halves.
    expect(unsafeTextReason('Z\ud800\udc00x')).toBeNull();
  });

  it('property: a generated hostile name is refused in every text field, each naming its field', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        const u = firstBad(name);
        const cases: [string, () => unknown, string][] = [
          ['setup.players.1', () => parseSetup({ discipline: '14-1', players: ['Ann', name] }), 'invalid-setup'],
          ['setup.shortNames.0', () => parseSetup({ discipline: 'rotation', players: ['Ann', 'Bob'], shortNames: [name.slice(0, 16), null] }), 'invalid-setup'],
          ['name', () => parseEventBody(eventCreateSchema, { name, date: '2026-03-13', tables: ['T1'] }), 'invalid-event'],
          ['roster.0.name', () => parseEventBody(eventCreateSchema, { name: 'Cup', date: '2026-03-13', tables: ['T1'], roster: [{ name }] }), 'invalid-event'],
          ['tables.0', () => parseEventBody(eventCreateSchema, { name: 'Cup', date: '2026-03-13', tables: [name.slice(0, 20)] }), 'invalid-event'],
          ['name', () => parseEventBody(tableAddSchema, { name: name.slice(0, 20) }), 'invalid-event'],
          ['step.shot.call.pocket', () => parseStep({ shot: { call: { ball: 3, pocket: name.slice(0, 24) } } }), 'invalid-step'],
        ];
        for (const [field, f, code] of cases) {
          const e = refusal(f);
          expect(e.code, field).toBe(code);
          expect(e.field, field).toBe(field);
          // The character named (the short forms cut the name, so its first bad character may differ).
          expect(e.message, field).toMatch(/must not contain U\+[0-9A-F]{4,6}, /);
        }
        expect(refusal(() => parseSetup({ discipline: '14-1', players: [name, 'Bob'] })).message).toContain(u);
        const sponsor = sponsorName(name);
        expect(sponsor).toMatchObject({ ok: false, error: { code: 'invalid-event', field: 'name' } });
        const rest = recordBodySchema.safeParse({ stepId: name, step: { undo: true } });
        expect(rest.success).toBe(false);
        if (!rest.success) expect(rest.error.issues[0]!.message).toContain(u);
      }),
      { numRuns: fcRuns(200) },
    );
  });
});

describe('every feed is well-formed whatever is stored (defence for names stored before the rule)', () => {
  const setup = parseSetup({ discipline: '14-1', players: ['Ann', 'Bob'], shortNames: ['A', 'B'] });
  const table = (t: Partial<TableState>): TableState => ({
    eventId: 'ev1',
    eventName: 'Cup',
    table: 'table-1',
    name: 'Table 1',
    theme: {} as TableState['theme'],
    current: 'm1',
    next: null,
    nextPlayers: null,
    cards: { show: 'none', matchId: null } as unknown as TableState['cards'],
    sponsors: [],
    version: 1,
    ...t,
  });
  const parser = new XMLParser({ parseTagValue: false, trimValues: false });

  it('property: names, short names, event, table and next players of any text: feed.xml passes the XML validator and reads back as the JSON feed', () => {
    fc.assert(
      fc.property(fc.array(storedText, { minLength: 7, maxLength: 7 }), (t) => {
        const state = { ...view(newMatch(setup)), names: [t[0]!, t[1]!] as [string, string] };
        const feed = tableFeed(table({ eventName: t[2]!, name: t[3]!, nextPlayers: [t[4]!, t[5]!] }), {
          setup: { ...setup, shortNames: [t[6]!, null] },
          state,
          version: 0,
        });
        const xml = feedXml(feed);
        expect(XMLValidator.validate(xml)).toBe(true);
        const back = (parser.parse(xml) as { cuecast: { table: Record<string, string> } }).cuecast.table;
        // Every text is carried, each forbidden character replaced by U+FFFD; the JSON feed says the same.
        expect(back.nameA ?? '').toBe(feedText(t[0]!).replace(/\r\n?/g, '\n'));
        expect(feed.eventName).toBe(feedText(t[2]!));
        expect(feed.shortA).toBe(feedText(t[6]!));
        for (const v of Object.values(feed))
          if (typeof v === 'string') expect(UNSAFE_TEXT.test(v.replace(/[\t\n\r]|\p{Cc}|\p{Bidi_Control}|\p{Zl}|\p{Zp}/gu, ''))).toBe(false);
        // JSON is well-formed too, and parses back to the same feed.
        expect(JSON.parse(JSON.stringify(feed))).toEqual(feed);
      }),
      { numRuns: fcRuns(300) },
    );
  });

  it('a name with U+FFFE, U+FFFF, a C0 control and a lone surrogate (the reported fault) gives a feed that parses', () => {
    const state = { ...view(newMatch(setup)), names: ['Ann\ufffe\uffff', 'Bob\u0007\ud800'] as [string, string] };
    const xml = feedXml(tableFeed(table({}), { setup, state, version: 0 }));
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parser.parse(xml).cuecast.table).toMatchObject({ nameA: 'Ann\ufffd\ufffd', nameB: 'Bob\ufffd\ufffd' });
  });
});
