/**
 * Talking points for commentators (issue 28): facts of this match and of its event, each with its numbers,
 * ranked, worded in the asked language. Pure: a function of the match's log and the event's facts.
 *
 * Facts (key → when it holds): `event-high-run` (the match's best run is the event's high run, or else the event's
 * high run from another match), `needs` (points a player needs and their average per inning), `racks-in-row`
 * (a player won the last 2 or more racks, shared/highlights.ts `rack-won`), `two-fouls` (on two fouls, 14-1 S-14,
 * Rotation R-9), `hill-hill`, `best-run` (the match's best run, at least the run threshold), `on-a-run` (a run in
 * progress of at least half the threshold), `head-to-head` (the two players' earlier matches of the event),
 * `clinched` (Rotation: 61 reached, R-13), `points-left` (Rotation: on the table, and what the shooter needs to
 * clinch the rack), `comeback` (shared/highlights.ts).
 *
 * A fact is `new` when it began to hold at the latest step, unless the same fact (its `key`) was new within the
 * last `cooldown` steps: a fact that comes and goes (on two fouls, off, on again) is not announced again within
 * the cool-down. Ranked: new ones first, then by weight (how much a commentator would want it now).
 */
import type { Discipline, MatchSetup, Pair, PlayerKey } from './protocol/setup';
import type { MatchState } from './protocol/state';
import { RACK_CLINCH } from './protocol/vocabulary';
import { applyStep, newMatch, view, type Match } from './engine';
import { RULES_VERSION } from './rules/version';
import { RulesError } from './protocol/errors';
import { type AssistantLang, figure, say } from './assistant-words';
import { HIGHLIGHT_DEFAULTS, highlights, hillHill, type Highlight, type TimedStep } from './highlights';

/** What the event tells about a match: its other matches' best run and the two players' earlier meetings. */
export interface EventFacts {
  /** The best run of the event's other matches, or null (none, or not on an event). */
  highRun: { run: number; name: string; matchId: string } | null;
  /** Finished earlier matches of the event between the same two players (either order). */
  meetings: { matchId: string; players: Pair<string>; score: Pair<number>; winner: PlayerKey }[];
}

/** No event: no event facts. */
export const NO_EVENT: EventFacts = { highRun: null, meetings: [] };

/** The kinds of talking point. */
export type TalkingPointKind =
  'event-high-run' | 'needs' | 'racks-in-row' | 'two-fouls' | 'hill-hill' | 'best-run' | 'on-a-run' | 'head-to-head' | 'clinched' | 'points-left' | 'comeback';

/** One talking point. */
export interface TalkingPoint {
  /** Identity of the fact (kind, player and what makes it another fact: `two-fouls:A`, `best-run:B:23`). */
  key: string;
  kind: TalkingPointKind;
  player: PlayerKey | null;
  /** The sentence in the asked language. */
  text: string;
  /** Its numbers (`run`, `needed`, `average`, `count`, `left`, …). */
  numbers: Record<string, number>;
  /** Rank weight, 0–100 (higher first, after the new ones). */
  weight: number;
  /** Began to hold at the latest step (and was not new within the cool-down). */
  new: boolean;
  /** Log version since which it holds (unbroken). */
  since: number;
}

/** Settings of the talking points. */
export interface TalkingPointOptions {
  lang: AssistantLang;
  /** Steps within which a fact is not announced as new again. Default 10. */
  cooldown: number;
  /** The run threshold (shared/highlights.ts): 14-1 balls, Rotation points. */
  runThreshold: number;
  /** Most points returned. Default 8. */
  limit: number;
}

/** Default options for `discipline` in `lang`. */
export function talkingPointDefaults(discipline: Discipline, lang: AssistantLang = 'en'): TalkingPointOptions {
  return { lang, cooldown: 10, runThreshold: HIGHLIGHT_DEFAULTS[discipline].runThreshold, limit: 8 };
}

/** A fact before it is worded: key, kind, player, weight, and the words' key and numbers. */
interface Fact {
  key: string;
  kind: TalkingPointKind;
  player: PlayerKey | null;
  weight: number;
  text: (lang: AssistantLang) => string;
  numbers: Record<string, number>;
}

const slot = (p: PlayerKey): 0 | 1 => (p === 'A' ? 0 : 1);
const KEYS: readonly PlayerKey[] = ['A', 'B'];

/** Display name of player `p`: the short name when the set-up has one, else the full name. */
function nameOf(setup: MatchSetup, p: PlayerKey): string {
  const i = slot(p);
  return setup.shortNames?.[i] ?? setup.players[i];
}

