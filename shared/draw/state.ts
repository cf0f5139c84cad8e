/**
 * The state of a draw, rebuilt from its definition and its entries (the matches started, the results, the race
 * changes) as a match's state is rebuilt from its steps: the same definition and entries give the same state,
 * whatever order independent entries came in, from scratch or one entry at a time. Pure.
 *
 * What the state answers: each match's players, status, race and result (`matchViews`); the matches ready to
 * go on a table, earliest round first (`readyMatches`); who is out, the standings and the champion
 * (`standings`); and, per applied entry, what it changed (`applyDrawEntry`'s `ready`).
 */
import { SCORE_LIMIT, TARGET_MAX } from '../protocol/limits';
import type { Pair } from '../protocol/vocabulary';
import { groupTable, type GroupGame, type GroupRow } from './standings';
import { buildStructure, checkDefinition, groupName, type DrawError, type DrawStructure } from './structure';
import type { DrawDefinition, DrawEntry, DrawResult, MatchSpec } from './types';

/** Slot values: a seed index (≥ 0), a bye, or not known yet. */
const BYE = -1;
const UNKNOWN = -2;

/**
 * A match's status: `waiting` (a player not known yet), `ready` (both known, may go on a table now), `held`
 * (both known, but a player is on another table or, in a group, has an earlier match to play first), `playing`
 * (started on a table), `done` (a result), `bye` (one player, who goes through without playing), `void`
 * (nobody to play: two byes, or a final reset that is not needed).
 */
export type MatchStatus = 'waiting' | 'ready' | 'held' | 'playing' | 'done' | 'bye' | 'void';

/** One match as the pages and the server see it. */
export interface DrawMatchView {
  id: string;
  side: MatchSpec['side'];
  round: string;
  roundName: string;
  place: string;
  /** Player ids, A first; `null` not known yet, `"bye"` a bye. */
  players: Pair<string | null>;
  race: number;
  status: MatchStatus;
  /** The table it was started on. */
  table?: string;
  /** The cuecast match it is scored as (its sheet, its scorebug), once started. */
  matchId?: string;
  result?: DrawResult;
  group?: string;
}

/** A player's line in the final (or current) standings. */
export interface StandingRow {
  player: string;
  /** Shared by players out at the same stage ("5th–6th" is place 5 for both); null while still in. */
  place: number | null;
  wins: number;
  losses: number;
  /** Out of the event (no match left to play). */
  out: boolean;
}

/** A group's table (round robin, groups then knockout). */
export interface GroupTableView {
  group: string;
  rows: GroupRow[];
  /** All its matches decided. */
  complete: boolean;
}

interface Rec {
  started?: true;
  table?: string;
  matchId?: string;
  result?: DrawResult;
}

/** Per-structure facts that never change: the matches that read each match, each group's matches. */
interface Links {
  /** Matches with a slot fed by match i (its winner, loser, or players for the final reset). */
  dependents: number[][];
  /** Matches of group g. */
  groupMatches: number[][];
  /** Matches with a slot fed by group g's standings. */
  groupFeeds: number[][];
  /** A loss in match i sends the loser on (double elimination's winners' side, the final with a reset). */
  loserGoesOn: boolean[];
}

const LINKS = new WeakMap<DrawStructure, Links>();

function linksOf(s: DrawStructure): Links {
  const hit = LINKS.get(s);
  if (hit) return hit;
  const m = s.matches.length;
  const links: Links = {
    dependents: Array.from({ length: m }, () => []),
    groupMatches: s.groups.map(() => []),
    groupFeeds: s.groups.map(() => []),
    loserGoesOn: new Array<boolean>(m).fill(false),
  };
  for (const [i, spec] of s.matches.entries()) {
    if (spec.group !== undefined) links.groupMatches[spec.group]!.push(i);
    for (const src of spec.slots) {
      if ('winner' in src) links.dependents[src.winner]!.push(i);
      if ('loser' in src) {
        links.dependents[src.loser]!.push(i);
        links.loserGoesOn[src.loser] = true;
      }
      if ('same' in src && !links.dependents[src.same]!.includes(i)) links.dependents[src.same]!.push(i);
      if ('group' in src && !links.groupFeeds[src.group]!.includes(i)) links.groupFeeds[src.group]!.push(i);
    }
  }
  LINKS.set(s, links);
  return links;
}

