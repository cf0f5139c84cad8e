/**
 * `/dashboard/<matchId>` — the commentator dashboard (browser or OBS dock); `/dashboard/table/<eventId>/<table>`
 * follows a table of an event (its current match, switching by itself). `?lang=en|ja|zh-TW` (else the last
 * choice, else the browser).
 */
import { mount } from 'svelte';
import '../styles/page.css';
import Dashboard from '../dashboard/Dashboard.svelte';
import DashboardTable from '../dashboard/DashboardTable.svelte';
import { createClient } from '../lib/client';
import { pageLang } from '../lib/i18n-pages';
import { matchIdFromLocation, tableFromLocation } from '../lib/live-route';

const lang = pageLang(location.search, navigator.language);
document.documentElement.lang = lang;
const target = document.getElementById('app')!;
const table = tableFromLocation();
if (table) mount(DashboardTable, { target, props: { client: createClient(), table, lang } });
else mount(Dashboard, { target, props: { client: createClient(), matchId: matchIdFromLocation(), lang } });
