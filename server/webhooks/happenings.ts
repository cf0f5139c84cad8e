/**
 * What an event's webhooks hear, turned into deliveries (server/webhooks/service.ts `emit`):
 * - `match.started`: a match became a table's current match (EventService's `matchStarted` push);
 * - `match.finished`: a recorded step won a match of the event (a reaction to the step, after its ack), or the
 *   organiser recorded or corrected a draw match's result (`corrected`; the draw's result, as results.json has it);
 * - `draw.changed`: the draw changed (its delta, as the draw page gets it);
 * - `event.finished`: the draw has its champion (once per champion; a correction that changes the champion sends it again).
 * Every handler returns at once or runs off the record path, and never throws.
 */
import type { Logger } from 'pino';
import type { DrawMatchView } from '../../shared/draw/state';
import type { StatePush } from '../../shared/protocol/wire';
import type { DrawPush } from '../draws/service';
import type { EventService, MatchStarted } from '../events/service';
import type { WebhookService } from './service';

export class WebhookHappenings {
  /** The champion last announced per event (this instance). */
  private readonly champions = new Map<string, string>();

  constructor(
    private readonly hooks: Pick<WebhookService, 'emit'>,
    private readonly events: Pick<EventService, 'eventsOfMatch' | 'view'>,
    private readonly log: Logger,
  ) {}

  /** A match started on a table. */
  matchStarted(s: MatchStarted): void {
    this.hooks.emit(s.eventId, 'match.started', { matchId: s.matchId, table: s.table, tableName: s.tableName, players: s.players });
  }

  /** A step was recorded (a reaction after its ack): a won match is announced to each event it is on. */
  async onMatchStep(push: StatePush): Promise<void> {
    const st = push.state;
    if (st.winner === null) return;
    try {
      for (const eventId of await this.events.eventsOfMatch(push.matchId)) {
        const view = await this.events.view(eventId);
        const m = view?.matches.find((x) => x.id === push.matchId);
        if (!view || !m) continue;
        this.hooks.emit(eventId, 'match.finished', {
          matchId: push.matchId,
          table: m.table,
          players: st.names,
          winner: st.names[st.winner === 'A' ? 0 : 1],
          score: st.score,
          innings: st.innings,
          highRun: st.highRun,
          version: push.version,
        });
      }
    } catch (err) {
      this.log.warn({ matchId: push.matchId, err: (err as Error).message }, 'webhooks: a won match was not announced');
    }
  }

  /**
   * The organiser recorded (or corrected) the result of draw match `match`: `match.finished` with the draw's result
   * (the one results.json and results.csv show), so a correction reaches the hooks too.
   */
  matchDecided(d: { eventId: string; match: DrawMatchView; corrected: boolean }): void {
    const { eventId, match: m, corrected } = d;
    const r = m.result;
    if (!r) return;
    void this.events.view(eventId).then(
      (view) => {
        const name = (id: string | null) => (id === null ? null : (view?.roster.find((p) => p.id === id)?.name ?? id));
        this.hooks.emit(eventId, 'match.finished', {
          matchId: m.matchId ?? null,
          drawMatch: m.id,
          table: m.table ?? null,
          players: [name(m.players[0]), name(m.players[1])],
          winner: name(r.winner),
          kind: r.kind,
          score: r.score ?? null,
          // A pair, A first, as a won step's: the draw keeps one total only, so none here.
          innings: null,
          highRun: r.highRun ?? null,
          corrected,
        });
      },
      (err: Error) => this.log.warn({ eventId, match: m.id, err: err.message }, 'webhooks: a decided match was not announced'),
    );
  }

  /** The draw changed: its delta; with a new champion, `event.finished` too. */
  drawChanged(push: DrawPush): void {
    this.hooks.emit(push.eventId, 'draw.changed', { version: push.version, delta: push.delta });
    const champ = push.delta.champion;
    if (champ === null || this.champions.get(push.eventId) === champ) return;
    this.champions.set(push.eventId, champ);
    void this.events.view(push.eventId).then(
      (view) => {
        const name = (id: string) => view?.roster.find((p) => p.id === id)?.name ?? id;
        this.hooks.emit(push.eventId, 'event.finished', {
          champion: { id: champ, name: name(champ) },
          eventName: view?.name ?? null,
          results: `/api/events/${push.eventId}/results.json`,
        });
      },
      (err: Error) => this.log.warn({ eventId: push.eventId, err: err.message }, 'webhooks: the end of the event was not announced'),
    );
  }
}
