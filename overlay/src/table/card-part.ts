/**
 * The table overlay's cards part, a chunk of its own (../parts.ts `cardPart`), fetched when a card first goes up
 * (never with `cards=0`): the intro and summary cards (Card.svelte) and what they print (cards-view.ts over
 * shared/cards.ts, with the draw's round labels, shared/draw/labels.ts).
 */
import { type CardContext, introCard, summaryCard } from '../../../shared/cards';
import type { MatchFeed } from '../../../web/src/lib/client';
import type { OverlayParams } from '../params';
import { type CardView, introView, summaryView } from './cards-view';

export { default as Card } from './Card.svelte';

/**
 * The `show` card (`intro` or `summary`) of the match of `feed` at `ctx`, in `p`'s order and language; `clean`
 * makes names drawable, `names`: the forms the scorebug chose (A first), or null.
 */
export function cardView(
  show: 'intro' | 'summary',
  feed: MatchFeed,
  ctx: CardContext,
  p: OverlayParams,
  clean: (s: string) => string,
  names: readonly [string, string] | null,
): CardView {
  return show === 'intro'
    ? introView(introCard(feed.setup, ctx, feed.state), p, clean, names)
    : summaryView(summaryCard(feed.setup, feed.state, feed.stats, ctx), p, clean, names);
}
