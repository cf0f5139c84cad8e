/**
 * Highlights: the notable moments of a match, derived from its step log (each step with the server time it was
 * accepted), as markers a producer cuts a video by (issue 28). Pure: the same log gives the same markers; an
 * undone step leaves none. The kinds:
 * - `rack-won`: a rack ended (Rotation: the player who reached 61 in it, shared/rules/rack-won.ts;
 *   14-1: a continuous re-rack, 14-1 §07, to the player who pocketed more of its balls);
 * - `match-won`: the step won the match;
 * - `run`: a run reached the threshold (14-1 balls, default 10; Rotation points, default 40); the marker's
 *   `run` is the run's length, growing while it lasts, and `from` the time of its first shot;
 * - `century`: a 14-1 run reached 100;
 * - `match-high-run` / `event-high-run`: a run (at least the threshold) longer than the match's best when it
 *   began, or than the best of the event's other matches (`eventHighRun`);
 * - `third-foul` (14-1 S-14, Rotation R-9), `time-foul` (the shot clock ran out, D-32);
 * - `hill-hill`: both players within one rack of the race (14-1: 14 points; Rotation race: 61), once a match;
 * - `comeback`: a player takes the lead after trailing by at least `comebackFrom` points;
 * - `clinched-61`: a Rotation shot reached 61 rack points.
 * `chapters` turns them into YouTube chapters aligned to the stream's start.
 */
import { RulesError } from './protocol/errors';
import type { Discipline, MatchSetup, Pair, PlayerKey } from './protocol/setup';
import type { Outcome } from './protocol/state';
import type { Step } from './protocol/steps';
import { RACK_CLINCH } from './protocol/vocabulary';
import { applyStep, newMatch, type Match } from './engine';
import { rackWinner } from './rules/rack-won';
import { RULES_VERSION } from './rules/version';
import { type AssistantLang, say } from './assistant-words';

/** The kinds of highlight, in the order of importance a chapter keeps when two fall within 10 s. */
export const HIGHLIGHT_KINDS = [
  'match-won',
  'century',
  'event-high-run',
  'comeback',
  'rack-won',
  'clinched-61',
  'match-high-run',
  'hill-hill',
  'run',
  'third-foul',
  'time-foul',
] as const;
export type HighlightKind = (typeof HIGHLIGHT_KINDS)[number];

/** A step of the log as the highlights read it: the step and when the server accepted it (ms since the epoch). */
export interface TimedStep {
  step: Step;
  at: number;
}

/** One highlight marker. */
export interface Highlight {
  kind: HighlightKind;
  /** Server time of the moment (ms since the epoch): the step that made it. */
  at: number;
  /** When what it marks began: a run's first shot (runs, high runs, centuries), else `at`. */
  from: number;
  /** Log version (1-based) of the step that made it. */
  version: number;
  /** The player it is about (hill-hill: null). */
  player: PlayerKey | null;
  /** Rack number the moment happened in (a run's markers: the rack it began in). */
  rack: number;
  /** The score after the step, A first. */
  score: Pair<number>;
  /**
   * Its numbers: `run` (runs, centuries, high runs: the run's length so far, or final), `previous` (high runs: the
   * best before), `own`/`other` (rack won: rack points or balls), `behind` (comeback), `points` (61 clinched).
   */
  numbers: Record<string, number>;
}

/** The settings of the highlights of a match. */
export interface HighlightOptions {
  /** Shortest run worth a `run` marker: 14-1 balls, Rotation points. */
  runThreshold: number;
  /** Points behind a player must have been for taking the lead to be a `comeback`. */
  comebackFrom: number;
  /** The best run of the event's other matches (0: none, or not on an event): a longer one is `event-high-run`. */
  eventHighRun: number;
}

/** Defaults per discipline (14-1: a 10-ball run, 30 points behind; Rotation: 40 points, 60 behind). */
export const HIGHLIGHT_DEFAULTS: Record<Discipline, Omit<HighlightOptions, 'eventHighRun'>> = {
  '14-1': { runThreshold: 10, comebackFrom: 30 },
  rotation: { runThreshold: 40, comebackFrom: 60 },
};