/**
 * The state of a draw. Treat it as immutable: `applyDrawEntry` answers a new one. Its fields are the module's
 * own; read it through the functions below.
 */
export class DrawState {
  /** How many entries it was built from. */
  entries = 0;
  /** Slots (2 per match): seed index, BYE or UNKNOWN; valid for matches below `derived`. */
  slots: Int32Array;
  /** Winner and loser of each match (seed index, BYE, or UNKNOWN while undecided); valid below `derived`. */
  winner: Int32Array;
  loser: Int32Array;
  derived = 0;
  records: (Rec | undefined)[];
  /** Race changes by round key. */
  races: Record<string, number> = {};
  /** Matches started and not decided. */
  playing: number[] = [];
  /** Group tables once computed (index g), dropped when one of the group's matches changes. */
  tables: (GroupRow[] | undefined)[];

  constructor(
    readonly def: DrawDefinition,
    readonly structure: DrawStructure,
  ) {
    const m = structure.matches.length;
    this.slots = new Int32Array(2 * m).fill(UNKNOWN);
    this.winner = new Int32Array(m).fill(UNKNOWN);
    this.loser = new Int32Array(m).fill(UNKNOWN);
    this.records = new Array<Rec | undefined>(m);
    this.tables = structure.groups.map(() => undefined);
  }

  clone(): DrawState {
    const c = new DrawState(this.def, this.structure);
    c.entries = this.entries;
    c.slots = this.slots.slice();
    c.winner = this.winner.slice();
    c.loser = this.loser.slice();
    c.derived = this.derived;
    c.records = this.records.slice();
    c.races = { ...this.races };
    c.playing = [...this.playing];
    c.tables = this.tables.slice();
    return c;
  }
}

/**
 * A new draw: the definition checked and its structure built, no entry yet.
 * @returns the state, or the definition's first problem (`invalid-draw`, naming the field).
 */
export function newDraw(def: DrawDefinition): DrawState | { error: DrawError } {
  const problem = checkDefinition(def);
  if (problem) return { error: problem };
  return new DrawState(def, buildStructure(def));
}

/**
 * The state of the draw `def` after `entries`, each checked as `applyDrawEntry` does.
 * @returns the state, or the first refused entry's error with its index (`entries.3.winner`).
 */
export function drawState(def: DrawDefinition, entries: readonly DrawEntry[]): DrawState | { error: DrawError } {
  const start = newDraw(def);
  if ('error' in start) return start;
  for (const [i, e] of entries.entries()) {
    const err = applyInPlace(start, e);
    if (err) return { error: { ...err, field: `entries.${i}.${err.field}`, message: `entries.${i}: ${err.message}` } };
  }
  derive(start, start.structure.matches.length);
  return start;
}

/**
 * Apply one entry to `state` (left unchanged).
 * @returns the new state and the matches that became ready with it (earliest first), or the refusal:
 * `not-in-draw` (no such match or round), `not-ready` (a player not known yet, a bye, already started),
 * `player-busy` (a player is on another table), `invalid-draw` (a winner who is not in the match, a bad score),
 * `draw-started` (a race change once its round started), `cascade-required` (a correction whose dependent
 * matches started or finished, without `reset` naming each of them).
 */
export function applyDrawEntry(state: DrawState, entry: DrawEntry): { state: DrawState; ready: string[] } | { error: DrawError } {
  const before = new Set(readyIndexes(state));
  const next = state.clone();
  const err = applyInPlace(next, entry);
  if (err) return { error: err };
  derive(next, next.structure.matches.length);
  return {
    state: next,
    ready: readyIndexes(next)
      .filter((i) => !before.has(i))
      .map((i) => next.structure.matches[i]!.id),
  };
}

function refuse(code: DrawError['code'], field: string, message: string): DrawError {
  return { code, field, message: `${field}: ${message}` };
}

