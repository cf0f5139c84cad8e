/** `/dashboard/<matchId>` — the commentator dashboard (browser or OBS dock). `?lang=en|ja|zh-TW`. */
import { mount } from 'svelte';
import '../styles/page.css';
import Dashboard from '../dashboard/Dashboard.svelte';
import { createClient } from '../lib/client';
import { pickLang } from '../lib/i18n';
import { matchIdFromLocation } from '../lib/live-route';

const lang = pickLang(new URLSearchParams(location.search).get('lang') ?? navigator.language);
document.documentElement.lang = lang;
mount(Dashboard, {
  target: document.getElementById('app')!,
  props: { client: createClient(), matchId: matchIdFromLocation(), lang },
});
