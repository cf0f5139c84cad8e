/** `/dashboard/<matchId>` — the commentator dashboard (browser or OBS dock). `?lang=en|ja|zh-TW` (else the last choice, else the browser). */
import { mount } from 'svelte';
import '../styles/page.css';
import Dashboard from '../dashboard/Dashboard.svelte';
import { createClient } from '../lib/client';
import { pageLang } from '../lib/i18n-pages';
import { matchIdFromLocation } from '../lib/live-route';

const lang = pageLang(location.search, navigator.language);
document.documentElement.lang = lang;
mount(Dashboard, {
  target: document.getElementById('app')!,
  props: { client: createClient(), matchId: matchIdFromLocation(), lang },
});