/** Apply `e` to `s` in place; @returns the refusal (and `s` is then unchanged), or null. */
function applyInPlace(s: DrawState, e: DrawEntry): DrawError | null {
  const st = s.structure;
  if (e.t === 'race') {
    const matches = st.matches.map((m, i) => [m, i] as const).filter(([m]) => m.round === e.round);
    if (matches.length === 0) return refuse('not-in-draw', 'round', `no round "${e.round}" in this draw`);
    if (!(Number.isInteger(e.race) && e.race >= 1 && e.race <= TARGET_MAX))
      return refuse('invalid-draw', 'race', `a race is a whole number from 1 to ${TARGET_MAX}, got ${e.race}`);
    const begun = matches.find(([, i]) => s.records[i]?.started || s.records[i]?.result);
    if (begun) return refuse('draw-started', 'round', `round ${e.round} has begun (${begun[0].place}); its race can no longer change`);
    s.races = { ...s.races, [e.round]: e.race };
    s.entries++;
    return null;
  }
  const i = st.index.get(e.match);
  if (i === undefined) return refuse('not-in-draw', 'match', `no match "${e.match}" in this draw`);
  const spec = st.matches[i]!;
  derive(s, i + 1);
  const a = s.slots[2 * i]!;
  const b = s.slots[2 * i + 1]!;
  const rec = s.records[i];
  const decided = s.winner[i] !== UNKNOWN;
  if (e.t === 'unstart') {
    if (!rec?.started || rec.result) return refuse('not-ready', 'match', `${spec.place} is not on a table (nothing to undo)`);
    s.records[i] = undefined;
    s.playing = s.playing.filter((p) => p !== i);
    s.entries++;
    return null;
  }
  if (a < 0 || b < 0 || (decided && !rec?.result)) {
    if (decided)
      return refuse(
        'not-ready',
        'match',
        `${spec.place} is not played (${spec.reset ? 'the hot seat holder won the final' : a === BYE && b === BYE ? 'nobody to play' : 'a bye'})`,
      );
    return refuse('not-ready', 'match', `${spec.place} is not ready: ${a === UNKNOWN && b === UNKNOWN ? 'its players are' : 'a player is'} not known yet`);
  }
  const ids = st.seeds;
  if (e.t === 'start') {
    if (rec?.result) return refuse('not-ready', 'match', `${spec.place} is already decided`);
    if (rec?.started) return refuse('not-ready', 'match', `${spec.place} is already on ${rec.table ? `table ${rec.table}` : 'a table'}`);
    for (const p of [a, b]) {
      const busy = s.playing.find((j) => s.slots[2 * j] === p || s.slots[2 * j + 1] === p);
      if (busy !== undefined)
        return refuse(
          'player-busy',
          'match',
          `${ids[p]} is playing ${st.matches[busy]!.place}${s.records[busy]?.table ? ` on table ${s.records[busy]!.table}` : ''}`,
        );
    }
    s.records[i] = { started: true, ...(e.table === undefined ? {} : { table: e.table }), ...(e.matchId === undefined ? {} : { matchId: e.matchId }) };
    s.playing = [...s.playing, i];
    s.entries++;
    return null;
  }
  // A result (or a correction).
  const problem = resultProblem(e, ids[a]!, ids[b]!);
  if (problem) return problem;
  const { match: _m, t: _t, reset, ...result } = e;
  const newWinner = result.winner === ids[a] ? a : b;
  if (rec?.result) {
    const affected = closure(s, i);
    const progressed = affected.filter((j) => s.records[j]?.started || s.records[j]?.result);
    const named = new Set(reset ?? []);
    for (const [k, id] of (reset ?? []).entries()) {
      const j = st.index.get(id);
      if (j === undefined || !affected.includes(j)) return refuse('invalid-draw', `reset.${k}`, `"${id}" does not depend on ${spec.place}`);
    }
    const sameOutcome = newWinner === s.winner[i] && spec.group === undefined;
    const missing = progressed.filter((j) => !named.has(st.matches[j]!.id));
    if (!sameOutcome && missing.length > 0) {
      const list = missing.map((j) => st.matches[j]!.id).join(', ');
      return refuse(
        'cascade-required',
        'reset',
        `correcting ${spec.place} changes matches that have started or finished (${list}); name them in reset to put them back to waiting`,
      );
    }
    for (const id of named) {
      const j = st.index.get(id)!;
      s.records[j] = undefined;
      s.playing = s.playing.filter((p) => p !== j);
    }
    for (const j of affected) if (st.matches[j]!.group !== undefined) s.tables[st.matches[j]!.group!] = undefined;
    s.derived = Math.min(s.derived, Math.min(i, ...affected));
  }
  s.records[i] = { ...(rec?.table === undefined ? {} : { table: rec.table }), ...(rec?.matchId === undefined ? {} : { matchId: rec.matchId }), result };
  s.playing = s.playing.filter((p) => p !== i);
  if (spec.group !== undefined) s.tables[spec.group] = undefined;
  s.derived = Math.min(s.derived, i);
  s.entries++;
  return null;
}

