/**
 * The shot clock pages, a monitor at the table: `/clock/<matchId>` (one match) and `/clock/table/<eventId>/<table>`
 * (whatever match is on that table, switching by itself). `?lang=en|ja|zh-TW` (else the last choice, else the
 * browser language).
 */
import { mount } from 'svelte';
import '../styles/page.css';
import ClockApp from '../clock/ClockApp.svelte';
import { createClient } from '../lib/client';
import { pageLang } from '../lib/i18n-pages';
import { matchIdFromLocation, tableFromLocation } from '../lib/live-route';

const lang = pageLang(location.search, navigator.language);
document.documentElement.lang = lang;
mount(ClockApp, {
  target: document.getElementById('app')!,
  props: { client: createClient(), matchId: matchIdFromLocation(), table: tableFromLocation(), lang },
});