/** Allowed range of the run threshold per discipline, inclusive (14-1 balls, Rotation points). */
export const RUN_THRESHOLD_RANGE: Record<Discipline, readonly [number, number]> = { '14-1': [3, 150], rotation: [10, 120] };
/** Allowed range of `comebackFrom`, inclusive. */
export const COMEBACK_RANGE: readonly [number, number] = [5, 500];

/**
 * The options for `discipline` from untrusted values (query strings, undefined = default).
 * @throws RulesError `invalid-request` naming `threshold` or `comebackFrom` when not a whole number in range.
 */
export function highlightOptions(discipline: Discipline, threshold: unknown, comebackFrom: unknown, eventHighRun = 0): HighlightOptions {
  const d = HIGHLIGHT_DEFAULTS[discipline];
  const whole = (raw: unknown, field: string, [lo, hi]: readonly [number, number], dflt: number): number => {
    if (raw === undefined || raw === null || raw === '') return dflt;
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(n) || n < lo || n > hi)
      throw new RulesError(
        'invalid-request',
        `${field}: must be a whole number from ${lo} to ${hi} for ${discipline} (got ${String(raw).slice(0, 20)})`,
        field,
      );
    return n;
  };
  return {
    runThreshold: whole(threshold, 'threshold', RUN_THRESHOLD_RANGE[discipline], d.runThreshold),
    comebackFrom: whole(comebackFrom, 'comebackFrom', COMEBACK_RANGE, d.comebackFrom),
    eventHighRun,
  };
}

/** What the walk remembers between steps (copied per step so an undo restores it). */
interface Memory {
  markers: readonly Highlight[];
  /** The current run: its shooter, first shot's time, index of its markers by kind, and the match's best when it began. */
  runBy: PlayerKey | null;
  runFrom: number;
  /** The rack the current run began in (its markers are titled with it, as their chapter starts there). */
  runRack: number;
  runMarkers: Readonly<Partial<Record<HighlightKind, number>>>;
  bestAtRunStart: number;
  /** 14-1: balls each player pocketed in the current rack. */
  rackBalls: Pair<number>;
  /** Most points each player has been behind since they last led. */
  deficit: Pair<number>;
  hillHillSeen: boolean;
}

const slot = (p: PlayerKey): 0 | 1 => (p === 'A' ? 0 : 1);

/** Hill-hill: each player within one rack of the race (14-1: 14 points; Rotation race: 61 points; never in a single rack to 61). */
export function hillHill(setup: MatchSetup, score: Pair<number>): boolean {
  if (setup.discipline === 'rotation' && setup.options.format === 'single-rack-61') return false;
  const rack = setup.discipline === '14-1' ? 14 : RACK_CLINCH;
  return setup.targets[0] - score[0] <= rack && setup.targets[1] - score[1] <= rack;
}

/**
 * The highlights of a match from its whole log (oldest first), in log order. Steps are replayed with the
 * engine under `rulesVersion`; an undo takes back the markers of the step it undoes.
 * @throws RulesError when the log does not replay (a corrupt log), naming `steps.<i>`.
 */
export function highlights(setup: MatchSetup, steps: readonly TimedStep[], opts: HighlightOptions, rulesVersion = RULES_VERSION): Highlight[] {
  let match: Match = newMatch(setup);
  let mem: Memory = {
    markers: [],
    runBy: null,
    runFrom: 0,
    runRack: 1,
    runMarkers: {},
    bestAtRunStart: Math.max(match.core.highRun[0], match.core.highRun[1]),
    rackBalls: [0, 0],
    deficit: [0, 0],
    hillHillSeen: hillHill(setup, match.core.score),
  };
  const frames: Memory[] = [];
  for (let i = 0; i < steps.length; i++) {
    const { step, at } = steps[i]!;
    const r = applyStep(match, step, rulesVersion);
    if (!r.ok) throw new RulesError(r.error.code, `log step ${i}: ${r.error.message}`, `steps.${i}`);
    if ('undo' in step) {
      mem = frames.pop() ?? mem;
      match = r.match;
      continue;
    }
    frames.push(mem);
    mem = afterStep(setup, match, r.match, r.outcome, at, i + 1, mem, opts);
    match = r.match;
  }
  return [...mem.markers];
}

