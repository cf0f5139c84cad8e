/**
 * Highlights (shared/highlights.ts): the markers a log gives, undo taking them back, chapters that follow
 * YouTube's rules (0:00 first, ascending, 10 s apart) for any log and stream start (property), and the options'
 * range checks.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { parseStep } from '../../server/protocol/step-schemas';
import { chapters, chaptersText, chapterTime, CHAPTER_MIN_GAP_S, highlightOptions, highlights, type TimedStep } from '../../shared/highlights';
import { ASSISTANT_LANGS } from '../../shared/assistant-words';

const T0 = Date.UTC(2026, 11, 3, 18, 0, 0);
const setup141 = parseSetup({ discipline: '14-1', ruleset: 'nba', targets: [40, 40], players: ['Ann Lee', 'Ken Watanabe'], shortNames: ['Lee', 'Watanabe'] });
const breakSafety = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
const ball = { shot: { call: { ball: 1 }, pocketed: 1 } };
const miss = { shot: { call: { ball: 1 } } };

/** Steps 20 s apart from T0. */
function timed(steps: unknown[], gapMs = 20_000): TimedStep[] {
  return steps.map((s, i) => ({ step: parseStep(s), at: T0 + i * gapMs }));
}

describe('highlights of a 14-1 match', () => {
  // A breaks (safety); B runs 20 (a re-rack after 14), misses; A runs 26, misses; B runs out to 40.
  const log = [breakSafety, ...Array(20).fill(ball), miss, ...Array(26).fill(ball), miss, ...Array(20).fill(ball)];
  const opts = highlightOptions('14-1', undefined, undefined);
  const marks = highlights(setup141, timed(log), opts);

  test('a 20-ball run, the rack it won, the match high run, the match won', () => {
    const kinds = marks.map((m) => `${m.kind}:${m.player ?? '-'}`);
    expect(kinds).toContain('run:B');
    expect(kinds).toContain('rack-won:B');
    expect(kinds.at(-1)).toBe('match-won:B');
    const firstRun = marks.find((m) => m.kind === 'run')!;
    expect(firstRun.numbers.run).toBe(20);
    // The run is marked from its first shot (step 2, 20 s after the break), reached 10 at its 10th ball.
    expect(firstRun.from).toBe(T0 + 20_000);
    expect(firstRun.at).toBe(T0 + 10 * 20_000);
    const rack = marks.find((m) => m.kind === 'rack-won')!;
    expect(rack).toMatchObject({ rack: 1, player: 'B', numbers: { own: 14, other: 0 } });
    // A's 26 beats B's 20 (the first run of the match is no "new" high run); B's last 20 does not.
    expect(marks.filter((m) => m.kind === 'match-high-run').map((m) => [m.player, m.numbers.run, m.numbers.previous])).toEqual([['A', 26, 20]]);
    expect(marks.filter((m) => m.kind === 'run').map((m) => [m.player, m.numbers.run])).toEqual([
      ['B', 20],
      ['A', 26],
      ['B', 20],
    ]);
  });

  test('hill-hill once both are within 14 of 40', () => {
    const hh = marks.filter((m) => m.kind === 'hill-hill');
    expect(hh).toHaveLength(1);
    expect(hh[0]!.score[0]).toBeGreaterThanOrEqual(26);
    expect(hh[0]!.score[1]).toBeGreaterThanOrEqual(26);
  });

  test('an event high run above the event best', () => {
    const withEvent = highlights(setup141, timed(log), highlightOptions('14-1', undefined, undefined, 15));
    expect(withEvent.filter((m) => m.kind === 'event-high-run').map((m) => [m.player, m.numbers.run, m.numbers.previous])).toEqual([
      ['B', 20, 15],
      ['A', 26, 20],
    ]);
  });

  test('an undone step takes its markers back', () => {
    const upTo = [breakSafety, ...Array(10).fill(ball)];
    expect(highlights(setup141, timed(upTo), opts).map((m) => m.kind)).toEqual(['run']);
    expect(highlights(setup141, timed([...upTo, { undo: true }]), opts)).toEqual([]);
    const again = highlights(setup141, timed([...upTo, { undo: true }, ball]), opts);
    expect(again.map((m) => [m.kind, m.numbers.run])).toEqual([['run', 10]]);
  });

  test('a comeback from 30 behind', () => {
    const s = parseSetup({ discipline: '14-1', ruleset: 'nba', targets: [100, 100], players: ['A', 'B'] });
    const steps = [breakSafety, ...Array(35).fill(ball), miss, ...Array(36).fill(ball)];
    const m = highlights(s, timed(steps), highlightOptions('14-1', 10, 30));
    expect(m.filter((x) => x.kind === 'comeback').map((x) => [x.player, x.numbers.behind])).toEqual([['A', 35]]);
  });
});