/** What is wrong with result `e` of a match between `a` and `b` (player ids), or null. */
function resultProblem(e: Extract<DrawEntry, { t: 'result' }>, a: string, b: string): DrawError | null {
  if (e.winner !== a && e.winner !== b) return refuse('invalid-draw', 'winner', `"${e.winner}" is not in this match (${a} v ${b})`);
  if (e.kind !== 'win' && e.kind !== 'walkover' && e.kind !== 'retired')
    return refuse('invalid-draw', 'kind', `a result is a win, a walkover or retired, not "${String(e.kind)}"`);
  const pair = (field: string, v: Pair<number> | undefined) =>
    v === undefined || (Array.isArray(v) && v.length === 2 && v.every((x) => Number.isInteger(x) && x >= -SCORE_LIMIT && x <= SCORE_LIMIT))
      ? null
      : refuse('invalid-draw', field, `two whole numbers (A first) from ${-SCORE_LIMIT} to ${SCORE_LIMIT}`);
  const bad = pair('score', e.score) ?? pair('highRun', e.highRun);
  if (bad) return bad;
  if (e.highRun && e.highRun.some((x) => x < 0)) return refuse('invalid-draw', 'highRun', 'a high run is not negative');
  if (e.innings !== undefined && !(Number.isInteger(e.innings) && e.innings >= 0 && e.innings <= SCORE_LIMIT))
    return refuse('invalid-draw', 'innings', `a whole number from 0 to ${SCORE_LIMIT}`);
  if (e.kind === 'win' && e.score) {
    const [w, l] = e.winner === a ? e.score : [e.score[1], e.score[0]];
    if (w <= l) return refuse('invalid-draw', 'score', `the winner (${e.winner}) has ${w}, not more than the loser's ${l}`);
  }
  return null;
}

/**
 * What is wrong with the score of a win the organiser enters for a match of race `race` between `players` (A
 * first), or null: the winner reaches the race and the loser does not (a match ends when its winner reaches the
 * race). The winner may end past the race by what the last shot scored: at most `shotMax` − 1 past it (`shotMax`,
 * the most one shot scores in the discipline: shared/protocol/limits.ts `shotPointsMax`), or by any amount when it
 * is the score the match's sheet recorded (`sheet`). A walkover or a retirement, and a win without a score, are not
 * checked: their scores are whatever they were. Refusals: `invalid-draw` naming `score`.
 */
export function raceProblem(result: DrawResult, race: number, players: Pair<string>, shotMax: number, sheet?: Pair<number> | null): DrawError | null {
  if (result.kind !== 'win' || !result.score) return null;
  const w = result.winner === players[0] ? 0 : 1;
  const won = result.score[w]!;
  const lost = result.score[1 - w]!;
  const loser = players[1 - w];
  if (won < race) return refuse('invalid-draw', 'score', `the winner (${result.winner}) has ${won}, short of the race to ${race}; a win reaches the race`);
  if (lost >= race)
    return refuse('invalid-draw', 'score', `the loser (${loser}) has ${lost}, which reaches the race to ${race}: the match would have ended there`);
  const asPlayed = sheet != null && sheet[0] === result.score[0] && sheet[1] === result.score[1];
  const most = race - 1 + shotMax;
  if (won > most && !asPlayed)
    return refuse(
      'invalid-draw',
      'score',
      `the winner (${result.winner}) has ${won}, past the race to ${race} by more than one shot can score (at most ${most}); a match ends when its winner reaches the race`,
    );
  return null;
}

