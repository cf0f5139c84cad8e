/**
 * The structure of a draw: its definition checked, the field seeded, and every match it can have (fixed once
 * the definition is: stable ids, round, bracket place, where each slot's player comes from). Pure.
 *
 * Elimination brackets have 2^k slots; a field that is not a power of two gets byes, given to the top seeds in
 * the standard seed order (1 v 16, 8 v 9, 4 v 13, …), so a bye always meets a player in the first round (the
 * field fills more than half the slots). Double elimination as pool plays it: the winners' side ends with the
 * hot seat match; the losers' side takes each winners' round's losers (crossed, to put off rematches) and ends
 * with the losers' final against the hot seat's loser; the final is the hot seat's winner against the losers'
 * side's winner, once, or as a true double with a reset when the losers' side player wins it. Round robin:
 * groups as even as the field allows, filled by snake seeding (A B C C B A …), each group by the circle method.
 */
import { TARGET_MAX } from '../protocol/limits';
import { seededShuffle } from '../prng';
import { DRAW_FORMAT_NAMES } from './options';
import type { DrawDefinition, DrawPlayer, MatchSpec, SlotSource } from './types';

/** Players in a draw: at least, at most. */
export const DRAW_PLAYERS_MIN = 2;
export const DRAW_PLAYERS_MAX = 256;
/** Players per round-robin group: at least, at most. */
export const GROUP_SIZE_MIN = 2;
export const GROUP_SIZE_MAX = 16;

/** A refusal of the draw module: a stable code, the field at fault and a message naming it. */
export interface DrawError {
  code: 'invalid-draw' | 'not-in-draw' | 'not-ready' | 'player-busy' | 'draw-started' | 'cascade-required';
  field: string;
  message: string;
}

