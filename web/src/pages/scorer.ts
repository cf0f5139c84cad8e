/**
 * `/scorer/<matchId>`: the touch-first scorer console. Reads the match id from the path, the scorer token
 * from the link's fragment (stripped from the address bar) or from this browser's storage, and mounts the
 * console on the shared live client with the browser's network signals (online / offline / visible). The
 * console checks the token with the server as it opens; a wrong one is forgotten (see scorer/token-gate).
 * Registers the service worker that lets the console reload with no network (scorer/offline-worker).
 */
import { mount } from 'svelte';
import { createClient } from '../lib/client';
import { pageLang, t } from '../lib/i18n-pages';
import Scorer from '../scorer/Scorer.svelte';
import { browserNetwork } from '../scorer/network';
import { registerScorerWorker } from '../scorer/offline-worker';
import { ScorerSession } from '../scorer/session';
import type { TokenAccess } from '../scorer/token-gate';
import { checkScorerToken, forgetToken, loadToken, matchIdFromLocation, saveToken, tokenFromUrl } from '../scorer/tokens';
import '../scorer/scorer.css';
import { localStore } from '../lib/storage';

const storage = localStore();

if (document.readyState === 'complete') void registerScorerWorker();
else addEventListener('load', () => void registerScorerWorker(), { once: true });

const target = document.getElementById('app')!;
const matchId = matchIdFromLocation(location.pathname, location.search);
const lang = pageLang(location.search, navigator.language);
document.documentElement.lang = lang;

if (!matchId) {
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
  const fromUrl = tokenFromUrl(location.hash, location.search);
  if (fromUrl) {
    const u = new URL(location.href);
    u.hash = '';
    u.searchParams.delete('token');
    history.replaceState(null, '', u);
  }
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
  mount(Scorer, { target, props: { session, lang } });
}
