/**
 * `/event` (create an event) and `/event/<eventId>` (the organiser's page: every table live, next matches,
 * links and QR codes, on-air cards, finished matches, the roster). The organiser token comes from the link's
 * fragment (`#token=…`, saved per event, then stripped from the address) or this browser's storage.
 */
import { mount } from 'svelte';
import '../styles/page.css';
import '../styles/event.css';
import EventApp from '../event/EventApp.svelte';
import { loadOrganiserToken, saveOrganiserToken } from '../event/token';
import { createClient } from '../lib/client';
import { pageLang } from '../lib/i18n-pages';
import { tokenFromUrl } from '../scorer/tokens';
import { localStore } from '../lib/storage';

const storage = localStore();
const lang = pageLang(location.search, navigator.language);
document.documentElement.lang = lang;
const parts = location.pathname.split('/').filter(Boolean);
const eventId =
  new URLSearchParams(location.search).get('event') ?? (parts[0] === 'event' && parts[1] && !parts[1].endsWith('.html') ? decodeURIComponent(parts[1]) : null);
let token: string | null = null;
if (eventId) {
  const fromUrl = tokenFromUrl(location.hash, '');
  if (fromUrl) {
    saveOrganiserToken(storage, eventId, fromUrl);
    const u = new URL(location.href);
    u.hash = '';
    history.replaceState(null, '', u);
  }
  token = fromUrl ?? loadOrganiserToken(storage, eventId);
}
mount(EventApp, { target: document.getElementById('app')!, props: { eventId, lang, storage, token, client: () => createClient() } });
