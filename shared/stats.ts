/**
 * Derived statistics for the dashboard: per-player innings, average, high run, safeties, fouls, breaking
 * fouls, three-foul penalties, runs per inning; the score sheet (one row per inning per player, rules.md
 * §3.13; Rotation with balls and rack totals) and the consistency check (14-1 INV-1/INV-2, Rotation INV-R1).
 */
import type { MatchSetup, Pair, PlayerKey } from './protocol/setup';
import type { ConsistencyCheck, Outcome, PlayerStats, RackTotal, SheetRow, TurnEnd } from './protocol/state';
import type { Step } from './protocol/steps';
import type { MatchStats } from './protocol/wire';
import { type Core, idx, initialCore } from './rules/core';

/** Minimal view of an effective step: the state before it and its outcome. */
export interface StatsEntry {
  readonly before: Core;
  readonly step: Step;
  readonly outcome: Outcome;
}

const MARKS: Record<TurnEnd, SheetRow['mark']> = {
  miss: '', safety: 'S', foul: 'F', 'breaking-foul': 'BF', 'third-foul': 'TF', 'illegal-break': 'IB',
  'push-out': 'PO', win: 'W', 'lost-break': '',
};

/** How many recent steps `MatchStats.recent` carries (the pages word them). */
export const RECENT_STEPS = 8;

/**
 * Compute statistics from the effective steps (oldest first) and the current core.
 * O(number of steps); called when a snapshot is sent, never on replay.
 */
export function deriveStats(setup: MatchSetup, entries: readonly StatsEntry[], now: Core): MatchStats {
  const counts: Pair<{ safeties: number; fouls: number; breakingFouls: number; threeFouls: number; scored: number; penalties: number }> = [
    { safeties: 0, fouls: 0, breakingFouls: 0, threeFouls: 0, scored: 0, penalties: 0 },
    { safeties: 0, fouls: 0, breakingFouls: 0, threeFouls: 0, scored: 0, penalties: 0 },
  ];
  const sheet: SheetRow[] = [];
  const open: Pair<SheetRow | null> = [null, null];
  const racks = new Map<number, RackTotal>();
  entries.forEach((e, i) => {
    const o = e.outcome;
    const after = i + 1 < entries.length ? entries[i + 1]!.before : now;
    const k = idx(o.by);
    const cnt = counts[k];
    cnt.scored += o.points;
    cnt.penalties += o.penalty;
    if (o.safety) cnt.safeties++;
    if (o.foul === 'foul') cnt.fouls++;
    if (o.foul === 'breaking-foul') cnt.breakingFouls++;
    if (o.foul === 'third-foul') { cnt.fouls++; cnt.threeFouls++; }
    if (o.kind !== 'shot') return;
    if (o.inning !== undefined || open[k] === null) {
      const row: SheetRow = { player: o.by, inning: o.inning ?? e.before.innings[k], rack: o.rack ?? e.before.rack, points: 0, penalty: 0, mark: '', total: 0, open: true };
      if (setup.discipline === 'rotation') row.balls = [];
      sheet.push(row);
      open[k] = row;
    }
    const row = open[k]!;
    row.points += o.points;
    row.penalty += o.penalty;
    row.total = after.score[k];
    if (o.balls && row.balls) row.balls.push(...o.balls);
    if (o.points > 0) {
      // Points belong to the rack the shot was played in (a shot that triggers a re-rack counts in the old one).
      const rack = o.rack ?? e.before.rack;
      const r = racks.get(rack) ?? { rack, points: [0, 0], balls: [[], []] };
      r.points[k] += o.points;
      if (o.balls) r.balls[k].push(...o.balls);
      racks.set(rack, r);
    }
    if (o.turnEnd) {
      row.mark = MARKS[o.turnEnd];
      delete row.open;
      open[k] = null;
    }
  });
  const players = ([0, 1] as const).map((k): PlayerStats => {
    const runs = sheet.filter((r) => r.player === (k === 0 ? 'A' : 'B')).map((r) => r.points);
    const innings = now.innings[k];
    const net = now.score[k] - setup.startScore[k];
    return {
      innings,
      points: now.score[k],
      average: innings > 0 ? Math.round((net / innings) * 100) / 100 : 0,
      highRun: now.highRun[k],
      safeties: counts[k].safeties,
      fouls: counts[k].fouls,
      breakingFouls: counts[k].breakingFouls,
      threeFouls: counts[k].threeFouls,
      runs,
    };
  }) as [PlayerStats, PlayerStats];
  const recent = entries.slice(-RECENT_STEPS).map((e) => e.outcome);
  return {
    players,
    sheet,
    racks: [...racks.values()].sort((a, b) => a.rack - b.rack),
    recent,
    check: consistency(setup, entries, now, counts),
  };
}

/**
 * The rules' consistency check, relative to where recording began (a match may be picked up in progress).
 * 14-1 INV-1: change of the score sum = balls legally scored − foul points; INV-2: balls scored in the current
 * rack = 15 − balls on the table. Rotation INV-R1: change of the score sum = 120 per rack finished + points taken
 * off the current table (a 61 tie-break adds 1).
 */
export function consistency(
  setup: MatchSetup, entries: readonly StatsEntry[], now: Core,
  counts: Pair<{ scored: number; penalties: number }>,
): ConsistencyCheck {
  const first = entries[0]?.before ?? initialCore(setup);
  const scoreChange = now.score[0] + now.score[1] - (first.score[0] + first.score[1]);
  const scored = counts[0].scored + counts[1].scored;
  if (setup.discipline === 'rotation') {
    const left = (t: readonly number[] | null) => (t ?? []).reduce((a, b) => a + b, 0);
    const racks = now.rack - first.rack;
    const fromTable = left(first.table) - left(now.table);
    const expected = 120 * racks + fromTable;
    const tieBreak = !!now.winner && setup.options.format === 'single-rack-61' && now.table?.length === 0 && scoreChange === expected + 1;
    const ok = scoreChange === expected + (tieBreak ? 1 : 0) && scored === expected;
    return { discipline: 'rotation', ok, scoreChange, racks, fromTable, tieBreak };
  }
  const penalties = counts[0].penalties + counts[1].penalties;
  const scoreOk = scoreChange === scored - penalties;
  let rack: { scored: number; onTable: number; ok: boolean } | null = null;
  // INV-2 holds once the current rack began while recording (or from a fresh start).
  const rackStart = [...entries].reverse().find((e) => e.outcome.rerack)?.outcome;
  if (now.winner === null && (rackStart || (!setup.start && now.rack === 1))) {
    const since = rackStart ? entries.slice(entries.findLastIndex((e) => e.outcome === rackStart) + 1) : entries;
    const inRack = since.reduce((a, e) => a + (e.outcome.kind === 'shot' ? e.outcome.points : 0), 0);
    rack = { scored: inRack, onTable: now.count, ok: inRack === 15 - now.count };
  }
  return { discipline: '14-1', ok: scoreOk && (rack?.ok ?? true), scoreChange, scored, penalties, scoreOk, rack };
}
