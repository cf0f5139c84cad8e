/**
 * `/dashboard/<matchId>` — the commentator dashboard (browser or OBS dock); `/dashboard/table/<eventId>/<table>`
 * follows a table of an event (its current match, switching by itself). `?lang=en|ja|zh-TW`.
 */
import { mount } from 'svelte';
import '../styles/page.css';
import Dashboard from '../dashboard/Dashboard.svelte';
import DashboardTable from '../dashboard/DashboardTable.svelte';
import { createClient } from '../lib/client';
import { pickLang } from '../lib/i18n';
import { matchIdFromLocation, tableFromLocation } from '../lib/live-route';

const lang = pickLang(new URLSearchParams(location.search).get('lang') ?? navigator.language);
document.documentElement.lang = lang;
const target = document.getElementById('app')!;
const table = tableFromLocation();
if (table) mount(DashboardTable, { target, props: { client: createClient(), table, lang } });
else mount(Dashboard, { target, props: { client: createClient(), matchId: matchIdFromLocation(), lang } });