/** The structure of a draw: the seeded field, its groups and every match. */
export interface DrawStructure {
  /** Player ids by seed (index 0 = seed 1). */
  seeds: string[];
  /** Group members (seed indexes, best seed first), for round robin and groups then knockout; else empty. */
  groups: number[][];
  matches: MatchSpec[];
  /** Index of each match by id. */
  index: Map<string, number>;
  /** The elimination part's last match index(es): the final, and its reset (or -1); -1 for round robin alone. */
  final: number;
  finalReset: number;
  /** Double elimination: the hot seat match's index (else -1). */
  hotSeat: number;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Group name of index `g`: A…Z, then AA, AB… */
export function groupName(g: number): string {
  return g < 26 ? LETTERS[g]! : LETTERS[Math.floor(g / 26) - 1]! + LETTERS[g % 26]!;
}

/** The definition's problems: the first one, naming its field, or null when it can be drawn. */
export function checkDefinition(def: DrawDefinition): DrawError | null {
  const bad = (field: string, message: string): DrawError => ({ code: 'invalid-draw', field, message: `${field}: ${message}` });
  const n = def.players.length;
  if (n < DRAW_PLAYERS_MIN) return bad('players', `a draw needs at least ${DRAW_PLAYERS_MIN} players, got ${n}`);
  if (n > DRAW_PLAYERS_MAX) return bad('players', `a draw takes at most ${DRAW_PLAYERS_MAX} players, got ${n}`);
  const seen = new Map<string, number>();
  for (const [i, p] of def.players.entries()) {
    if (typeof p.id !== 'string' || p.id === '') return bad(`players.${i}.id`, 'a player id is required');
    const first = seen.get(p.id);
    if (first !== undefined) return bad(`players.${i}.id`, `player "${p.id}" is in the draw twice (also players.${first})`);
    seen.set(p.id, i);
  }
  const race = (field: string, v: number | undefined) =>
    v === undefined || (Number.isInteger(v) && v >= 1 && v <= TARGET_MAX) ? null : bad(field, `a race is a whole number from 1 to ${TARGET_MAX}, got ${v}`);
  const races = [
    race('races.default', def.races.default),
    ...Object.entries(def.races.sides ?? {}).map(([k, v]) => race(`races.sides.${k}`, v)),
    ...Object.entries(def.races.rounds ?? {}).map(([k, v]) => race(`races.rounds.${k}`, v)),
  ];
  const raceError = races.find((r) => r !== null);
  if (raceError) return raceError;
  if (def.seeding.by === 'random' && !(Number.isInteger(def.seeding.seed) && def.seeding.seed >= 0 && def.seeding.seed <= 0xffffffff)) {
    return bad('seeding.seed', `the random draw's seed is a whole number from 0 to 4294967295, got ${def.seeding.seed}`);
  }
  if (def.format === 'round-robin' || def.format === 'groups-knockout') {
    const size = def.groupSize;
    const formatName = DRAW_FORMAT_NAMES[def.format];
    if (size === undefined) return bad('groupSize', `${formatName} needs players per group: a whole number from ${GROUP_SIZE_MIN} to ${GROUP_SIZE_MAX}`);
    if (!Number.isInteger(size) || size < GROUP_SIZE_MIN || size > GROUP_SIZE_MAX) {
      return bad('groupSize', `players per group is a whole number from ${GROUP_SIZE_MIN} to ${GROUP_SIZE_MAX}, got ${size}`);
    }
    if (def.format === 'groups-knockout') {
      const sizes = groupSizes(n, size);
      const smallest = Math.min(...sizes);
      const k = def.advance;
      if (k === undefined)
        return bad(
          'advance',
          `groups then knockout needs how many go on from each group: a whole number from 1 to ${smallest - 1} (the smallest group has ${smallest})`,
        );
      if (!Number.isInteger(k) || k < 1 || k >= smallest) {
        return bad('advance', `players going on from each group is a whole number from 1 to ${smallest - 1} (the smallest group has ${smallest}), got ${k}`);
      }
      if (k * sizes.length < 2) return bad('advance', `the knockout needs at least 2 players; ${sizes.length} group(s) × ${k} is ${k * sizes.length}`);
    }
  }
  return null;
}

/** Sizes of the groups of `n` players in groups of `size`: ceil(n / size) groups, as even as possible. */
export function groupSizes(n: number, size: number): number[] {
  const g = Math.max(1, Math.ceil(n / size));
  return Array.from({ length: g }, (_, i) => Math.floor(n / g) + (i < n % g ? 1 : 0));
}

/** Player ids by seed: by rating (highest first, equal ratings in the given order), as given, or shuffled from the seed. */
export function seedOrder(players: readonly DrawPlayer[], seeding: DrawDefinition['seeding']): string[] {
  if (seeding.by === 'order') return players.map((p) => p.id);
  if (seeding.by === 'random') return seededShuffle(players, seeding.seed).map((p) => p.id);
  return players
    .map((p, i) => ({ id: p.id, r: p.rating ?? -Infinity, i }))
    .sort((a, b) => (b.r === a.r ? a.i - b.i : b.r - a.r))
    .map((p) => p.id);
}

/** The standard seed order of a bracket of `size` (a power of two) slots: [1, 16, 8, 9, 4, 13, …]. */
export function bracketOrder(size: number): number[] {
  let order = [1];
  while (order.length < size) {
    const m = order.length * 2;
    order = order.flatMap((s) => [s, m + 1 - s]);
  }
  return order;
}

/** The structure of a checked definition (call `checkDefinition` first; this throws on a bad one). */
export function buildStructure(def: DrawDefinition): DrawStructure {
  const problem = checkDefinition(def);
  if (problem) throw new Error(problem.message);
  const seeds = seedOrder(def.players, def.seeding);
  const s: DrawStructure = { seeds, groups: [], matches: [], index: new Map(), final: -1, finalReset: -1, hotSeat: -1 };
  const entrants = (q: number, at: (i: number) => SlotSource) => Array.from({ length: q }, (_, i) => at(i));
  if (def.format === 'single' || def.format === 'double') {
    elimination(
      s,
      def.format,
      entrants(seeds.length, (i) => ({ seed: i + 1 })),
      def.trueDouble === true,
      0,
    );
  } else {
    const depth = roundRobin(s, seeds.length, def.groupSize!);
    if (def.format === 'groups-knockout') {
      const k = def.advance!;
      const g = s.groups.length;
      elimination(
        s,
        def.knockout ?? 'single',
        entrants(g * k, (i) => ({ group: i % g, place: Math.floor(i / g) + 1 })),
        def.trueDouble === true,
        depth,
      );
    }
  }
  for (const [i, m] of s.matches.entries()) s.index.set(m.id, i);
  return s;
}

function add(s: DrawStructure, m: MatchSpec): number {
  s.matches.push(m);
  return s.matches.length - 1;
}

/** Adds an elimination bracket for `entrants` (in seed order) from depth `d0`. */
function elimination(s: DrawStructure, kind: 'single' | 'double', entrants: SlotSource[], trueDouble: boolean, d0: number): void {
  let size = 2;
  while (size < entrants.length) size *= 2;
  const k = Math.log2(size);
  const order = bracketOrder(size);
  const entrant = (slot: number): SlotSource => entrants[order[slot]! - 1] ?? { bye: true };
  // Winners' side (or the single elimination bracket), round by round.
  const w: number[][] = [];
  for (let r = 1; r <= k; r++) {
    const count = size / 2 ** r;
    const row: number[] = [];
    for (let i = 0; i < count; i++) {
      const slots: [SlotSource, SlotSource] =
        r === 1 ? [entrant(2 * i), entrant(2 * i + 1)] : [{ winner: w[r - 2]![2 * i]! }, { winner: w[r - 2]![2 * i + 1]! }];
      const last = r === k;
      if (kind === 'single') {
        const fromEnd = k - r;
        const roundName = last ? 'Final' : fromEnd === 1 ? 'Semi-finals' : fromEnd === 2 ? 'Quarter-finals' : `Round ${r}`;
        row.push(
          add(s, {
            id: last ? 'F' : `R${r}-${i + 1}`,
            side: last ? 'F' : 'W',
            round: last ? 'F' : `R${r}`,
            roundName,
            place: last ? 'Final' : `R${r} M${i + 1}`,
            depth: d0 + r - 1,
            slots,
          }),
        );
      } else {
        row.push(
          add(s, {
            id: last ? 'HS' : `W${r}-${i + 1}`,
            side: 'W',
            round: `W${r}`,
            roundName: last ? 'Hot seat' : `Winners' round ${r}`,
            place: last ? 'Hot seat' : `W R${r} M${i + 1}`,
            depth: d0 + 2 * (r - 1),
            slots,
          }),
        );
      }
    }
    w.push(row);
  }
  if (kind === 'single') {
    s.final = w[k - 1]![0]!;
    return;
  }
  s.hotSeat = w[k - 1]![0]!;
  // Losers' side: L1 pairs the first round's losers; L2r meets L(2r-1)'s winners with W(r+1)'s losers (crossed);
  // L(2r+1) pairs L2r's winners. It ends with L(2k-2), the losers' final, against the hot seat's loser.
  const lastL = 2 * k - 2;
  const l: number[][] = [];
  const addL = (j: number, count: number, slotsOf: (i: number) => [SlotSource, SlotSource]) => {
    const row: number[] = [];
    for (let i = 0; i < count; i++) {
      const last = j === lastL;
      row.push(
        add(s, {
          id: `L${j}-${i + 1}`,
          side: 'L',
          round: `L${j}`,
          roundName: last ? "Losers' final" : `Losers' round ${j}`,
          place: `L R${j} M${i + 1}`,
          depth: d0 + j,
          slots: slotsOf(i),
        }),
      );
    }
    l.push(row);
  };
  for (let j = 1; j <= lastL; j++) {
    if (j === 1) addL(1, size / 4, (i) => [{ loser: w[0]![2 * i]! }, { loser: w[0]![2 * i + 1]! }]);
    else if (j % 2 === 0) {
      const r = j / 2;
      const count = size / 2 ** (r + 1);
      const drops = w[r]!;
      addL(j, count, (i) => [{ winner: l[j - 2]![i]! }, { loser: drops[r % 2 === 1 ? count - 1 - i : i]! }]);
    } else {
      const count = size / 2 ** ((j + 3) / 2);
      addL(j, count, (i) => [{ winner: l[j - 2]![2 * i]! }, { winner: l[j - 2]![2 * i + 1]! }]);
    }
  }
  const losersChampion: SlotSource = k === 1 ? { loser: s.hotSeat } : { winner: l[lastL - 1]![0]! };
  s.final = add(s, {
    id: 'F',
    side: 'F',
    round: 'F',
    roundName: 'Final',
    place: 'Final',
    depth: d0 + 2 * k - 1,
    slots: [{ winner: s.hotSeat }, losersChampion],
  });
  if (trueDouble) {
    s.finalReset = add(s, {
      id: 'FR',
      side: 'F',
      round: 'FR',
      roundName: 'Final reset',
      place: 'Final reset',
      depth: d0 + 2 * k,
      slots: [
        { same: s.final, slot: 0 },
        { same: s.final, slot: 1 },
      ],
      reset: true,
    });
  }
}

/** Adds the groups and their round-robin matches; @returns the depth after the last group round. */
function roundRobin(s: DrawStructure, n: number, size: number): number {
  const sizes = groupSizes(n, size);
  const g = sizes.length;
  const groups: number[][] = sizes.map(() => []);
  // Snake: seeds 1…g into A…, g+1…2g back from the last group, and so on.
  for (let i = 0; i < n; i++) {
    const lap = Math.floor(i / g);
    const pos = i % g;
    groups[lap % 2 === 0 ? pos : g - 1 - pos]!.push(i);
  }
  s.groups = groups;
  let rounds = 0;
  // Circle method: one fixed, the rest rotate; with an odd group a dummy (a rest) joins.
  const schedules = groups.map((members) => {
    const ring: (number | null)[] = members.length % 2 === 0 ? [...members] : [...members, null];
    const m = ring.length;
    const out: [number, number][][] = [];
    for (let r = 0; r < m - 1; r++) {
      const pairs: [number, number][] = [];
      for (let i = 0; i < m / 2; i++) {
        const a = ring[i]!;
        const b = ring[m - 1 - i]!;
        if (a !== null && b !== null) pairs.push(r % 2 === 1 && i === 0 ? [b, a] : [a, b]);
      }
      out.push(pairs);
      ring.splice(1, 0, ring.pop()!);
    }
    rounds = Math.max(rounds, out.length);
    return out;
  });
  // Round by round over all groups, so the ready list takes group A's round 1, B's round 1, … first.
  for (let r = 0; r < rounds; r++) {
    for (const [gi, schedule] of schedules.entries()) {
      for (const [i, [a, b]] of (schedule[r] ?? []).entries()) {
        const name = groupName(gi);
        add(s, {
          id: `G${name}-${r + 1}-${i + 1}`,
          side: 'G',
          round: `G${r + 1}`,
          roundName: `Group round ${r + 1}`,
          place: `Group ${name} R${r + 1} M${i + 1}`,
          depth: r,
          slots: [{ seed: a + 1 }, { seed: b + 1 }],
          group: gi,
        });
      }
    }
  }
  return rounds;
}
