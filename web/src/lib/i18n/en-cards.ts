/**
 * The table overlay's on-air strings in English (`/overlay/table/<eventId>/<table>`): the intro and summary
 * cards and the not-found card of a table. A third part of the one table, beside the scorebug's (./en-air.ts)
 * and the pages' (./en-pages.ts): every page has it (../i18n-air.ts adds it), while the OBS overlay of one
 * match (`/overlay/<id>`) never loads it and the table overlay loads only its own language's.
 */
export const enCards = {
  // the summary card's rows (the scorer's score line says 'Fouls' too)
  fouls: 'Fouls',
  single61: 'Single rack, 61 wins',
  'ev.eventNotFound': 'Event not found: {id}',
  'ev.tableNotFound': 'Table not found: {table}',
  'ev.noTableInUrl': 'No table in this address',
  final: 'Final',
};

/** A key of the cards' strings. */
export type CardKey = keyof typeof enCards;
/** One language's cards table: every key of the English one. */
export type CardDict = Record<CardKey, string>;