/** The facts that hold at one point of the match. */
function factsAt(
  setup: MatchSetup,
  s: MatchState,
  gross: Pair<number>,
  marks: readonly Highlight[],
  runFrom: number,
  event: EventFacts,
  opts: TalkingPointOptions,
): Fact[] {
  const out: Fact[] = [];
  const name = (p: PlayerKey) => nameOf(setup, p);
  const score = `${s.score[0]}–${s.score[1]}`;
  const over = s.winner !== null;
  // Event high run: this match's best if it is the event's, else the other matches' best.
  const best = Math.max(s.highRun[0], s.highRun[1]);
  const bestBy: PlayerKey = s.highRun[0] >= s.highRun[1] ? 'A' : 'B';
  if (event.highRun && best >= event.highRun.run && best >= opts.runThreshold) {
    const tied = best === event.highRun.run;
    out.push({
      key: `event-high-run:${bestBy}:${best}`,
      kind: 'event-high-run',
      player: bestBy,
      weight: tied ? 80 : 95,
      numbers: { run: best, previous: event.highRun.run },
      text: (l) => say(l, tied ? 'tp.event-high-run.tied' : 'tp.event-high-run', { run: best, name: name(bestBy) }),
    });
  } else if (event.highRun) {
    const e = event.highRun;
    out.push({
      key: `event-high-run:other:${e.run}`,
      kind: 'event-high-run',
      player: null,
      weight: 20,
      numbers: { run: e.run },
      text: (l) => say(l, 'tp.event-high-run', { run: e.run, name: e.name }),
    });
  }
  if (!over && hillHill(setup, s.score)) {
    out.push({ key: 'hill-hill', kind: 'hill-hill', player: null, weight: 90, numbers: {}, text: (l) => say(l, 'tp.hill-hill', { score }) });
  }
  for (const p of KEYS) {
    const i = slot(p);
    if (!over && s.onTwoFouls[i]) {
      out.push({
        key: `two-fouls:${p}`,
        kind: 'two-fouls',
        player: p,
        weight: 85,
        numbers: { fouls: 2 },
        text: (l) => say(l, 'tp.two-fouls', { name: name(p) }),
      });
    }
    if (!over) {
      const innings = s.innings[i];
      const average = innings > 0 ? Math.round((gross[i] / innings) * 10) / 10 : 0;
      const needed = s.needed[i];
      out.push({
        key: `needs:${p}`,
        kind: 'needs',
        player: p,
        weight: needed <= 14 ? 50 : 30,
        numbers: { needed, average },
        text: (l) => say(l, 'tp.needs', { name: name(p), needed, average: figure(average) }),
      });
    }
  }
  if (best >= opts.runThreshold) {
    out.push({
      key: `best-run:${bestBy}:${best}`,
      kind: 'best-run',
      player: bestBy,
      weight: 55,
      numbers: { run: best },
      text: (l) => say(l, 'tp.best-run', { run: best, name: name(bestBy) }),
    });
  }
  if (!over && s.run >= Math.max(2, Math.ceil(opts.runThreshold / 2))) {
    const p = s.turn;
    const run = s.run;
    out.push({
      key: `on-a-run:${p}:${runFrom}`,
      kind: 'on-a-run',
      player: p,
      weight: Math.min(89, 60 + run),
      numbers: { run },
      text: (l) => say(l, 'tp.on-a-run', { name: name(p), run }),
    });
  }
  // Racks won in a row by the last rack's winner.
  const racks = marks.filter((m) => m.kind === 'rack-won');
  const lastRack = racks.at(-1);
  if (lastRack?.player) {
    let count = 0;
    for (let k = racks.length - 1; k >= 0 && racks[k]!.player === lastRack.player; k--) count++;
    if (count >= 2) {
      const p = lastRack.player;
      out.push({
        key: `racks-in-row:${p}:${count}`,
        kind: 'racks-in-row',
        player: p,
        weight: 60 + Math.min(count, 9),
        numbers: { count },
        text: (l) => say(l, 'tp.racks-in-row', { name: name(p), count }),
      });
    }
  }
  const comeback = marks.filter((m) => m.kind === 'comeback').at(-1);
  if (comeback?.player && !over && s.score[slot(comeback.player)] > s.score[1 - slot(comeback.player)]!) {
    const p = comeback.player;
    const behind = comeback.numbers.behind ?? 0;
    out.push({
      key: `comeback:${p}:${comeback.version}`,
      kind: 'comeback',
      player: p,
      weight: 75,
      numbers: { behind },
      text: (l) => say(l, 'tp.comeback', { name: name(p), behind }),
    });
  }
  if (setup.discipline === 'rotation' && !over) {
    if (s.rackClinchedBy) {
      const p = s.rackClinchedBy;
      const points = s.rackPoints[slot(p)];
      out.push({
        key: `clinched:${p}:${s.rack}`,
        kind: 'clinched',
        player: p,
        weight: 70,
        numbers: { points },
        text: (l) => say(l, 'tp.clinched', { name: name(p), points }),
      });
    } else if (s.ballsOnTable > 0) {
      const p = s.turn;
      const clinch = Math.max(0, RACK_CLINCH - s.rackPoints[slot(p)]);
      const left = s.pointsLeft;
      out.push({
        key: 'points-left',
        kind: 'points-left',
        player: p,
        weight: clinch <= left && left - clinch < 20 ? 45 : 25,
        numbers: { left, clinch },
        text: (l) => say(l, 'tp.points-left', { left, name: name(p), clinch }),
      });
    }
  }
  for (const m of event.meetings) {
    const winnerName = m.players[slot(m.winner)];
    const loserName = m.players[1 - slot(m.winner)]!;
    const sc = `${m.score[slot(m.winner)]}–${m.score[1 - slot(m.winner)]}`;
    out.push({
      key: `head-to-head:${m.matchId}`,
      kind: 'head-to-head',
      player: null,
      weight: 40,
      numbers: { winnerScore: m.score[slot(m.winner)], loserScore: m.score[1 - slot(m.winner)]! },
      text: (l) => say(l, 'tp.head-to-head', { winner: winnerName, loser: loserName, score: sc }),
    });
  }
  return out;
}

