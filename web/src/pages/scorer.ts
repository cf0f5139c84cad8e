/**
 * `/scorer/<matchId>`: the touch-first scorer console. `/scorer/table/<eventId>/<table>`: the tablet at a table
 * (issue 27 §4), the console following the table's current match with the table's scorer token (from the QR
 * code's fragment, kept in this browser per table; see scorer/TableScorer.svelte). Reads the match id from the path, the scorer token
 * from the link's fragment (stripped from the address bar) or from this browser's storage, and mounts the
 * console on the shared live client with the browser's network signals (online / offline / visible). The
 * console checks the token with the server as it opens; a wrong one is forgotten (see scorer/token-gate).
 * Registers the service worker that lets the console reload with no network (scorer/offline-worker).
 */
import { mount } from 'svelte';
import { createClient } from '../lib/client';
import { pageLang, t } from '../lib/i18n-pages';
import Scorer from '../scorer/Scorer.svelte';
import TableScorer from '../scorer/TableScorer.svelte';
import { browserNetwork } from '../scorer/network';
import { registerScorerWorker } from '../scorer/offline-worker';
import { ScorerSession } from '../scorer/session';
import type { TokenAccess } from '../scorer/token-gate';
import { checkScorerToken, checkTableToken, forgetToken, loadToken, matchIdFromLocation, saveToken, tokenFromUrl } from '../scorer/tokens';
import '../scorer/scorer.css';
import { localStore } from '../lib/storage';

const storage = localStore();

if (document.readyState === 'complete') void registerScorerWorker();
else addEventListener('load', () => void registerScorerWorker(), { once: true });

const target = document.getElementById('app')!;
const tableAt = /^\/scorer\/table(?:\/([^/?#]*))?(?:\/([^/?#]*))?/.exec(location.pathname);
const matchId = tableAt ? null : matchIdFromLocation(location.pathname, location.search);
const lang = pageLang(location.search, navigator.language);
document.documentElement.lang = lang;

/** The token a link carried (`#token=…`), stripped from the address bar. */
function takeUrlToken(): string | null {
  const fromUrl = tokenFromUrl(location.hash, location.search);
  if (fromUrl) {
    const u = new URL(location.href);
    u.hash = '';
    u.searchParams.delete('token');
    history.replaceState(null, '', u);
  }
  return fromUrl;
}

if (tableAt) {
  const eventId = decodeURIComponent(tableAt[1] ?? '');
  const table = decodeURIComponent(tableAt[2] ?? '');
  if (!eventId || !table) {
    const p = document.createElement('p');
    p.className = 'card';
    p.setAttribute('role', 'alert');
    p.textContent = t(lang, 'ts.missing');
    const main = document.createElement('main');
    main.append(p);
    target.replaceChildren(main);
  } else {
    // The table's token is kept under the table (not a match): it scores every match the table gets.
    const key = `table.${eventId}.${table}`;
    const fromUrl = takeUrlToken();
    const stored = loadToken(storage, key);
    if (fromUrl && !stored) saveToken(storage, key, fromUrl);
    const token = fromUrl ?? stored;
    const client = createClient(token ? { token } : {});
    const access = (id: string): TokenAccess => ({
      token,
      check: (tk) => checkTableToken(eventId, table, id, tk),
      keep: (tk) => saveToken(storage, key, tk),
      forget: (tk) => forgetToken(storage, key, tk),
      reopen: () => location.reload(),
    });
    document.title = `cuecast · table scorer · ${table}`;
    mount(TableScorer, { target, props: { client, eventId, table, lang, storage, network: browserNetwork(), access } });
  }
} else if (!matchId) {
  // `/scorer` without an id: say so, with the way to the launcher (where every match's scorer link is).
  const p = document.createElement('p');
  p.className = 'card';
  p.setAttribute('role', 'alert');
  p.textContent = t(lang, 'noMatchId');
  const a = document.createElement('a');
  a.href = '/';
  a.textContent = t(lang, 'openLauncher');
  const main = document.createElement('main');
  main.append(p, a);
  target.replaceChildren(main);
} else {
  const fromUrl = takeUrlToken();
  const stored = loadToken(storage, matchId);
  // A link's token is kept at once only where none is stored; it replaces a stored one once the server
  // confirms it (or cannot be asked), so a wrong link does not wipe this browser's valid token.
  if (fromUrl && !stored) saveToken(storage, matchId, fromUrl);
  const token = fromUrl ?? stored;
  const client = createClient(token ? { token } : {});
  const access: TokenAccess = {
    token,
    check: (t) => checkScorerToken(matchId, t),
    keep: (t) => saveToken(storage, matchId, t),
    forget: (t) => forgetToken(storage, matchId, t),
    reopen: () => location.reload(),
  };
  const session = new ScorerSession(client, matchId, storage, access, browserNetwork());
  session.start();
  document.title = `cuecast · scorer · ${matchId}`;
  mount(Scorer, { target, props: { session, lang, clockClient: client, storage } });
}
