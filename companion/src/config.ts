/**
 * The module's connection settings: the cuecast server, the event, the table to follow and the event's organiser
 * token. `parseConfig` checks what Companion's settings form holds and names the field of the first problem, so the
 * connection shows "table: …" instead of failing somewhere later. Plain data: no Companion types here (the adapter,
 * main.ts, turns `CONFIG_FIELDS` into Companion's config fields).
 */
import { SAFE_ID, TABLE_ID } from '../../shared/protocol/limits';

/** What the connection needs, checked. */
export interface CuecastConfig {
  /** Server origin, `http(s)://host[:port]`, without a trailing slash. */
  url: string;
  /** Event id (the organiser's page URL `/event/<id>`). */
  eventId: string;
  /** Table id (`table-1`, `tv-table`: the table overlay URL's last part). */
  table: string;
  /** The event's organiser token (`POST /api/events` returned it; the organiser link's `#token=…`). */
  token: string;
}

/** A settings field as the form shows it. */
export interface ConfigField {
  id: keyof CuecastConfig;
  label: string;
  /** One line under the field. */
  tooltip: string;
  default: string;
  /** Form width, of 12. */
  width: number;
  /** Kept among Companion's secrets (not shown again, not in exported configs). */
  secret: boolean;
}

/** The settings form, in order. */
export const CONFIG_FIELDS: readonly ConfigField[] = [
  { id: 'url', label: 'cuecast server URL', tooltip: 'e.g. http://192.168.1.20:3000', default: 'http://127.0.0.1:3000', width: 8, secret: false },
  { id: 'eventId', label: 'Event id', tooltip: 'the id in the organiser page URL: /event/<id>', default: '', width: 4, secret: false },
  { id: 'table', label: 'Table id', tooltip: 'e.g. table-1 or tv-table (the table overlay URL ends with it)', default: 'table-1', width: 4, secret: false },
  { id: 'token', label: 'Organiser token', tooltip: 'the #token=… part of the organiser link', default: '', width: 8, secret: true },
];

/** A settings problem: the field and why. */
export class ConfigError extends Error {
  constructor(
    readonly field: keyof CuecastConfig,
    why: string,
  ) {
    super(`${field}: ${why}`);
    this.name = 'ConfigError';
  }
}

const text = (raw: Record<string, unknown>, k: keyof CuecastConfig): string => {
  const v = raw[k];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new ConfigError(k, `must be text, not ${typeof v}`);
  return v.trim();
};

/**
 * Check Companion's saved settings `raw` (any object; missing fields read as empty). Throws `ConfigError` naming the
 * first field that is missing or malformed: `url` (http or https, no path, query or fragment), `eventId` (1–64 of
 * A–Z a–z 0–9 _ -), `table` (1–32 lower-case letters, digits, hyphens), `token` (needed for every action).
 */
export function parseConfig(raw: unknown): CuecastConfig {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const urlText = text(o, 'url');
  if (!urlText) throw new ConfigError('url', 'is empty: give the cuecast server, e.g. http://192.168.1.20:3000');
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    throw new ConfigError('url', `"${urlText}" is not a URL (e.g. http://192.168.1.20:3000)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('url', `must start with http:// or https://, not ${url.protocol}//`);
  if (url.pathname !== '/' || url.search || url.hash)
    throw new ConfigError('url', `must be the server alone (${url.origin}), without a path, query or fragment`);
  const eventId = text(o, 'eventId');
  if (!SAFE_ID.test(eventId))
    throw new ConfigError(
      'eventId',
      eventId ? `"${eventId}" is not an event id (1–64 letters, digits, _ or -)` : 'is empty: give the event id from the organiser page URL (/event/<id>)',
    );
  const table = text(o, 'table');
  if (!TABLE_ID.test(table))
    throw new ConfigError(
      'table',
      table ? `"${table}" is not a table id (1–32 lower-case letters, digits or hyphens, e.g. table-1)` : 'is empty: give the table id, e.g. table-1',
    );
  const token = text(o, 'token');
  if (!token) throw new ConfigError('token', "is empty: give the event's organiser token (the #token=… part of the organiser link)");
  return { url: url.origin, eventId, table, token };
}