/** What the walk keeps per effective step (copied, so an undo restores it). */
interface Track {
  /** Key → version since which it holds. */
  since: ReadonlyMap<string, number>;
  /** Key → the last version it was new at. */
  newAt: ReadonlyMap<string, number>;
  /** Gross points (legally scored) of each player. */
  gross: Pair<number>;
  /** Version of the current run's first shot. */
  runFrom: number;
}

/**
 * The talking points of a match at its latest step, ranked (new first, then by weight), at most `opts.limit`.
 * `steps`: the whole log, oldest first (as shared/highlights.ts takes it).
 * @throws RulesError when the log does not replay (a corrupt log), naming `steps.<i>`.
 */
export function talkingPoints(
  setup: MatchSetup,
  steps: readonly TimedStep[],
  event: EventFacts,
  opts: TalkingPointOptions,
  rulesVersion = RULES_VERSION,
): TalkingPoint[] {
  const marks = highlights(
    setup,
    steps,
    { runThreshold: opts.runThreshold, comebackFrom: HIGHLIGHT_DEFAULTS[setup.discipline].comebackFrom, eventHighRun: 0 },
    rulesVersion,
  );
  let match: Match = newMatch(setup);
  let track: Track = { since: new Map(), newAt: new Map(), gross: [0, 0], runFrom: 0 };
  let latest = 0;
  let facts: Fact[] = factsAt(setup, view(match), track.gross, [], 0, event, opts);
  track = { ...track, since: new Map(facts.map((f) => [f.key, 0])) };
  const frames: { track: Track; facts: Fact[]; latest: number }[] = [];
  for (let i = 0; i < steps.length; i++) {
    const { step } = steps[i]!;
    const r = applyStep(match, step, rulesVersion);
    if (!r.ok) throw new RulesError(r.error.code, `log step ${i}: ${r.error.message}`, `steps.${i}`);
    match = r.match;
    if ('undo' in step) {
      const f = frames.pop();
      if (f) ({ track, facts, latest } = f);
      continue;
    }
    frames.push({ track, facts, latest });
    const version = i + 1;
    const o = r.outcome;
    const gross: Pair<number> = [track.gross[0], track.gross[1]];
    if (o.kind === 'shot') gross[slot(o.by)] += o.points;
    const runFrom = o.kind === 'shot' && o.inning !== undefined ? version : track.runFrom;
    const upTo = marks.filter((m) => m.version <= version);
    const now = factsAt(setup, view(match), gross, upTo, runFrom, event, opts);
    const since = new Map<string, number>();
    const newAt = new Map(track.newAt);
    for (const f of now) {
      const was = track.since.get(f.key);
      if (was !== undefined) since.set(f.key, was);
      else {
        since.set(f.key, version);
        const lastNew = track.newAt.get(f.key);
        if (lastNew === undefined || version - lastNew > opts.cooldown) newAt.set(f.key, version);
      }
    }
    track = { since, newAt, gross, runFrom };
    facts = now;
    latest = version;
  }
  const points = facts.map((f): TalkingPoint => ({
    key: f.key,
    kind: f.kind,
    player: f.player,
    text: f.text(opts.lang),
    numbers: f.numbers,
    weight: f.weight,
    new: latest > 0 && track.newAt.get(f.key) === latest,
    since: track.since.get(f.key) ?? 0,
  }));
  points.sort((a, b) => Number(b.new) - Number(a.new) || b.weight - a.weight || a.key.localeCompare(b.key));
  return points.slice(0, opts.limit);
}