/** The memory after one effective step from `before` to `after`. */
function afterStep(setup: MatchSetup, before: Match, after: Match, o: Outcome, at: number, version: number, prev: Memory, opts: HighlightOptions): Memory {
  const markers = [...prev.markers];
  const c = after.core;
  const score: Pair<number> = [c.score[0], c.score[1]];
  const mark = (kind: HighlightKind, player: PlayerKey | null, numbers: Record<string, number>, from = at, rack = o.rack): number =>
    markers.push({ kind, at, from, version, player, rack, score, numbers }) - 1;
  let { runBy, runFrom, runRack, runMarkers, bestAtRunStart } = prev;
  const rackBalls: Pair<number> = [prev.rackBalls[0], prev.rackBalls[1]];
  const deficit: Pair<number> = [prev.deficit[0], prev.deficit[1]];
  let hillHillSeen = prev.hillHillSeen;

  if (o.kind === 'shot') {
    // A run: consecutive scoring shots of one inning; it begins with the shot that opens the inning.
    if (o.inning !== undefined || runBy !== o.by) {
      runBy = o.by;
      runFrom = at;
      runRack = o.rack;
      runMarkers = {};
      bestAtRunStart = Math.max(before.core.highRun[0], before.core.highRun[1]);
    }
    const run = o.run;
    if (run > 0) {
      const bump = (kind: HighlightKind, extra: Record<string, number> = {}) => {
        const idx = runMarkers[kind];
        if (idx === undefined) runMarkers = { ...runMarkers, [kind]: mark(kind, o.by, { run, ...extra }, runFrom, runRack) };
        else markers[idx] = { ...markers[idx]!, numbers: { ...markers[idx]!.numbers, run } };
      };
      if (run >= opts.runThreshold) bump('run');
      if (setup.discipline === '14-1' && run >= 100) bump('century');
      if (run >= opts.runThreshold && run > bestAtRunStart && bestAtRunStart > 0) bump('match-high-run', { previous: bestAtRunStart });
      // The event's best so far: its other matches' and this match's own before this run.
      const eventBest = Math.max(opts.eventHighRun, bestAtRunStart);
      if (opts.eventHighRun > 0 && run > eventBest && run >= opts.runThreshold) bump('event-high-run', { previous: eventBest });
    }
    if (o.turnEnd !== undefined) {
      runBy = null;
      runMarkers = {};
    }
  } else {
    runBy = null;
    runMarkers = {};
  }

  if (o.foul === 'third-foul') mark('third-foul', o.by, {});
  if (o.fouls?.includes('time')) mark('time-foul', o.by, {});
  if (o.clinched) mark('clinched-61', o.by, { points: before.core.rackPoints[slot(o.by)] + o.points });

  // Racks: 14-1 counts the balls each pocketed in the rack; a continuous re-rack ends it (14-1 §07).
  if (setup.discipline === '14-1') {
    if (o.kind === 'shot' && o.points > 0) rackBalls[slot(o.by)] += o.points;
    if (o.rerack) {
      if (o.rerack.reason === 'continuous' && rackBalls[0] !== rackBalls[1]) {
        const by: PlayerKey = rackBalls[0] > rackBalls[1] ? 'A' : 'B';
        mark('rack-won', by, { own: rackBalls[slot(by)], other: rackBalls[1 - slot(by)]! });
      }
      rackBalls[0] = 0;
      rackBalls[1] = 0;
    }
  } else if (o.rerack?.reason === 'new-rack' && c.rack > before.core.rack) {
    const points: Pair<number> = [before.core.rackPoints[0], before.core.rackPoints[1]];
    points[slot(o.by)] += o.points;
    const by = rackWinner(points);
    if (by) mark('rack-won', by, { own: points[slot(by)], other: points[1 - slot(by)]! });
  }

  // Comeback: the lead taken by a player who was at least `comebackFrom` behind since they last led.
  for (const p of ['A', 'B'] as const) {
    const i = slot(p);
    const gap = score[1 - i]! - score[i];
    if (gap > 0) deficit[i] = Math.max(deficit[i], gap);
    else if (gap < 0) {
      if (deficit[i] >= opts.comebackFrom) mark('comeback', p, { behind: deficit[i] });
      deficit[i] = 0;
    }
  }

  if (!hillHillSeen && c.winner === null && hillHill(setup, score)) {
    hillHillSeen = true;
    mark('hill-hill', null, {});
  }
  if (c.winner !== null && before.core.winner === null) mark('match-won', c.winner, {});
  return { markers, runBy, runFrom, runRack, runMarkers, bestAtRunStart, rackBalls, deficit, hillHillSeen };
}

