/**
 * An event's results (issue 27 §6): every match of the event — each match put on one of its tables, and each
 * draw match decided without one (a walkover, a result the organiser entered) — with its round and place in the
 * bracket, players, score, innings, high runs, average, winner, table, start and end; the standings (the draw's,
 * else by matches won); the event's high run and best average. Built on request from the stored event, its draw
 * and its matches (live during the event, the same after it: nothing here is kept apart). A match of the draw
 * has the draw's result (one source: a correction shows at once, the webhooks and the draw page agree); a match
 * the draw made and no longer holds (a correction reset it) has none. The end of a won match is the time of its
 * last recorded step, read once per match version and remembered.
 */
import type { DrawInfo } from '../draws/service';
import type { EventService } from '../events/service';
import type { MatchService } from '../matches/service';
import type { DrawMatchView } from '../../shared/draw/state';
import type { EventMatch, EventView } from '../../shared/protocol/event';
import type { EventResults, ResultBest, ResultRow, ResultStanding } from '../../shared/protocol/results';
import type { Pair } from '../../shared/protocol/vocabulary';

export interface ResultsServiceOptions {
  events: Pick<EventService, 'view'>;
  matches: Pick<MatchService, 'currentState' | 'steps'>;
  /** The event's draw, or a refusal when it has none (`DrawService.get`). */
  draw(eventId: string): Promise<{ ok: true; draw: DrawInfo } | { ok: false }>;
}

/** What is read of one cuecast match. */
interface Played {
  score: Pair<number>;
  innings: Pair<number>;
  highRun: Pair<number>;
  average: Pair<number>;
  winner: 'A' | 'B' | null;
  endedAt: number | null;
}

export class ResultsService {
  /** End time of a won match by match id, with the version it was read at. */
  private readonly ends = new Map<string, { version: number; at: number }>();

  constructor(private readonly opts: ResultsServiceOptions) {}

  /** The event's results, or null when there is no event `eventId`. */
  async results(eventId: string): Promise<EventResults | null> {
    const view = await this.opts.events.view(eventId);
    if (!view) return null;
    const drawRes = await this.opts.draw(eventId);
    const draw = drawRes.ok ? drawRes.draw : null;
    const name = nameOf(view);
    const tableName = (id: string) => view.tables.find((t) => t.id === id)?.name ?? id;
    const played = new Map<string, Played>();
    await Promise.all(
      view.matches.map(async (m) => {
        const p = await this.played(m.id);
        if (p) played.set(m.id, p);
      }),
    );
    const byMatch = new Map<string, DrawMatchView>();
    for (const dm of draw?.draw.matches ?? []) if (dm.matchId) byMatch.set(dm.matchId, dm);
    const onTable = new Set(view.tables.map((t) => t.current));

    const rows: ResultRow[] = [];
    for (const m of view.matches) {
      if (m.startedAt === null) continue; // waiting as a table's next match: not played yet
      const p = played.get(m.id);
      const dm = byMatch.get(m.id);
      // A match the draw made that the draw no longer holds (a correction reset it, the draw was replaced): its
      // sheet's result is not the event's.
      const dropped = draw !== null && m.draw !== undefined && dm === undefined;
      rows.push(this.tableRow(m, p, dm, tableName, name, onTable.has(m.id), dropped));
    }
    for (const dm of draw?.draw.matches ?? []) {
      if (dm.matchId || dm.status !== 'done' || !dm.result) continue;
      const players: Pair<string> = [name(dm.players[0]!), name(dm.players[1]!)];
      const r = dm.result;
      rows.push({
        matchId: null,
        drawMatch: dm.id,
        round: dm.roundName,
        place: dm.place,
        players,
        score: r.score ?? null,
        innings: null,
        highRun: r.highRun ?? null,
        average: null,
        winner: name(r.winner),
        kind: r.kind,
        status: 'done',
        table: dm.table ? tableName(dm.table) : null,
        startedAt: null,
        endedAt: null,
      });
    }

    const standings: ResultStanding[] = draw
      ? draw.draw.standings.map((s) => ({ place: s.place, player: name(s.player), wins: s.wins, losses: s.losses, out: s.out }))
      : tally(rows);
    const champion = draw?.draw.champion ? name(draw.draw.champion) : null;
    return {
      eventId,
      name: view.name,
      date: view.date,
      format: draw?.definition.format ?? null,
      champion,
      finished: champion !== null,
      standings,
      matches: rows,
      highRun: best(rows, (r) => r.highRun, true),
      bestAverage: best(rows, (r) => (r.status === 'done' ? r.average : null), false),
    };
  }

