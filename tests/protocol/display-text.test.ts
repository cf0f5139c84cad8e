/**
 * Display texts (player names, short names, event and table names) as every body parser checks them
 * (`displayText` in shared/protocol/setup.ts): a text that would garble or reorder the line on air, or show as
 * nothing, is refused naming the field — every bidirectional control (Unicode Bidi_Control: U+061C, U+200E,
 * U+200F, U+202A–U+202E, U+2066–U+2069), line and paragraph separators, C0/C1 controls, and texts with no
 * visible character (zero-width spaces, fillers, lone combining marks); real names in any script pass. The
 * combining marks fonts cannot draw are taken out first (`withDrawableMarks`: NFC, marks with nothing under
 * them, stacks over three marks on one character).
 */
import { describe, expect, it } from 'vitest';
import { eventCreateSchema, parseEventBody } from '../../server/protocol/event-schemas';
import { RulesError } from '../../shared/protocol/errors';
import { parseSetup } from '../../server/protocol/setup-schemas';

const REFUSED: [string, string][] = [
  ['an Arabic letter mark (bidi control)', 'Ann\u061cBob'],
  ['a left-to-right mark', 'Ann\u200e'],
  ['a right-to-left override', 'Ann\u202eBob'],
  ['a first-strong isolate', '\u2068Ann'],
  ['a line separator', 'Ann\u2028Bob'],
  ['a paragraph separator', 'Ann\u2029Bob'],
  ['a tab', 'Ann\tBob'],
  ['a C1 control', 'Ann\u0085Bob'],
  ['only a zero-width space', '\u200b'],
  ['only zero-width joiners and spaces', '\u200d \u200b'],
  ['only a Hangul filler', '\u3164'],
  ['only a Braille blank', '\u2800'],
  ['only Braille blanks and a halfwidth Hangul filler', '\u2800\uffa0\u2800'],
  ['only a Khmer inherent vowel', '\u17b4'],
  ['only a musical-symbol null note head', '\u{1d159}'],
  ['only combining marks', '\u0301\u0301'],
  ['only a word joiner', '\u2060'],
];
const ACCEPTED = ['Dora Díaz', 'Dora Di\u0301az', '山田 太郎', '陳 志明', '🎱 Eddie', 'Zoë O’Brien-Łukasz', 'محمد علي', 'Ann\u200dBob'];

function refusal(f: () => unknown): RulesError {
  try {
    f();
  } catch (err) {
    if (err instanceof RulesError) return err;
    throw err;
  }
  throw new Error('accepted');
}

describe('display texts on air', () => {
  it('refuses controls, every bidi control, separators and invisible-only texts, naming the field (event roster and match set-up)', () => {
    for (const [what, name] of REFUSED) {
      const ev = refusal(() => parseEventBody(eventCreateSchema, { name: 'Cup', date: '2026-03-13', tables: ['T1'], roster: [{ name }] }));
      expect(ev.code, what).toBe('invalid-event');
      expect(ev.field, what).toBe('roster.0.name');
      const m = refusal(() => parseSetup({ discipline: '14-1', players: ['Ann', name] }));
      expect(m.code, what).toBe('invalid-setup');
      expect(m.field, what).toBe('setup.players.1');
      expect(refusal(() => parseEventBody(eventCreateSchema, { name, date: '2026-03-13', tables: ['T1'] })).field, what).toBe('name');
    }
  });

  it('accepts names in any script, with accents, emoji and joiners', () => {
    for (const name of ACCEPTED) {
      // Stored in NFC: a letter and its combining accent become the one precomposed letter.
      expect(
        parseEventBody(eventCreateSchema, { name: 'Cup', date: '2026-03-13', tables: [name], roster: [{ name, short: name.slice(0, 16) }] }).roster![0]!.name,
      ).toBe(name.normalize('NFC'));
      expect(parseSetup({ discipline: '14-1', players: [name, 'Bob'] }).players[0]).toBe(name.normalize('NFC'));
    }
    expect(parseSetup({ discipline: '14-1', players: ['Dora Di\u0301az', 'Bob'] }).players[0]).toBe('Dora D\u00edaz');
  });

  it('takes out the combining marks fonts cannot draw: stacks cut to three marks a character, marks with nothing under them removed', () => {
    const zalgo = 'Z\u0334\u0321\u0327\u031b\u0316a\u0338l\u0337g\u0336o\u0335'; // "Z̴̡̧̛̖a̸l̷g̶o̵"
    expect(parseSetup({ discipline: '14-1', players: [zalgo, 'Bob'] }).players[0]).toBe('Z\u0334\u0321\u0327a\u0338l\u0337g\u0336o\u0335');
    const tower = 'A' + '\u0300\u0301\u0302\u0303'.repeat(40); // 160 marks on one letter: over the length limit before, 4 characters after
    expect(parseSetup({ discipline: '14-1', players: [tower, 'Bob'] }).players[0]).toBe('\u00c0\u0301\u0302\u0303'); // NFC makes A + grave one letter first
    expect(
      parseEventBody(eventCreateSchema, { name: 'Cup', date: '2026-03-13', tables: ['T1'], roster: [{ name: 'Ann \u0301\u0301Bob' }] }).roster![0]!.name,
    ).toBe('Ann Bob');
    // Real stacks stay: Thai (consonant, vowel, tone mark), Devanagari (nukta, vowel sign, anusvara), Vietnamese.
    for (const name of ['\u0e19\u0e49\u0e33', '\u0e01\u0e34\u0e4a', '\u091c\u093c\u0940\u0902', 'Nguy\u1ec5n', 'Nguye\u0302\u0303n']) {
      expect(parseSetup({ discipline: '14-1', players: [name, 'Bob'] }).players[0]).toBe(name.normalize('NFC'));
    }
  });
});