/** Shortest gap between two chapters, seconds (YouTube's rule). */
export const CHAPTER_MIN_GAP_S = 10;

/** What a chapter list is made from, besides the highlights. */
export interface ChapterInput {
  /** When the stream (or recording) started, ms since the epoch: 0:00 of the video. */
  streamStart: number;
  /** Player names as the titles show them, A first (the short names when the set-up has them). */
  names: Pair<string>;
  lang: AssistantLang;
  discipline: Discipline;
}

/** One chapter: seconds from the stream's start and its title. */
export interface Chapter {
  seconds: number;
  title: string;
  kind: HighlightKind | 'start';
}

/** The title of a highlight in `lang` ("Rack 3 — Watanabe 14-ball run"). */
export function highlightTitle(h: Highlight, names: Pair<string>, lang: AssistantLang, discipline: Discipline): string {
  const name = h.player ? names[slot(h.player)] : '';
  const n = h.numbers;
  const score = `${h.score[0]}–${h.score[1]}`;
  const what = (() => {
    switch (h.kind) {
      case 'rack-won':
        return say(lang, 'hl.rack-won', { name, own: n.own ?? 0, other: n.other ?? 0 });
      case 'match-won':
        return say(lang, 'hl.match-won', { name, score });
      case 'run':
        return say(lang, discipline === '14-1' ? 'hl.run' : 'hl.run.points', { name, run: n.run ?? 0 });
      case 'century':
        return say(lang, 'hl.century', { name, run: n.run ?? 0 });
      case 'match-high-run':
        return say(lang, 'hl.match-high-run', { name, run: n.run ?? 0 });
      case 'event-high-run':
        return say(lang, 'hl.event-high-run', { name, run: n.run ?? 0 });
      case 'third-foul':
        return say(lang, 'hl.third-foul', { name });
      case 'hill-hill':
        return say(lang, 'hl.hill-hill', { score });
      case 'time-foul':
        return say(lang, 'hl.time-foul', { name });
      case 'comeback':
        return say(lang, 'hl.comeback', { name, behind: n.behind ?? 0 });
      case 'clinched-61':
        return say(lang, 'hl.clinched-61', { name, points: n.points ?? RACK_CLINCH });
    }
  })();
  return say(lang, 'ch.rack', { rack: h.rack, what });
}

const rank = (k: HighlightKind | 'start') => (k === 'start' ? -1 : HIGHLIGHT_KINDS.indexOf(k));

/**
 * YouTube chapters from the highlights: the first at 0:00 (the players, and the stream's start), then one
 * per highlight at the time of what it marks (a run from its first shot), ascending, each at least
 * {@link CHAPTER_MIN_GAP_S} s after the one before; of highlights closer than that the more important one
 * (HIGHLIGHT_KINDS order) keeps the place, at the earlier time. Moments before the stream started are left out.
 */
export function chapters(marks: readonly Highlight[], input: ChapterInput): Chapter[] {
  const start: Chapter = { seconds: 0, title: say(input.lang, 'ch.start', { a: input.names[0], b: input.names[1] }), kind: 'start' };
  const items = marks
    .map((h) => ({
      seconds: Math.floor((h.from - input.streamStart) / 1000),
      title: highlightTitle(h, input.names, input.lang, input.discipline),
      kind: h.kind,
    }))
    .filter((c) => c.seconds >= 0)
    .sort((a, b) => a.seconds - b.seconds || rank(a.kind) - rank(b.kind));
  const out: Chapter[] = [start];
  for (const c of items) {
    const last = out[out.length - 1]!;
    if (c.seconds - last.seconds >= CHAPTER_MIN_GAP_S) out.push(c);
    else if (last.kind !== 'start' && rank(c.kind) < rank(last.kind)) out[out.length - 1] = { ...c, seconds: last.seconds };
  }
  return out;
}

/** A chapter's time as YouTube reads it: `M:SS` under an hour, else `H:MM:SS`. */
export function chapterTime(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The chapters as the text pasted into a YouTube description: one `time title` line each. */
export function chaptersText(list: readonly Chapter[]): string {
  return list.map((c) => `${chapterTime(c.seconds)} ${c.title}`).join('\n') + '\n';
}