  private tableRow(
    m: EventMatch,
    p: Played | undefined,
    dm: DrawMatchView | undefined,
    tableName: (id: string) => string,
    name: (id: string) => string,
    current: boolean,
    dropped: boolean,
  ): ResultRow {
    const row: ResultRow = {
      matchId: m.id,
      drawMatch: dm?.id ?? null,
      round: dm?.roundName ?? null,
      place: dm?.place ?? null,
      players: m.players,
      score: p?.score ?? null,
      innings: p?.innings ?? null,
      highRun: p?.highRun ?? null,
      average: p?.average ?? null,
      winner: null,
      kind: null,
      status: current ? 'playing' : 'unfinished',
      table: tableName(m.table),
      startedAt: m.startedAt,
      endedAt: p?.endedAt ?? null,
    };
    const drawResult = dm?.status === 'done' ? dm.result : undefined;
    if (drawResult) {
      // One source: a match of the draw has the draw's result — the one the organiser recorded or corrected, or
      // the table's win as it entered the draw. Its sheet keeps what was played (innings; the score and high
      // runs where the result names none, as for a walkover or a retirement).
      const score = drawResult.score ?? row.score;
      const asPlayed = p !== undefined && score !== null && p.score[0] === score[0] && p.score[1] === score[1];
      return {
        ...row,
        score,
        highRun: drawResult.highRun ?? row.highRun,
        average: asPlayed ? p.average : null,
        winner: name(drawResult.winner),
        kind: drawResult.kind,
        status: 'done',
      };
    }
    if (dropped || !p?.winner) return row;
    return { ...row, winner: m.players[p.winner === 'A' ? 0 : 1]!, kind: 'win', status: 'done' };
  }

  /** The facts of cuecast match `id`, or null when it is gone from the store. */
  private async played(id: string): Promise<Played | null> {
    const cur = await this.opts.matches.currentState(id).catch(() => null);
    if (!cur) return null;
    const { state, figures, version } = cur;
    let endedAt: number | null = null;
    if (state.winner !== null) {
      const hit = this.ends.get(id);
      if (hit?.version === version) endedAt = hit.at;
      else {
        const log = await this.opts.matches.steps(id).catch(() => null);
        const last = log?.steps.at(-1);
        if (last && log!.version === version) {
          endedAt = last.at;
          if (this.ends.size > 10_000) this.ends.clear();
          this.ends.set(id, { version, at: last.at });
        }
      }
    }
    return { score: state.score, innings: state.innings, highRun: state.highRun, average: figures.average, winner: state.winner, endedAt };
  }
}

/** Roster id → name (an id not on the roster is shown as itself). */
function nameOf(view: EventView): (id: string) => string {
  const names = new Map(view.roster.map((p) => [p.id, p.name]));
  return (id) => names.get(id) ?? id;
}

/** Standings without a draw: by matches won, then fewer lost; no places (nothing decides the event). */
function tally(rows: readonly ResultRow[]): ResultStanding[] {
  const t = new Map<string, ResultStanding>();
  const line = (player: string) => t.get(player) ?? t.set(player, { place: null, player, wins: 0, losses: 0, out: false }).get(player)!;
  for (const r of rows) {
    const [a, b] = r.players;
    line(a);
    line(b);
    if (r.winner === null) continue;
    line(r.winner).wins++;
    line(r.winner === a ? b : a).losses++;
  }
  return [...t.values()].sort((x, y) => y.wins - x.wins || x.losses - y.losses || x.player.localeCompare(y.player));
}

/** The best figure over the rows that have one (the first match wins a tie); `whole` for counts (a high run of 0 is none). */
function best(rows: readonly ResultRow[], of: (r: ResultRow) => Pair<number> | null, whole: boolean): ResultBest | null {
  let top: ResultBest | null = null;
  for (const r of rows) {
    const v = of(r);
    if (!v || r.matchId === null) continue;
    for (const k of [0, 1] as const) {
      if (whole && v[k] <= 0) continue;
      if (!whole && (r.innings?.[k] ?? 0) === 0) continue;
      if (!top || v[k] > top.value) top = { player: r.players[k], value: v[k], matchId: r.matchId };
    }
  }
  return top;
}
