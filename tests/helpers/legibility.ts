/**
 * Legibility of the OBS overlays' graphics, measured in the page (tests/pages/overlay-look.test.ts for the
 * scorebug and moments, table-overlay.test.ts for the table overlay's cards): every visible text with its role,
 * font size at the 1920×1080 design size and WCAG contrast against what is painted behind it.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export interface TextCheck {
  text: string;
  role: 'score' | 'name' | 'value' | 'label';
  size: number;
  contrast: number;
}

/**
 * Every visible text in the graphics with its role (by class), font size and WCAG contrast against the
 * nearest opaque background behind it, with each ancestor's `::before` fill (the shooter's tint) blended in.
 */
export function texts(page: Page, root = '.gfx'): Promise<TextCheck[]> {
  return page.evaluate((root) => {
    const parse = (c: string): [number, number, number, number] => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (m) {
        const p = m[1]!
          .split(/[ ,/]+/)
          .filter(Boolean)
          .map(Number);
        return [p[0]!, p[1]!, p[2]!, p[3] ?? 1];
      }
      const s = /color\(srgb ([^)]+)\)/.exec(c);
      if (s) {
        const p = s[1]!.split(/[ /]+/).filter(Boolean).map(Number);
        return [p[0]! * 255, p[1]! * 255, p[2]! * 255, p[3] ?? 1];
      }
      throw new Error(`colour ${c}`);
    };
    const over = (top: number[], alpha: number, under: number[]) => under.map((u, i) => top[i]! * alpha + u * (1 - alpha));
    const lum = (c: number[]) => {
      const l = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * l[0]! + 0.7152 * l[1]! + 0.0722 * l[2]!;
    };
    /** The colour behind `el`: the first opaque background up the tree, with translucent layers and ::before fills on top. */
    const behind = (el: Element): number[] => {
      const layers: [number[], number][] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const before = getComputedStyle(e, '::before');
        if (before.content !== 'none' && before.position === 'absolute') {
          const [r, g, b, a] = parse(before.backgroundColor);
          const o = Number(before.opacity) * a;
          if (o > 0) layers.push([[r, g, b], o]);
        }
        const [r, g, b, a] = parse(getComputedStyle(e).backgroundColor);
        if (a >= 1) {
          let c = [r, g, b];
          for (const [top, alpha] of layers.reverse()) c = over(top, alpha, c);
          return c;
        }
        if (a > 0) layers.push([[r, g, b], a]);
      }
      throw new Error('no opaque background behind a text');
    };
    const out: TextCheck[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(`${root} *`)) {
      const own = [...el.childNodes]
        .filter((n) => n.nodeType === 3 && n.textContent!.trim())
        .map((n) => n.textContent!.trim())
        .join(' ');
      if (!own || el.closest('[hidden]') || el.getClientRects().length === 0) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden') continue; // not painted (the scorebug's name probe)
      const fg = parse(cs.color);
      const bg = behind(el);
      const [l1, l2] = [lum(fg), lum(bg)].sort((a, b) => b - a);
      const role = el.matches('.score, .m-val') ? 'score' : el.matches('.name, .m-text') ? 'name' : el.matches('.v, .target') ? 'value' : 'label';
      out.push({ text: own, role, size: parseFloat(cs.fontSize), contrast: (l1! + 0.05) / (l2! + 0.05) });
    }
    return out;
  }, root);
}

/** Smallest size of each role at 1080p and `size=m` (issue 17): scores 40 px, names 28, values 22, labels 16. */
export const MIN: Record<TextCheck['role'], number> = { score: 40, name: 28, value: 22, label: 16 };

/**
 * At least `atLeast` texts, some of each of `roles` (default: every role), each at least its role's size (MIN)
 * and at 4.5:1 contrast.
 */
export function expectLegible(all: TextCheck[], ctx: string, atLeast = 9, roles: readonly TextCheck['role'][] = ['score', 'name', 'value', 'label']): void {
  expect(all.length, ctx).toBeGreaterThanOrEqual(atLeast);
  for (const role of roles)
    expect(
      all.some((t) => t.role === role),
      `${ctx}: some ${role}`,
    ).toBe(true);
  for (const t of all) {
    expect(t.size, `${ctx}: ${t.role} "${t.text}" size`).toBeGreaterThanOrEqual(MIN[t.role]);
    expect(t.contrast, `${ctx}: "${t.text}" contrast`).toBeGreaterThanOrEqual(4.5);
  }
}
