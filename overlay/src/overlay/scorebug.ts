/**
 * The scorebug DOM, built once and patched in place: only text nodes, classes and `hidden` flags change.
 * Plain DOM instead of Svelte because the overlay's whole JavaScript budget is 25 KB gzip and the
 * Socket.IO client alone takes half of it. Every player-supplied string goes through `textContent`
 * (never HTML), so a name like `<img src=x onerror=…>` shows as text.
 *
 * One structure serves both layouts; CSS (styles/overlay.css) arranges it as a bottom bar or a corner bug.
 * Test hooks: `data-f="<field>"` on every value (`name-A`, `score-B`, `run`, `caption`, …).
 */
import { t } from '../lib/i18n';
import type { InfoItem, OverlayView, PlayerView } from './model';
import { enter, pop } from './motion';
import type { OverlayParams } from './params';

/** Create an element with a class and optional `data-f` hook. */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, f?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (f) e.dataset.f = f;
  return e;
}

/** Set text if it changed; returns whether it did. */
function text(e: HTMLElement, v: string): boolean {
  if (e.textContent === v) return false;
  e.textContent = v;
  return true;
}

function show(e: HTMLElement, on: boolean): void {
  if (e.hidden === on) e.hidden = !on;
}

interface PanelRefs {
  root: HTMLElement;
  strip: HTMLElement;
  name: HTMLElement;
  warn: HTMLElement;
  pips: HTMLElement;
  pip1: HTMLElement;
  pip2: HTMLElement;
  hr: HTMLElement;
  hrValue: HTMLElement;
  score: HTMLElement;
  target: HTMLElement;
  key: string;
}

function panel(params: OverlayParams, mirror: boolean): PanelRefs {
  const root = el('div', mirror ? 'panel mirror' : 'panel');
  const strip = el('span', 'strip');
  const who = el('div', 'who');
  const name = el('span', 'name');
  const sub = el('span', 'sub');
  const warn = el('span', 'warn');
  warn.textContent = t(params.lang, 'onTwoFouls');
  const pips = el('span', 'pips');
  const pip1 = el('i', '');
  const pip2 = el('i', '');
  pips.append(pip1, pip2);
  const hr = el('span', 'hr');
  const hrLabel = el('b', '');
  hrLabel.textContent = t(params.lang, 'highRun');
  const hrValue = el('span', '');
  hr.append(hrLabel, ' ', hrValue);
  sub.append(warn, pips, hr);
  who.append(name, sub);
  const pts = el('div', 'pts');
  const score = el('span', 'score');
  const target = el('span', 'target');
  pts.append(score, target);
  root.append(strip, who, pts);
  show(strip, !params.hide.has('turn'));
  show(hr, !params.hide.has('highrun'));
  return { root, strip, name, warn, pips, pip1, pip2, hr, hrValue, score, target, key: '' };
}

function patchPanel(r: PanelRefs, p: PlayerView, params: OverlayParams, showTarget: boolean, animate: boolean): void {
  if (r.key !== p.key) {
    r.key = p.key;
    r.root.classList.toggle('pl-A', p.key === 'A');
    r.root.classList.toggle('pl-B', p.key === 'B');
    r.root.dataset.player = p.key;
    r.strip.dataset.f = `turn-${p.key}`;
    r.name.dataset.f = `name-${p.key}`;
    r.warn.dataset.f = `two-fouls-${p.key}`;
    r.pips.dataset.f = `fouls-${p.key}`;
    r.hrValue.dataset.f = `highrun-${p.key}`;
    r.score.dataset.f = `score-${p.key}`;
    r.target.dataset.f = `target-${p.key}`;
  }
  r.root.classList.toggle('at', p.atTable);
  r.root.classList.toggle('won', p.winner);
  r.strip.dataset.on = p.atTable ? '1' : '0';
  text(r.name, p.name);
  const fouls = !params.hide.has('fouls');
  if (animate && fouls && p.onTwoFouls && r.warn.hidden) pop(r.warn);
  show(r.warn, fouls && p.onTwoFouls);
  show(r.pips, fouls && !p.onTwoFouls);
  r.pips.dataset.n = String(p.fouls);
  r.pip1.classList.toggle('on', p.fouls >= 1);
  r.pip2.classList.toggle('on', p.fouls >= 2);
  text(r.hrValue, String(p.highRun));
  if (text(r.score, p.score) && animate) pop(r.score);
  show(r.target, showTarget && !params.hide.has('target'));
  text(r.target, `/${p.target}`);
}

/** A mounted scorebug: `update` patches it to a new view; the first update never animates. */
export interface Scorebug {
  update(view: OverlayView, version: number): void;
}

/** Build the scorebug for `params` inside `stage`. */
export function mountScorebug(stage: HTMLElement, params: OverlayParams): Scorebug {
  const corner = params.layout === 'corner';
  const gfx = el('div', corner ? `gfx bug corner-${params.corner}` : 'gfx bar');
  gfx.style.transform = `scale(${params.scale})`;
  const lines = el('div', 'lines');
  const situation = el('div', 'situation', 'situation');
  const caption = el('div', 'caption', 'caption');
  lines.append(situation, caption);
  const main = el('div', 'main');
  const p0 = panel(params, false);
  const p1 = panel(params, !corner);
  const centre = el('div', 'centre', 'centre');
  main.append(p0.root, centre, p1.root);
  const info = el('div', 'info');
  gfx.append(lines, main, info);
  gfx.hidden = true;
  stage.append(gfx);

  let infoIds = '';
  let infoValues: HTMLElement[] = [];
  let booted = false;

  const patchInfo = (items: InfoItem[]) => {
    const ids = items.map((i) => i.id).join();
    if (ids !== infoIds) {
      infoIds = ids;
      info.replaceChildren();
      infoValues = items.map((item) => {
        const wrap = el('span', 'item');
        const b = el('b', '');
        b.textContent = item.label;
        const v = el('span', 'v', item.id);
        wrap.append(b, ' ', v);
        info.append(wrap);
        return v;
      });
    }
    items.forEach((item, i) => {
      if (text(infoValues[i]!, item.value) && booted) pop(infoValues[i]!);
    });
    show(info, !params.hide.has('info') && items.length > 0);
  };

  return {
    update(view, version) {
      const animate = booted;
      patchPanel(p0, view.players[0], params, corner || view.handicap, animate);
      patchPanel(p1, view.players[1], params, corner || view.handicap, animate);
      text(centre, view.centre);
      patchInfo(view.info);
      if (text(situation, view.situation) && animate && view.situation) enter(situation);
      show(situation, view.situation !== '');
      const capKey = String(version);
      if (caption.dataset.v !== capKey) {
        caption.dataset.v = capKey;
        text(caption, view.caption);
        if (animate && view.caption) enter(caption);
      }
      show(caption, view.caption !== '');
      gfx.hidden = false;
      booted = true;
    },
  };
}