describe('chapters', () => {
  const log = [breakSafety, ...Array(20).fill(ball), miss, ...Array(26).fill(ball), miss, ...Array(20).fill(ball)];
  const marks = highlights(setup141, timed(log), highlightOptions('14-1', undefined, undefined));

  test('YouTube chapter text in each language: 0:00 first, ascending, at least 10 s apart', () => {
    for (const lang of ASSISTANT_LANGS) {
      const list = chapters(marks, { streamStart: T0 - 65_000, names: ['Lee', 'Watanabe'], lang, discipline: '14-1' });
      const text = chaptersText(list);
      const lines = text.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^0:00 /);
      expect(lines.length).toBeGreaterThanOrEqual(3);
      for (const l of lines) expect(l).toMatch(/^\d+:\d\d(:\d\d)? \S/);
      for (let i = 1; i < list.length; i++) expect(list[i]!.seconds - list[i - 1]!.seconds).toBeGreaterThanOrEqual(CHAPTER_MIN_GAP_S);
    }
    const en = chaptersText(chapters(marks, { streamStart: T0 - 65_000, names: ['Lee', 'Watanabe'], lang: 'en', discipline: '14-1' }));
    expect(en).toContain('1:25 Rack 1 — Watanabe 20-ball run');
    expect(en.split('\n')[0]).toBe('0:00 Lee vs Watanabe');
    // A run is titled with the rack it began in (A's 26 began in rack 2 and crossed into rack 3).
    expect(en).toContain('Rack 2 — Lee new high run of the match: 26');
  });

  test('times: M:SS under an hour, H:MM:SS beyond', () => {
    expect(chapterTime(0)).toBe('0:00');
    expect(chapterTime(59)).toBe('0:59');
    expect(chapterTime(600)).toBe('10:00');
    expect(chapterTime(3723)).toBe('1:02:03');
  });

  test('property: any markers and stream start give valid chapters', () => {
    const kinds = ['run', 'rack-won', 'match-won', 'third-foul', 'hill-hill', 'century'] as const;
    fc.assert(
      fc.property(
        fc.array(fc.record({ kind: fc.constantFrom(...kinds), from: fc.integer({ min: 0, max: 4 * 3600_000 }) }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 3600_000 }),
        (raw, start) => {
          const hs = raw.map((r, i) => ({
            kind: r.kind,
            from: T0 + r.from,
            at: T0 + r.from,
            version: i + 1,
            player: 'A' as const,
            rack: 1,
            score: [0, 0] as [number, number],
            numbers: { run: 12 },
          }));
          const list = chapters(hs, { streamStart: T0 + start, names: ['A', 'B'], lang: 'en', discipline: '14-1' });
          expect(list[0]!.seconds).toBe(0);
          for (let i = 1; i < list.length; i++) expect(list[i]!.seconds - list[i - 1]!.seconds).toBeGreaterThanOrEqual(CHAPTER_MIN_GAP_S);
          // Nothing from before the stream, nothing invented: every chapter after the first is one of the markers.
          for (const c of list.slice(1)) expect(hs.some((h) => Math.floor((h.from - T0 - start) / 1000) <= c.seconds)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('options', () => {
  test('a threshold out of range is refused naming the field', () => {
    expect(() => highlightOptions('14-1', '2', undefined)).toThrow(/threshold: must be a whole number from 3 to 150/);
    expect(() => highlightOptions('14-1', '151', undefined)).toThrow(/threshold/);
    expect(() => highlightOptions('rotation', 'ten', undefined)).toThrow(/threshold: must be a whole number from 10 to 120/);
    expect(() => highlightOptions('14-1', undefined, '1')).toThrow(/comebackFrom/);
    expect(highlightOptions('14-1', '14', undefined)).toEqual({ runThreshold: 14, comebackFrom: 30, eventHighRun: 0 });
  });
});