/** Every match that depends on match i, directly or through others (group matches: the knockout their group feeds). */
function closure(s: DrawState, i: number): number[] {
  const links = linksOf(s.structure);
  const seen = new Set<number>();
  const todo = [i];
  const g = s.structure.matches[i]!.group;
  if (g !== undefined) todo.push(...links.groupFeeds[g]!);
  while (todo.length) {
    const j = todo.pop()!;
    for (const d of j === i ? links.dependents[j]! : [j, ...links.dependents[j]!]) {
      if (d === i || seen.has(d)) continue;
      seen.add(d);
      todo.push(...links.dependents[d]!);
    }
  }
  return [...seen].sort((x, y) => x - y);
}

/** Compute slots and outcomes of matches `s.derived` … `upTo - 1` (sources always come earlier). */
function derive(s: DrawState, upTo: number): void {
  const st = s.structure;
  for (let i = s.derived; i < upTo; i++) {
    const spec = st.matches[i]!;
    for (let k = 0; k < 2; k++) s.slots[2 * i + k] = slotValue(s, spec.slots[k]!);
    const a = s.slots[2 * i]!;
    const b = s.slots[2 * i + 1]!;
    let w = UNKNOWN;
    let l = UNKNOWN;
    if (spec.reset) {
      // Played only when the losers' side player (slot 1) won the final.
      const f = st.final;
      if (s.winner[f] !== UNKNOWN && s.winner[f] === s.slots[2 * f]) w = l = BYE;
    }
    if (w === UNKNOWN) {
      if (a === BYE && b === BYE) w = l = BYE;
      else if (a === BYE && b >= 0) [w, l] = [b, BYE];
      else if (b === BYE && a >= 0) [w, l] = [a, BYE];
      else if (a >= 0 && b >= 0) {
        const r = s.records[i]?.result;
        if (r) [w, l] = r.winner === st.seeds[a] ? [a, b] : [b, a];
      }
    }
    s.winner[i] = w;
    s.loser[i] = l;
  }
  s.derived = Math.max(s.derived, upTo);
}

function slotValue(s: DrawState, src: MatchSpec['slots'][number]): number {
  if ('seed' in src) return src.seed - 1;
  if ('bye' in src) return BYE;
  if ('winner' in src) return s.winner[src.winner]!;
  if ('loser' in src) return s.loser[src.loser]!;
  if ('same' in src) return s.slots[2 * src.same + src.slot]!;
  const table = groupRows(s, src.group);
  if (!table) return UNKNOWN;
  return s.structure.seeds.indexOf(table[src.place - 1]!.player);
}

/** Group g's table once every match of it is decided (else null). */
function groupRows(s: DrawState, g: number): GroupRow[] | null {
  const links = linksOf(s.structure);
  const ms = links.groupMatches[g]!;
  if (ms.some((i) => s.winner[i] === UNKNOWN)) return null;
  return (s.tables[g] ??= computeTable(s, g));
}

function computeTable(s: DrawState, g: number): GroupRow[] {
  const games: GroupGame[] = [];
  for (const i of linksOf(s.structure).groupMatches[g]!) {
    const r = s.records[i]?.result;
    if (r) games.push({ a: s.slots[2 * i]!, b: s.slots[2 * i + 1]!, result: r });
  }
  return groupTable(s.structure.groups[g]!, s.structure.seeds, games);
}

/** Ready match indexes, earliest round first (then bracket order). */
function readyIndexes(s: DrawState): number[] {
  derive(s, s.structure.matches.length);
  const status = statuses(s);
  const out: number[] = [];
  for (let i = 0; i < status.length; i++) if (status[i] === 'ready') out.push(i);
  const ms = s.structure.matches;
  return out.sort((x, y) => ms[x]!.depth - ms[y]!.depth || x - y);
}

