/**
 * `/scorer/<matchId>`: the touch-first scorer console. Reads the match id from the path, the scorer token
 * from the link's fragment (saved per match, then stripped) or from this browser's storage, and mounts the
 * console on the shared live client with the browser's network signals (online / offline / visible).
 */
import { mount } from 'svelte';
import { createClient } from '../lib/client';
import { pageLang } from '../lib/i18n-pages';
import Scorer from '../scorer/Scorer.svelte';
import { browserNetwork } from '../scorer/network';
import { ScorerSession } from '../scorer/session';
import { loadToken, matchIdFromLocation, saveToken, tokenFromUrl } from '../scorer/tokens';
import '../scorer/scorer.css';

const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
})();

const target = document.getElementById('app')!;
const matchId = matchIdFromLocation(location.pathname, location.search);
const lang = pageLang(location.search, navigator.language);
document.documentElement.lang = lang;

if (!matchId) {
  target.textContent = 'No match id: open /scorer/<matchId> from the launcher.';
} else {
  const fromUrl = tokenFromUrl(location.hash, location.search);
  if (fromUrl) {
    saveToken(storage, matchId, fromUrl);
    const u = new URL(location.href);
    u.hash = '';
    u.searchParams.delete('token');
    history.replaceState(null, '', u);
  }
  const token = fromUrl ?? loadToken(storage, matchId);
  const client = createClient(token ? { token } : {});
  const session = new ScorerSession(client, matchId, storage, !!token, browserNetwork());
  session.start();
  document.title = `cuecast · scorer · ${matchId}`;
  mount(Scorer, {
    target,
    props: {
      session,
      lang,
      onToken: (t: string) => {
        saveToken(storage, matchId, t);
        location.reload();
      },
    },
  });
}
