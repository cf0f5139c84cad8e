/**
 * The data feed of a table for vMix, Singular and other title tools (added to the `/api` router; public, like
 * every read): `GET /api/events/:id/tables/:table/feed.json` (one flat object, server/events/table-feed.ts) and
 * `…/feed.xml` (the same as vMix's XML data source reads it), the shot clock's seconds taken at the request. Never cached (`Cache-Control: no-store`): a title
 * tool polls it. An unknown event or table is 404 `not-found` naming `eventId` or `table` (as JSON, also for
 * `.xml`).
 */
import type { Response, Router } from 'express';
import { feedXml, tableFeed, type TableFeed } from '../../events/table-feed';
import type { EventService } from '../../events/service';
import type { MatchService } from '../../matches/service';
import type { ShotClockService } from '../../shot-clock/service';
import { sendError } from './errors';

export interface FeedRoutesOptions {
  events: EventService;
  matches: MatchService;
  /** The current match's shot clock (the feed's `clock…` and `extensions…` fields). */
  shotClocks: Pick<ShotClockService, 'view'>;
}

/** Add the feed routes to the `/api` router `r`. */
export function feedRoutes(r: Router, opts: FeedRoutesOptions): void {
  const feedOf = async (res: Response, eventId: string, tableId: string): Promise<TableFeed | null> => {
    res.setHeader('Cache-Control', 'no-store');
    const table = await opts.events.table(eventId, tableId);
    if ('ok' in table) {
      sendError(res, table.error);
      return null;
    }
    const match = table.current ? await opts.matches.currentState(table.current) : null;
    const clock = match && table.current ? await opts.shotClocks.view(table.current) : null;
    return tableFeed(table, match, clock?.ok && clock.clock ? { view: clock.clock, now: clock.now } : null);
  };

  r.get('/events/:id/tables/:table/feed.json', async (req, res) => {
    const feed = await feedOf(res, req.params.id, req.params.table);
    if (feed) res.json(feed);
  });

  r.get('/events/:id/tables/:table/feed.xml', async (req, res) => {
    const feed = await feedOf(res, req.params.id, req.params.table);
    if (feed) res.type('application/xml').send(feedXml(feed));
  });
}