/**
 * Every match's status. A player's matches wait for the one on a table; in a group, a player's next match is
 * their earliest open one whose opponent is not on a table (so a player is never in two ready matches, and the
 * earliest open match of all is always ready: nothing deadlocks).
 */
function statuses(s: DrawState): MatchStatus[] {
  const st = s.structure;
  const m = st.matches.length;
  const out = new Array<MatchStatus>(m);
  const busy = new Set<number>();
  for (const j of s.playing) {
    busy.add(s.slots[2 * j]!);
    busy.add(s.slots[2 * j + 1]!);
  }
  const candidates: number[] = [];
  for (let i = 0; i < m; i++) {
    const a = s.slots[2 * i]!;
    const b = s.slots[2 * i + 1]!;
    const rec = s.records[i];
    if (s.winner[i] !== UNKNOWN) out[i] = rec?.result ? 'done' : (a === BYE && b === BYE) || st.matches[i]!.reset ? 'void' : 'bye';
    else if (a < 0 || b < 0) out[i] = 'waiting';
    else if (rec?.started) out[i] = 'playing';
    else if (busy.has(a) || busy.has(b)) out[i] = 'held';
    else {
      out[i] = 'held';
      candidates.push(i);
    }
  }
  // Each free player's next match: the earliest (by depth, then order) open candidate.
  candidates.sort((x, y) => st.matches[x]!.depth - st.matches[y]!.depth || x - y);
  const next = new Map<number, number>();
  for (const i of candidates) {
    for (const p of [s.slots[2 * i]!, s.slots[2 * i + 1]!]) if (!next.has(p)) next.set(p, i);
  }
  for (const i of candidates) if (next.get(s.slots[2 * i]!) === i && next.get(s.slots[2 * i + 1]!) === i) out[i] = 'ready';
  return out;
}

/**
 * The race of match `spec`: the round's change, the definition's round, then (a final reset: the final played again)
 * the final's race, then the side's, then the default.
 */
function raceOf(s: DrawState, spec: MatchSpec): number {
  const r = s.def.races;
  const own = s.races[spec.round] ?? r.rounds?.[spec.round];
  if (own !== undefined) return own;
  const final = s.structure.matches[s.structure.final];
  if (spec.reset && final) return raceOf(s, final);
  return r.sides?.[spec.side] ?? r.default;
}

/** The ready matches' ids, earliest round first (then bracket order). */
export function readyMatches(s: DrawState): string[] {
  return readyIndexes(s).map((i) => s.structure.matches[i]!.id);
}

/** Every match, in the structure's order. */
export function matchViews(s: DrawState): DrawMatchView[] {
  derive(s, s.structure.matches.length);
  const status = statuses(s);
  return s.structure.matches.map((spec, i) => matchView(s, spec, i, status[i]!));
}

/** One match by id (null when not in the draw). */
export function matchViewOf(s: DrawState, id: string): DrawMatchView | null {
  const i = s.structure.index.get(id);
  if (i === undefined) return null;
  derive(s, s.structure.matches.length);
  return matchView(s, s.structure.matches[i]!, i, statuses(s)[i]!);
}

function matchView(s: DrawState, spec: MatchSpec, i: number, status: MatchStatus): DrawMatchView {
  const who = (v: number) => (v >= 0 ? s.structure.seeds[v]! : v === BYE ? 'bye' : null);
  const rec = s.records[i];
  const v: DrawMatchView = {
    id: spec.id,
    side: spec.side,
    round: spec.round,
    roundName: spec.roundName,
    place: spec.place,
    players: [who(s.slots[2 * i]!), who(s.slots[2 * i + 1]!)],
    race: raceOf(s, spec),
    status,
  };
  if (rec?.table !== undefined) v.table = rec.table;
  if (rec?.matchId !== undefined) v.matchId = rec.matchId;
  if (rec?.result) v.result = rec.result;
  if (spec.group !== undefined) v.group = groupName(spec.group);
  return v;
}

