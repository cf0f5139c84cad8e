/**
 * `/watch` (live matches), `/watch/<matchId>` (one match) and `/watch/table/<eventId>/<table>` (whatever
 * match is on that table, switching by itself) for spectators' phones.
 * `?lang=en|ja|zh-TW` (else the last choice, else the browser language), `?delay=<seconds>` (0–600).
 */
import { mount } from 'svelte';
import '../styles/page.css';
import { createClient } from '../lib/client';
import { pageLang } from '../lib/i18n-pages';
import { matchIdFromLocation, numberParam, tableFromLocation } from '../lib/live-route';
import Watch from '../watch/Watch.svelte';

const q = new URLSearchParams(location.search);
const lang = pageLang(location.search, navigator.language);
document.documentElement.lang = lang;
mount(Watch, {
  target: document.getElementById('app')!,
  props: {
    client: createClient(),
    matchId: matchIdFromLocation(),
    table: tableFromLocation(),
    initialLang: lang,
    delay: numberParam(q.get('delay'), 0, 0, 600),
  },
});