/** The group tables (round robin, groups then knockout), in group order; empty for an elimination draw. */
export function groupTables(s: DrawState): GroupTableView[] {
  derive(s, s.structure.matches.length);
  const links = linksOf(s.structure);
  return s.structure.groups.map((members, g) => {
    const complete = links.groupMatches[g]!.every((i) => s.winner[i] !== UNKNOWN);
    return { group: groupName(g), rows: (complete && s.tables[g]) || computeTable(s, g), complete };
  });
}

/** Whether any match has started or has a result (the draw can then no longer be replaced without cancelling it). */
export function drawBegun(s: DrawState): boolean {
  return s.records.some((r) => r !== undefined);
}

/** The champion's id once the event is decided (elimination: the final, or its reset; one group: its winner), else null. */
export function champion(s: DrawState): string | null {
  derive(s, s.structure.matches.length);
  const st = s.structure;
  if (st.final >= 0) {
    const last = st.finalReset >= 0 && s.winner[st.finalReset] !== BYE ? st.finalReset : st.final;
    const w = s.winner[last]!;
    return w >= 0 ? st.seeds[w]! : null;
  }
  const tables = groupTables(s);
  return tables.length === 1 && tables[0]!.complete ? tables[0]!.rows[0]!.player : null;
}

/**
 * The standings: every player with wins, losses, whether out, and a place once it is settled. Elimination:
 * the champion 1, the runner-up 2, then by the stage each was knocked out at (players out at the same stage
 * share the place). Round robin: by group place (the winners of the groups share place 1 when there are
 * several groups). Groups then knockout: the knockout's places, then the players who did not go on, by
 * group place. Ordered by place (players still in first, by seed).
 */
export function standings(s: DrawState): StandingRow[] {
  derive(s, s.structure.matches.length);
  const st = s.structure;
  const n = st.seeds.length;
  const links = linksOf(st);
  const wins = new Array<number>(n).fill(0);
  const losses = new Array<number>(n).fill(0);
  /** Rank key of a player's exit: larger is better; Infinity for the champion; undefined while still in. */
  const exit = new Array<number | undefined>(n);
  for (let i = 0; i < st.matches.length; i++) {
    const w = s.winner[i]!;
    const l = s.loser[i]!;
    if (w < 0 || l < 0) continue;
    wins[w]!++;
    losses[l]!++;
    const spec = st.matches[i]!;
    if (spec.group !== undefined) continue;
    const goesOn = links.loserGoesOn[i] || (i === st.final && st.finalReset >= 0 && l === s.slots[2 * i]);
    if (!goesOn) exit[l] = spec.depth + 1;
  }
  const champ = champion(s);
  if (champ !== null) exit[st.seeds.indexOf(champ)] = Infinity;
  // Groups: who did not go on is out once their group is complete, ranked after every knockout player.
  const tables = groupTables(s);
  const advance = s.def.format === 'groups-knockout' ? s.def.advance! : 0;
  for (const t of tables) {
    if (!t.complete) continue;
    for (const row of t.rows) {
      const p = st.seeds.indexOf(row.player);
      if (row.place > advance) exit[p] = -row.place;
    }
  }
  // A place is settled when nobody still in can go out at the same stage or before: every match up to that
  // stage is decided (a group's leavers: every group complete).
  let undecided = Infinity;
  for (let i = 0; i < st.matches.length; i++) if (s.winner[i] === UNKNOWN) undecided = Math.min(undecided, st.matches[i]!.depth);
  const groupsDone = tables.every((t) => t.complete);
  const rows: (StandingRow & { key: number | undefined; seed: number })[] = st.seeds.map((player, p) => ({
    player,
    place: null,
    wins: wins[p]!,
    losses: losses[p]!,
    out: exit[p] !== undefined && exit[p] !== Infinity,
    key: exit[p],
    seed: p,
  }));
  for (const r of rows) {
    if (r.key === undefined) continue;
    const settled = r.key === Infinity || (r.key < 0 ? groupsDone : r.key <= undecided);
    if (settled) r.place = 1 + rows.filter((o) => o.key === undefined || o.key > r.key!).length;
  }
  return rows.sort((x, y) => (x.place ?? 0) - (y.place ?? 0) || x.seed - y.seed).map(({ key: _k, seed: _s, ...row }) => row);
}
