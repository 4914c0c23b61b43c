import type { Box, Size } from "@/lib/domain/geometry";

/**
 * A tiny phone-UI drawing kit for the demo screenshots. A `Screen` stacks sections from the top
 * (status bar, header, body) and fixed bars from the bottom (tab bar, keyboard), and records the box
 * of every element a step may act on, in ORIGINAL screenshot pixels. What is recorded is exactly what
 * is drawn, so a demo step's bbox always lines up with the picture.
 */

/** The vendored demo font first (lib/demo/fonts.ts), so screenshots look the same on every machine. */
export const FONT_FAMILY = "Studio Demo Sans, Noto Sans CJK SC, Noto Sans SC, sans-serif";

export type Theme = { primary: string; onPrimary: string };

export type Layout = { size: Size; svg: string; targets: ReadonlyMap<string, Box> };

export type ListItem = {
  title: string;
  sub?: string;
  price?: string;
  meta?: string;
  badge?: string;
  button?: string;
  thumb?: string;
};

const INK = "#222222";
const GREY = "#8a8a8a";
const LINE = "#ececec";
const PAGE = "#f4f5f7";
const PRICE = "#ff4d2d";

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Approximate advance of a string in em: CJK and full-width marks are 1em, the rest about 0.56em. */
export function textEm(s: string): number {
  let w = 0;
  for (const ch of s) w += /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/.test(ch) ? 1 : 0.56;
  return w;
}

function fit(s: string, maxEm: number): string {
  if (textEm(s) <= maxEm) return s;
  let out = "";
  for (const ch of s) {
    if (textEm(out + ch) > maxEm - 1) break;
    out += ch;
  }
  return `${out}…`;
}

/** Mix a hex colour with white (t > 0) or black (t < 0). */
export function tint(hex: string, t: number): string {
  const n = parseInt(hex.slice(1), 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => Math.round(t >= 0 ? c + (255 - c) * t : c * (1 + t)));
  return `#${ch.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

type TextOpts = { size: number; fill?: string; weight?: number; anchor?: "start" | "middle" | "end" };

export class Screen {
  readonly W: number;
  readonly H: number;
  /** Pixels per dp: the layout is designed for a 360 dp wide phone. */
  readonly u: number;
  /** Next free y (px) from the top, and the top of the fixed bottom bars. */
  y = 0;
  bottom: number;
  private parts: string[] = [];
  private overlay: string[] = [];
  private readonly targets = new Map<string, Box>();

  constructor(
    size: Size,
    readonly theme: Theme,
    readonly clock: string,
    background = PAGE,
  ) {
    this.W = size.width;
    this.H = size.height;
    this.u = size.width / 360;
    this.bottom = this.H;
    this.rect(0, 0, this.W, this.H, background);
  }

  /** dp to px, whole pixels. */
  d(dp: number): number {
    return Math.round(dp * this.u);
  }

  get remaining(): number {
    return this.bottom - this.y;
  }

  // ---- primitives (px) ----
  rect(x: number, y: number, w: number, h: number, fill: string, r = 0, stroke?: string): void {
    const s = stroke ? ` stroke="${stroke}" stroke-width="${Math.max(1, this.d(1))}"` : "";
    this.parts.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}"${r ? ` rx="${r}"` : ""} fill="${fill}"${s}/>`);
  }
  circle(cx: number, cy: number, r: number, fill: string, stroke?: string): void {
    const s = stroke ? ` stroke="${stroke}" stroke-width="${Math.max(1, this.d(1.5))}"` : "";
    this.parts.push(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"${s}/>`);
  }
  path(d: string, stroke: string, width: number): void {
    this.parts.push(
      `<path d="${d}" fill="none" stroke="${stroke}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"/>`,
    );
  }
  /** Text with its baseline at y; size in px. */
  text(x: number, y: number, s: string, o: TextOpts): void {
    const attrs = [`x="${x}"`, `y="${y}"`, `font-size="${o.size}"`, `fill="${o.fill ?? INK}"`];
    if (o.weight && o.weight >= 600) attrs.push(`font-weight="bold"`);
    if (o.anchor && o.anchor !== "start") attrs.push(`text-anchor="${o.anchor}"`);
    this.parts.push(`<text ${attrs.join(" ")}>${esc(s)}</text>`);
  }
  /** Text vertically centred in a box of height h starting at top. */
  label(x: number, top: number, h: number, s: string, o: TextOpts): void {
    this.text(x, Math.round(top + h / 2 + o.size * 0.36), s, o);
  }
  target(key: string, box: Box): Box {
    this.targets.set(key, box);
    return box;
  }
  private backArrow(x: number, cy: number, color: string): void {
    const a = this.d(6);
    this.path(`M${x + a} ${cy - 2 * a}L${x} ${cy}L${x + a} ${cy + 2 * a}`, color, this.d(2));
  }
  private magnifier(cx: number, cy: number, color: string): void {
    const r = this.d(5);
    this.circle(cx - this.d(1), cy - this.d(1), r, "none", color);
    this.path(`M${cx + r - this.d(2)} ${cy + r - this.d(2)}l${this.d(4)} ${this.d(4)}`, color, this.d(1.5));
  }

  // ---- top sections ----
  statusBar(fill = "#ffffff", dark = true): void {
    const h = this.d(26);
    const ink = dark ? INK : "#ffffff";
    this.rect(0, 0, this.W, h, fill);
    this.label(this.d(16), 0, h, this.clock, { size: this.d(12), fill: ink, weight: 600 });
    const x0 = this.W - this.d(70);
    for (let i = 0; i < 4; i++) {
      const bh = this.d(3 + i * 2);
      this.rect(x0 + i * this.d(4), Math.round(h / 2 + this.d(5) - bh), this.d(3), bh, ink);
    }
    this.path(`M${x0 + this.d(22)} ${h / 2}q${this.d(6)} ${-this.d(6)} ${this.d(12)} 0`, ink, this.d(1.5));
    this.rect(this.W - this.d(36), Math.round(h / 2 - this.d(5)), this.d(20), this.d(10), "none", this.d(2), ink);
    this.rect(this.W - this.d(34), Math.round(h / 2 - this.d(3)), this.d(14), this.d(6), ink, this.d(1));
    this.y = h;
  }

  /** The app's own coloured header: name, optional search box (target "search"). */
  appHeader(title: string, searchHint?: string, right?: string): void {
    const { primary, onPrimary } = this.theme;
    const rowH = this.d(44);
    const h = rowH + (searchHint ? this.d(48) : 0);
    this.rect(0, this.y, this.W, h, primary);
    this.label(this.d(16), this.y, rowH, title, { size: this.d(20), fill: onPrimary, weight: 700 });
    if (right) {
      this.label(this.W - this.d(16), this.y, rowH, right, { size: this.d(13), fill: onPrimary, anchor: "end" });
      this.target(`header:${right}`, [
        this.W - this.d(16) - this.d(textEm(right) * 13),
        this.y + this.d(8),
        this.W - this.d(12),
        this.y + rowH - this.d(8),
      ]);
    }
    if (searchHint) {
      const top = this.y + rowH;
      const box: Box = [this.d(12), top + this.d(2), this.W - this.d(12), top + this.d(40)];
      this.rect(box[0], box[1], box[2] - box[0], box[3] - box[1], "#ffffff", this.d(19));
      this.magnifier(box[0] + this.d(18), (box[1] + box[3]) / 2, GREY);
      this.label(box[0] + this.d(32), box[1], box[3] - box[1], searchHint, { size: this.d(14), fill: GREY });
      const bw = this.d(56);
      this.rect(box[2] - bw - this.d(4), box[1] + this.d(4), bw, box[3] - box[1] - this.d(8), primary, this.d(15));
      this.label(box[2] - this.d(4) - bw / 2, box[1] + this.d(4), box[3] - box[1] - this.d(8), "搜索", {
        size: this.d(13),
        fill: onPrimary,
        anchor: "middle",
      });
      this.target("search", box);
    }
    this.y += h;
  }

  /** A white navigation bar: back arrow (target "back"), centred title, optional right action. */
  navBar(title: string, right?: string): void {
    const h = this.d(48);
    this.rect(0, this.y, this.W, h, "#ffffff");
    this.backArrow(this.d(16), this.y + h / 2, INK);
    this.target("back", [0, this.y, this.d(44), this.y + h]);
    this.label(this.W / 2, this.y, h, fit(title, 14), { size: this.d(17), weight: 700, anchor: "middle" });
    if (right) {
      this.label(this.W - this.d(16), this.y, h, right, { size: this.d(14), fill: GREY, anchor: "end" });
      this.target(`header:${right}`, [
        this.W - this.d(24) - this.d(textEm(right) * 14),
        this.y + this.d(6),
        this.W - this.d(8),
        this.y + h - this.d(6),
      ]);
    }
    this.rect(0, this.y + h - 1, this.W, 1, LINE);
    this.y += h;
  }

  /** Search page row: back, input (target "search", shows text or hint, caret when focused), button "searchButton". */
  searchRow(opts: { text: string; hint: string; focused: boolean; button?: string }): void {
    const h = this.d(52);
    this.rect(0, this.y, this.W, h, "#ffffff");
    this.backArrow(this.d(14), this.y + h / 2, INK);
    const button = opts.button ?? "搜索";
    const bw = this.d(textEm(button) * 15 + 16);
    const box: Box = [this.d(36), this.y + this.d(8), this.W - bw - this.d(10), this.y + h - this.d(8)];
    this.rect(box[0], box[1], box[2] - box[0], box[3] - box[1], "#f1f2f4", this.d(18), opts.focused ? this.theme.primary : undefined);
    this.magnifier(box[0] + this.d(16), (box[1] + box[3]) / 2, GREY);
    const tx = box[0] + this.d(30);
    const shown = opts.text ? fit(opts.text, (box[2] - tx) / this.d(15) - 2) : opts.hint;
    this.label(tx, box[1], box[3] - box[1], shown, { size: this.d(15), fill: opts.text ? INK : GREY });
    if (opts.focused) {
      const cx = tx + Math.round(opts.text ? textEm(shown) * this.d(15) : 0) + this.d(1);
      this.rect(cx, box[1] + this.d(9), this.d(1.5), box[3] - box[1] - this.d(18), this.theme.primary);
    }
    this.target("search", box);
    const bb: Box = [this.W - bw - this.d(4), this.y + this.d(8), this.W - this.d(4), this.y + h - this.d(8)];
    this.label((bb[0] + bb[2]) / 2, bb[1], bb[3] - bb[1], button, {
      size: this.d(15),
      fill: this.theme.primary === "#ffffff" ? INK : tint(this.theme.primary, -0.1),
      weight: 700,
      anchor: "middle",
    });
    this.target("searchButton", bb);
    this.y += h;
  }

  sectionTitle(title: string, right?: string): void {
    const h = this.d(36);
    if (this.remaining < h) return;
    this.label(this.d(16), this.y, h, title, { size: this.d(15), weight: 700 });
    if (right) this.label(this.W - this.d(16), this.y, h, right, { size: this.d(12), fill: GREY, anchor: "end" });
    this.y += h;
  }

  /** Wrapping chips (search history); targets "chip:<i>". */
  chips(items: string[]): void {
    let x = this.d(16);
    let row = this.y;
    const h = this.d(30);
    items.forEach((s, i) => {
      const w = this.d(textEm(s) * 13 + 24);
      if (x + w > this.W - this.d(16)) {
        x = this.d(16);
        row += h + this.d(10);
      }
      if (row + h > this.bottom) return;
      this.rect(x, row, w, h, "#ffffff", this.d(15));
      this.label(x + w / 2, row, h, s, { size: this.d(13), fill: "#555555", anchor: "middle" });
      this.target(`chip:${i}`, [x, row, x + w, row + h]);
      x += w + this.d(10);
    });
    this.y = row + h + this.d(12);
  }

  /** Icon grid of entry points; targets "grid:<label>". */
  grid(items: { label: string; color: string }[], cols = 5): void {
    const cellW = Math.floor((this.W - this.d(16)) / cols);
    const cellH = this.d(74);
    const top = this.y + this.d(8);
    this.rect(
      this.d(8),
      this.y + this.d(4),
      this.W - this.d(16),
      Math.ceil(items.length / cols) * cellH + this.d(8),
      "#ffffff",
      this.d(12),
    );
    items.forEach((it, i) => {
      const x = this.d(8) + (i % cols) * cellW;
      const y = top + Math.floor(i / cols) * cellH;
      const r = this.d(19);
      const cx = x + Math.round(cellW / 2);
      this.circle(cx, y + this.d(8) + r, r, it.color);
      this.label(cx, y + this.d(8), 2 * r, [...it.label][0] ?? "", { size: this.d(16), fill: "#ffffff", weight: 700, anchor: "middle" });
      this.label(cx, y + this.d(50), this.d(18), it.label, { size: this.d(12), fill: "#333333", anchor: "middle" });
      this.target(`grid:${it.label}`, [x + this.d(4), y + this.d(4), x + cellW - this.d(4), y + cellH - this.d(4)]);
    });
    this.y = top + Math.ceil(items.length / cols) * cellH + this.d(8);
  }

  banner(title: string, sub: string, color: string): void {
    const h = this.d(96);
    if (this.remaining < h + this.d(10)) return;
    const x = this.d(12);
    const y = this.y + this.d(8);
    this.rect(x, y, this.W - 2 * x, h, color, this.d(12));
    this.circle(this.W - this.d(70), y + h / 2, this.d(34), tint(color, 0.35));
    this.label(x + this.d(18), y + this.d(16), this.d(30), title, { size: this.d(20), fill: "#ffffff", weight: 700 });
    this.label(x + this.d(18), y + this.d(50), this.d(24), sub, { size: this.d(13), fill: "#ffffff" });
    this.y = y + h + this.d(4);
  }

  /** Horizontal tabs with an underline on the active one; targets "tab:<label>". */
  tabs(labels: string[], active: number): void {
    const h = this.d(42);
    this.rect(0, this.y, this.W, h, "#ffffff");
    const w = Math.floor(this.W / labels.length);
    labels.forEach((l, i) => {
      const cx = i * w + Math.round(w / 2);
      const on = i === active;
      this.label(cx, this.y, h, l, { size: this.d(14), fill: on ? INK : GREY, weight: on ? 700 : 400, anchor: "middle" });
      if (on)
        this.rect(
          cx - this.d(12),
          this.y + h - this.d(6),
          this.d(24),
          this.d(3),
          this.theme.primary === "#ffffff" ? INK : this.theme.primary,
          this.d(1.5),
        );
      this.target(`tab:${l}`, [i * w, this.y, (i + 1) * w, this.y + h]);
    });
    this.rect(0, this.y + h - 1, this.W, 1, LINE);
    this.y += h;
  }

  /**
   * A vertical list of cards, as many as fit; targets "item:<i>" (i counts from `firstIndex`),
   * "itemButton:<i>", and "list" for the scrollable region. Returns how many were drawn.
   */
  list(items: ListItem[], opts: { firstIndex?: number; thumb?: boolean; compact?: boolean } = {}): number {
    const first = opts.firstIndex ?? 0;
    const thumb = opts.thumb ?? true;
    const h = this.d(opts.compact ? 64 : 104);
    const gap = this.d(8);
    const top = this.y + gap;
    let y = top;
    let n = 0;
    for (const it of items) {
      if (y + h > this.bottom - gap) break;
      const i = first + n;
      const x = this.d(10);
      const w = this.W - 2 * x;
      this.rect(x, y, w, h, "#ffffff", this.d(10));
      let tx = x + this.d(12);
      if (thumb) {
        const s = h - this.d(20);
        this.rect(tx, y + this.d(10), s, s, it.thumb ?? "#d8dde6", this.d(8));
        if (it.badge) {
          this.rect(tx, y + this.d(10), this.d(textEm(it.badge) * 10 + 8), this.d(16), PRICE, this.d(4));
          this.label(tx + this.d(4), y + this.d(10), this.d(16), it.badge, { size: this.d(10), fill: "#ffffff" });
        }
        tx += s + this.d(12);
      }
      const bw = it.button ? this.d(textEm(it.button) * 13 + 22) : 0;
      const maxEm = (x + w - tx - this.d(12) - (opts.compact ? bw : 0)) / this.d(15);
      if (opts.compact) {
        this.label(tx, y + this.d(8), this.d(26), fit(it.title, maxEm), { size: this.d(15), weight: 600 });
        if (it.sub) this.label(tx, y + this.d(34), this.d(20), fit(it.sub, maxEm * 1.1), { size: this.d(12), fill: GREY });
        if (it.price && !it.button)
          this.label(x + w - this.d(14), y, h, it.price, {
            size: this.d(16),
            fill: it.price.startsWith("-") ? INK : PRICE,
            weight: 700,
            anchor: "end",
          });
      } else {
        this.label(tx, y + this.d(10), this.d(24), fit(it.title, maxEm), { size: this.d(15), weight: 600 });
        if (it.sub) this.label(tx, y + this.d(34), this.d(20), fit(it.sub, maxEm * 1.1), { size: this.d(12), fill: GREY });
        if (it.price) this.label(tx, y + this.d(62), this.d(30), it.price, { size: this.d(19), fill: PRICE, weight: 700 });
        if (it.meta)
          this.label(tx + this.d(textEm(it.price ?? "") * 19 + 10), y + this.d(66), this.d(24), it.meta, { size: this.d(11), fill: GREY });
      }
      if (it.button) {
        const bh = this.d(28);
        const bx = x + w - this.d(12) - bw;
        const by = opts.compact ? y + (h - bh) / 2 : y + h - this.d(12) - bh;
        this.rect(bx, by, bw, bh, this.theme.primary === "#ffffff" ? INK : this.theme.primary, this.d(14));
        this.label(bx + bw / 2, by, bh, it.button, {
          size: this.d(13),
          fill: this.theme.primary === "#ffffff" ? "#ffffff" : this.theme.onPrimary,
          anchor: "middle",
        });
        this.target(`itemButton:${i}`, [bx, by, bx + bw, by + bh]);
      }
      this.target(`item:${i}`, [x, y, x + w, y + h]);
      y += h + gap;
      n++;
    }
    if (n > 0) this.target("list", [0, top, this.W, y - gap]);
    this.y = y;
    return n;
  }

  /** Two-column feed of cards, as many rows as fit; targets "card:<i>", region "feed". */
  feed(items: { title: string; color: string; meta: string }[]): number {
    const gap = this.d(8);
    const w = Math.floor((this.W - 3 * gap) / 2);
    const h = this.d(200);
    const top = this.y + gap;
    let n = 0;
    for (let row = 0; top + row * (h + gap) + h <= this.bottom - gap; row++) {
      for (let c = 0; c < 2; c++) {
        const it = items[n];
        if (!it) break;
        const x = gap + c * (w + gap);
        const y = top + row * (h + gap);
        this.rect(x, y, w, h, "#ffffff", this.d(10));
        this.rect(x, y, w, this.d(130), it.color, this.d(10));
        this.rect(x, y + this.d(120), w, this.d(10), it.color);
        this.label(x + this.d(10), y + this.d(136), this.d(22), fit(it.title, w / this.d(14) - 1), { size: this.d(14) });
        this.label(x + this.d(10), y + this.d(164), this.d(22), it.meta, { size: this.d(12), fill: GREY });
        this.target(`card:${n}`, [x, y, x + w, y + h]);
        n++;
      }
      if (!items[n]) break;
    }
    const rows = Math.ceil(n / 2);
    if (n > 0) this.target("feed", [0, top, this.W, top + rows * (h + gap) - gap]);
    this.y = top + rows * (h + gap);
    return n;
  }

  /** A big picture area (product photo, album art, map) with a caption. */
  hero(color: string, caption: string, heightDp: number, round = false): Box {
    const h = this.d(heightDp);
    const box: Box = [0, this.y, this.W, this.y + h];
    this.rect(0, this.y, this.W, h, color);
    if (round) {
      const r = Math.round(Math.min(this.W, h) * 0.32);
      this.circle(this.W / 2, this.y + h / 2, r, tint(color, -0.35));
      this.circle(this.W / 2, this.y + h / 2, Math.round(r * 0.35), tint(color, 0.3));
    } else {
      this.circle(this.W * 0.7, this.y + h * 0.4, Math.round(h * 0.22), tint(color, 0.3));
      this.rect(this.W * 0.12, this.y + h * 0.55, this.W * 0.5, h * 0.25, tint(color, -0.15), this.d(12));
    }
    if (caption) this.label(this.d(16), this.y + h - this.d(34), this.d(28), caption, { size: this.d(13), fill: "#ffffff" });
    this.target("hero", box);
    this.y += h;
    return box;
  }

  /** Price/title block on a detail page. */
  info(opts: { price?: string; title: string; tags?: string[]; lines?: string[] }): void {
    const x = this.d(16);
    const lines = opts.lines ?? [];
    const tags = opts.tags ?? [];
    const room = Math.max(0, Math.floor((this.remaining - this.d(100)) / this.d(24)));
    const shown = lines.slice(0, room);
    const h = this.d(6 + (opts.price ? 38 : 0) + 30 + (tags.length ? 28 : 0) + shown.length * 24 + 8);
    this.rect(0, this.y, this.W, h, "#ffffff");
    let y = this.y + this.d(6);
    if (opts.price) {
      this.label(x, y, this.d(34), opts.price, { size: this.d(24), fill: PRICE, weight: 700 });
      y += this.d(38);
    }
    const maxEm = (this.W - 2 * x) / this.d(16);
    this.label(x, y, this.d(26), fit(opts.title, maxEm), { size: this.d(16), weight: 700 });
    y += this.d(30);
    const tagInk = this.theme.primary === "#ffffff" ? "#444444" : this.theme.primary;
    let tx = x;
    for (const t of tags) {
      const w = this.d(textEm(t) * 11 + 12);
      this.rect(tx, y + this.d(3), w, this.d(20), tint(tagInk, 0.85), this.d(4));
      this.label(tx + w / 2, y + this.d(3), this.d(20), t, { size: this.d(11), fill: tint(tagInk, -0.3), anchor: "middle" });
      tx += w + this.d(8);
    }
    if (tags.length) y += this.d(28);
    for (const l of shown) {
      this.label(x, y, this.d(24), fit(l, maxEm * 1.2), { size: this.d(13), fill: "#555555" });
      y += this.d(24);
    }
    this.y += h + this.d(8);
  }

  /** Form rows: label, value, chevron; targets "field:<label>". */
  fields(rows: { label: string; value: string; placeholder?: boolean }[]): void {
    const h = this.d(52);
    const x = this.d(12);
    const top = this.y + this.d(8);
    this.rect(x, top, this.W - 2 * x, rows.length * h, "#ffffff", this.d(12));
    rows.forEach((r, i) => {
      const y = top + i * h;
      this.label(x + this.d(14), y, h, r.label, { size: this.d(13), fill: GREY });
      this.label(x + this.d(90), y, h, fit(r.value, 14), {
        size: this.d(16),
        fill: r.placeholder ? "#b5b5b5" : INK,
        weight: r.placeholder ? 400 : 700,
      });
      this.path(
        `M${this.W - x - this.d(18)} ${y + h / 2 - this.d(5)}l${this.d(5)} ${this.d(5)}l${-this.d(5)} ${this.d(5)}`,
        "#b5b5b5",
        this.d(1.5),
      );
      if (i > 0) this.rect(x + this.d(14), y, this.W - 2 * x - this.d(28), 1, LINE);
      this.target(`field:${r.label}`, [x, y, this.W - x, y + h]);
    });
    this.y = top + rows.length * h + this.d(4);
  }

  /** A big full-width button; target "button:<label>". */
  button(label: string, color?: string): void {
    const h = this.d(46);
    const box: Box = [this.d(16), this.y + this.d(12), this.W - this.d(16), this.y + this.d(12) + h];
    const fill = color ?? (this.theme.primary === "#ffffff" ? INK : this.theme.primary);
    this.rect(box[0], box[1], box[2] - box[0], h, fill, this.d(23));
    this.label(this.W / 2, box[1], h, label, {
      size: this.d(16),
      fill: color ? "#ffffff" : this.theme.primary === "#ffffff" ? "#ffffff" : this.theme.onPrimary,
      weight: 700,
      anchor: "middle",
    });
    this.target(`button:${label}`, box);
    this.y = box[3] + this.d(4);
  }

  /** Paragraph lines of grey text (post bodies). */
  paragraph(lines: string[]): void {
    const x = this.d(16);
    for (const l of lines) {
      if (this.y + this.d(26) > this.bottom) break;
      this.label(x, this.y, this.d(26), fit(l, (this.W - 2 * x) / this.d(15)), { size: this.d(15), fill: "#444444" });
      this.y += this.d(26);
    }
  }

  /** Chat bubbles; targets "msg:<i>". */
  messages(msgs: { mine: boolean; text: string }[]): void {
    let y = this.y + this.d(12);
    msgs.forEach((m, i) => {
      const h = this.d(40);
      if (y + h > this.bottom) return;
      const w = Math.min(this.W - this.d(130), this.d(textEm(m.text) * 15 + 24));
      const av = this.d(36);
      const x = m.mine ? this.W - this.d(12) - av - this.d(8) - w : this.d(12) + av + this.d(8);
      this.rect(m.mine ? this.W - this.d(12) - av : this.d(12), y, av, av, m.mine ? "#7aa7e8" : "#e8a77a", this.d(6));
      this.rect(x, y, w, h, m.mine ? "#95ec69" : "#ffffff", this.d(6));
      this.label(x + this.d(12), y, h, fit(m.text, (w - this.d(24)) / this.d(15)), { size: this.d(15) });
      this.target(`msg:${i}`, [x, y, x + w, y + h]);
      y += h + this.d(16);
    });
    this.y = y;
  }

  /** Music/video player block: title, artist, progress, controls; targets "control:<name>". */
  player(opts: { title: string; artist: string; playing: boolean; dark?: boolean }): void {
    const ink = opts.dark ? "#ffffff" : INK;
    const cx = this.W / 2;
    this.label(cx, this.y + this.d(8), this.d(30), fit(opts.title, 18), { size: this.d(20), fill: ink, weight: 700, anchor: "middle" });
    this.label(cx, this.y + this.d(38), this.d(22), opts.artist, {
      size: this.d(13),
      fill: opts.dark ? "#bbbbbb" : GREY,
      anchor: "middle",
    });
    const py = this.y + this.d(80);
    this.rect(this.d(24), py, this.W - this.d(48), this.d(3), opts.dark ? "#555555" : LINE, this.d(1.5));
    this.rect(this.d(24), py, Math.round((this.W - this.d(48)) * 0.18), this.d(3), ink, this.d(1.5));
    this.circle(this.d(24) + Math.round((this.W - this.d(48)) * 0.18), py + this.d(1.5), this.d(5), ink);
    this.text(this.d(24), py + this.d(22), "00:42", { size: this.d(10), fill: GREY });
    this.text(this.W - this.d(24), py + this.d(22), "03:58", { size: this.d(10), fill: GREY, anchor: "end" });
    const cy = py + this.d(70);
    const big = this.d(30);
    this.circle(cx, cy, big, "none", ink);
    if (opts.playing) {
      this.rect(cx - this.d(8), cy - this.d(10), this.d(5), this.d(20), ink);
      this.rect(cx + this.d(3), cy - this.d(10), this.d(5), this.d(20), ink);
    } else {
      this.parts.push(
        `<path d="M${cx - this.d(7)} ${cy - this.d(12)}L${cx + this.d(12)} ${cy}L${cx - this.d(7)} ${cy + this.d(12)}Z" fill="${ink}"/>`,
      );
    }
    this.target("control:play", [cx - big, cy - big, cx + big, cy + big]);
    for (const [name, dx] of [
      ["prev", -1],
      ["next", 1],
    ] as const) {
      const x = cx + dx * this.d(90);
      this.path(
        `M${x - dx * this.d(8)} ${cy - this.d(10)}L${x + dx * this.d(6)} ${cy}L${x - dx * this.d(8)} ${cy + this.d(10)}`,
        ink,
        this.d(2.5),
      );
      this.target(`control:${name}`, [x - this.d(22), cy - this.d(22), x + this.d(22), cy + this.d(22)]);
    }
    const hx = this.d(40);
    this.path(
      `M${hx} ${cy - this.d(4)}a${this.d(5)} ${this.d(5)} 0 0 1 ${this.d(10)} 0a${this.d(5)} ${this.d(5)} 0 0 1 ${this.d(10)} 0q0 ${this.d(8)} ${-this.d(10)} ${this.d(14)}q${-this.d(10)} ${-this.d(6)} ${-this.d(10)} ${-this.d(14)}`,
      ink,
      this.d(1.8),
    );
    this.target("control:like", [hx - this.d(12), cy - this.d(22), hx + this.d(32), cy + this.d(22)]);
    this.y = cy + this.d(50);
  }

  // ---- fixed bottom bars (stack upwards) ----
  /** Android navigation: a gesture pill on tall screens, three buttons on 16:9 ones. */
  systemNav(dark = false): void {
    const three = this.H / this.W < 1.9;
    const h = this.d(three ? 40 : 18);
    const top = this.bottom - h;
    this.rect(0, top, this.W, h, dark ? "#000000" : three ? "#000000" : "#ffffff");
    if (three) {
      const cy = top + h / 2;
      const c = three ? "#dddddd" : INK;
      this.path(
        `M${this.W * 0.2 + this.d(6)} ${cy - this.d(7)}L${this.W * 0.2 - this.d(6)} ${cy}L${this.W * 0.2 + this.d(6)} ${cy + this.d(7)}Z`,
        c,
        this.d(2),
      );
      this.circle(this.W / 2, cy, this.d(7), "none", c);
      this.rect(this.W * 0.8 - this.d(6), cy - this.d(6), this.d(12), this.d(12), "none", this.d(2), c);
    } else {
      this.rect(this.W / 2 - this.d(54), top + this.d(8), this.d(108), this.d(4), dark ? "#ffffff" : "#333333", this.d(2));
    }
    this.bottom = top;
  }

  /** App tab bar; targets "bottomTab:<label>". */
  tabBar(labels: string[], active: number): void {
    const h = this.d(54);
    const top = this.bottom - h;
    this.rect(0, top, this.W, h, "#ffffff");
    this.rect(0, top, this.W, 1, LINE);
    const w = Math.floor(this.W / labels.length);
    labels.forEach((l, i) => {
      const cx = i * w + Math.round(w / 2);
      const c = i === active ? (this.theme.primary === "#ffffff" ? INK : this.theme.primary) : "#9a9a9a";
      this.rect(cx - this.d(10), top + this.d(7), this.d(20), this.d(20), i === active ? c : "none", this.d(6), c);
      this.label(cx, top + this.d(30), this.d(18), l, { size: this.d(11), fill: c, anchor: "middle" });
      this.target(`bottomTab:${l}`, [i * w, top, (i + 1) * w, top + h]);
    });
    this.bottom = top;
  }

  /** Detail-page action bar: small icon actions and big buttons; targets "action:<label>". */
  actionBar(icons: string[], buttons: { label: string; color: string }[]): void {
    const h = this.d(60);
    const top = this.bottom - h;
    this.rect(0, top, this.W, h, "#ffffff");
    this.rect(0, top, this.W, 1, LINE);
    const iw = this.d(50);
    icons.forEach((l, i) => {
      const cx = this.d(8) + i * iw + iw / 2;
      this.circle(cx, top + this.d(20), this.d(9), "none", "#666666");
      this.label(cx, top + this.d(34), this.d(18), l, { size: this.d(10), fill: "#666666", anchor: "middle" });
      this.target(`action:${l}`, [cx - iw / 2, top + this.d(4), cx + iw / 2, top + h - this.d(4)]);
    });
    const x0 = this.d(16) + icons.length * iw;
    const bw = Math.floor((this.W - x0 - this.d(12)) / Math.max(1, buttons.length));
    buttons.forEach((b, i) => {
      const x = x0 + i * bw;
      const box: Box = [x, top + this.d(10), x + bw, top + h - this.d(10)];
      const r = this.d(20);
      const first = i === 0;
      const last = i === buttons.length - 1;
      this.rect(x, box[1], bw, box[3] - box[1], b.color, first || last ? r : 0);
      if (buttons.length > 1 && first) this.rect(x + bw - r, box[1], r, box[3] - box[1], b.color);
      if (buttons.length > 1 && last) this.rect(x, box[1], r, box[3] - box[1], b.color);
      this.label(x + bw / 2, box[1], box[3] - box[1], b.label, { size: this.d(15), fill: "#ffffff", weight: 700, anchor: "middle" });
      this.target(`action:${b.label}`, box);
    });
    this.bottom = top;
  }

  /** Checkout bar: total on the left, one button on the right; target "action:<label>". */
  totalBar(total: string, label: string, note?: string): void {
    const h = this.d(60);
    const top = this.bottom - h;
    this.rect(0, top, this.W, h, "#ffffff");
    this.rect(0, top, this.W, 1, LINE);
    this.label(this.d(16), top, h, `合计：${total}`, { size: this.d(16), fill: PRICE, weight: 700 });
    if (note) this.label(this.d(16) + this.d(textEm(`合计：${total}`) * 16 + 8), top, h, note, { size: this.d(11), fill: GREY });
    const bw = this.d(textEm(label) * 16 + 36);
    const box: Box = [this.W - this.d(12) - bw, top + this.d(10), this.W - this.d(12), top + h - this.d(10)];
    this.rect(box[0], box[1], bw, box[3] - box[1], this.theme.primary === "#ffffff" ? INK : this.theme.primary, this.d(20));
    this.label(box[0] + bw / 2, box[1], box[3] - box[1], label, {
      size: this.d(16),
      fill: this.theme.primary === "#ffffff" ? "#ffffff" : this.theme.onPrimary,
      weight: 700,
      anchor: "middle",
    });
    this.target(`action:${label}`, box);
    this.bottom = top;
  }

  /** Chat input bar; targets "input" and "send". */
  inputBar(text: string, focused: boolean): void {
    const h = this.d(56);
    const top = this.bottom - h;
    this.rect(0, top, this.W, h, "#f7f7f7");
    this.rect(0, top, this.W, 1, LINE);
    const bw = this.d(56);
    const box: Box = [this.d(12), top + this.d(9), this.W - this.d(24) - bw, top + h - this.d(9)];
    this.rect(box[0], box[1], box[2] - box[0], box[3] - box[1], "#ffffff", this.d(6), focused ? this.theme.primary : undefined);
    if (text) this.label(box[0] + this.d(10), box[1], box[3] - box[1], fit(text, (box[2] - box[0]) / this.d(15) - 1), { size: this.d(15) });
    this.target("input", box);
    const sb: Box = [this.W - this.d(12) - bw, box[1], this.W - this.d(12), box[3]];
    this.rect(sb[0], sb[1], bw, sb[3] - sb[1], text ? "#07c160" : "#dcdcdc", this.d(6));
    this.label(sb[0] + bw / 2, sb[1], sb[3] - sb[1], "发送", { size: this.d(14), fill: "#ffffff", anchor: "middle" });
    this.target("send", sb);
    this.bottom = top;
  }

  /** A pinyin keyboard; targets "keyboard" and "key:enter". */
  keyboard(enterLabel = "搜索", candidates: string[] = []): void {
    const keyH = this.d(42);
    const gap = this.d(6);
    const h = this.d(40) + 4 * (keyH + gap) + gap;
    const top = this.bottom - h;
    this.rect(0, top, this.W, h, "#d5d8de");
    this.rect(0, top, this.W, this.d(40), "#eef0f3");
    let cx = this.d(16);
    candidates.slice(0, 5).forEach((c, i) => {
      if (cx + this.d(textEm(c) * 15) > this.W - this.d(16)) return;
      this.label(cx, top, this.d(40), c, {
        size: this.d(15),
        fill: i === 0 ? (this.theme.primary === "#ffffff" ? INK : tint(this.theme.primary, -0.2)) : INK,
      });
      cx += this.d(textEm(c) * 15 + 28);
    });
    const rows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
    const kw = Math.floor((this.W - 11 * this.d(4)) / 10);
    rows.forEach((r, ri) => {
      const y = top + this.d(40) + gap + ri * (keyH + gap);
      const x0 = Math.round((this.W - r.length * kw - (r.length - 1) * this.d(4)) / 2);
      [...r].forEach((k, ki) => {
        const x = x0 + ki * (kw + this.d(4));
        this.rect(x, y, kw, keyH, "#ffffff", this.d(5));
        this.label(x + kw / 2, y, keyH, k, { size: this.d(17), fill: INK, anchor: "middle" });
      });
    });
    const y = top + this.d(40) + gap + 3 * (keyH + gap);
    this.rect(this.d(4), y, this.d(60), keyH, "#b9bdc5", this.d(5));
    this.label(this.d(34), y, keyH, "123", { size: this.d(14), anchor: "middle" });
    this.rect(this.d(70), y, this.W - this.d(160), keyH, "#ffffff", this.d(5));
    this.label(this.W / 2 - this.d(20), y, keyH, "空格", { size: this.d(13), fill: GREY, anchor: "middle" });
    const ek: Box = [this.W - this.d(84), y, this.W - this.d(4), y + keyH];
    this.rect(
      ek[0],
      ek[1],
      ek[2] - ek[0],
      keyH,
      this.theme.primary === "#ffffff" || this.theme.primary === "#161823" ? "#3478f6" : this.theme.primary,
      this.d(5),
    );
    this.label((ek[0] + ek[2]) / 2, y, keyH, enterLabel, { size: this.d(14), fill: "#ffffff", anchor: "middle" });
    this.target("keyboard", [0, top, this.W, top + h]);
    this.target("key:enter", ek);
    this.bottom = top;
  }

  // ---- overlays: drawn last; they hide the targets beneath them ----
  private dim(): void {
    this.overlay.push(`<rect x="0" y="0" width="${this.W}" height="${this.H}" fill="#000000" fill-opacity="0.55"/>`);
    this.targets.clear();
  }
  private withOverlay(draw: () => void): void {
    const before = this.parts.length;
    draw();
    this.overlay.push(...this.parts.splice(before));
  }

  /** A modal dialog; targets "dialog:<button>" and "dialog:close" when closable. */
  dialog(opts: { title: string; message: string; buttons: string[]; closable?: boolean; color?: string }): void {
    this.dim();
    this.withOverlay(() => {
      const w = this.W - this.d(72);
      const h = this.d(200);
      const x = this.d(36);
      const y = Math.round(this.H / 2 - h / 2);
      const head = opts.color ?? this.theme.primary;
      this.rect(x, y, w, h, "#ffffff", this.d(16));
      this.rect(x, y, w, this.d(64), head === "#ffffff" ? "#ffe9e3" : head, this.d(16));
      this.rect(x, y + this.d(48), w, this.d(16), head === "#ffffff" ? "#ffe9e3" : head);
      this.label(x + w / 2, y + this.d(14), this.d(36), opts.title, {
        size: this.d(20),
        fill: head === "#ffffff" ? PRICE : this.theme.onPrimary,
        weight: 700,
        anchor: "middle",
      });
      this.label(x + w / 2, y + this.d(80), this.d(30), fit(opts.message, w / this.d(14) - 1), {
        size: this.d(14),
        fill: "#555555",
        anchor: "middle",
      });
      const bw = Math.floor((w - this.d(32) - (opts.buttons.length - 1) * this.d(12)) / opts.buttons.length);
      opts.buttons.forEach((b, i) => {
        const bx = x + this.d(16) + i * (bw + this.d(12));
        const by = y + h - this.d(62);
        const primary = i === opts.buttons.length - 1;
        this.rect(bx, by, bw, this.d(44), primary ? PRICE : "#f1f1f1", this.d(22));
        this.label(bx + bw / 2, by, this.d(44), b, {
          size: this.d(15),
          fill: primary ? "#ffffff" : "#555555",
          weight: 700,
          anchor: "middle",
        });
        this.target(`dialog:${b}`, [bx, by, bx + bw, by + this.d(44)]);
      });
      if (opts.closable) {
        const r = this.d(16);
        const cx = this.W / 2;
        const cy = y + h + this.d(40);
        this.circle(cx, cy, r, "none", "#ffffff");
        this.path(
          `M${cx - this.d(6)} ${cy - this.d(6)}l${this.d(12)} ${this.d(12)}m0 ${-this.d(12)}l${-this.d(12)} ${this.d(12)}`,
          "#ffffff",
          this.d(2),
        );
        this.target("dialog:close", [cx - r - this.d(4), cy - r - this.d(4), cx + r + this.d(4), cy + r + this.d(4)]);
      }
    });
  }

  /** The context menu a long press opens next to `anchor`; targets "menu:<item>". */
  contextMenu(anchor: Box, items: string[]): void {
    this.targets.clear();
    this.withOverlay(() => {
      const iw = this.d(58);
      const w = iw * items.length;
      const h = this.d(44);
      const x = Math.max(this.d(8), Math.min(this.W - w - this.d(8), Math.round((anchor[0] + anchor[2]) / 2 - w / 2)));
      const y = anchor[1] - h - this.d(8) > this.d(80) ? anchor[1] - h - this.d(8) : anchor[3] + this.d(8);
      this.rect(x, y, w, h, "#4c4c4c", this.d(8));
      items.forEach((it, i) => {
        this.label(x + i * iw + iw / 2, y, h, it, { size: this.d(13), fill: "#ffffff", anchor: "middle" });
        this.target(`menu:${it}`, [x + i * iw, y, x + (i + 1) * iw, y + h]);
      });
    });
  }

  toast(text: string): void {
    this.withOverlay(() => {
      const w = this.d(textEm(text) * 14 + 40);
      const h = this.d(44);
      const x = Math.round(this.W / 2 - w / 2);
      const y = Math.round(this.H * 0.62);
      this.parts.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${this.d(10)}" fill="#000000" fill-opacity="0.75"/>`);
      this.label(this.W / 2, y, h, text, { size: this.d(14), fill: "#ffffff", anchor: "middle" });
    });
  }

  /** The system volume slider on the right edge (after a volume key). */
  volume(level: number): void {
    this.withOverlay(() => {
      const w = this.d(40);
      const h = this.d(180);
      const x = this.W - w - this.d(14);
      const y = Math.round(this.H * 0.3);
      this.rect(x, y, w, h, "#ffffff", this.d(20), "#dddddd");
      const fill = Math.round((h - this.d(12)) * level);
      this.rect(x + this.d(6), y + h - this.d(6) - fill, w - this.d(12), fill, "#3478f6", this.d(14));
    });
  }

  /** A loading spinner with a caption in the middle of the body. */
  spinner(caption: string): void {
    const cy = Math.round((this.y + this.bottom) / 2) - this.d(20);
    const r = this.d(18);
    this.circle(this.W / 2, cy, r, "none", "#dddddd");
    this.path(`M${this.W / 2} ${cy - r}a${r} ${r} 0 0 1 ${r} ${r}`, this.theme.primary === "#ffffff" ? INK : this.theme.primary, this.d(3));
    this.label(this.W / 2, cy + r + this.d(8), this.d(24), caption, { size: this.d(14), fill: GREY, anchor: "middle" });
  }

  /** A centred status block (success tick, empty result). */
  status(opts: { ok: boolean; title: string; message: string }): void {
    const cy = this.y + this.d(90);
    const r = this.d(34);
    this.circle(this.W / 2, cy, r, opts.ok ? "#19be6b" : "#c8c8c8");
    if (opts.ok)
      this.path(`M${this.W / 2 - this.d(14)} ${cy}l${this.d(10)} ${this.d(10)}l${this.d(18)} ${-this.d(20)}`, "#ffffff", this.d(4));
    else this.path(`M${this.W / 2} ${cy - this.d(14)}v${this.d(16)}m0 ${this.d(8)}v${this.d(3)}`, "#ffffff", this.d(4));
    this.label(this.W / 2, cy + r + this.d(12), this.d(30), opts.title, { size: this.d(19), weight: 700, anchor: "middle" });
    this.label(this.W / 2, cy + r + this.d(44), this.d(22), fit(opts.message, 22), { size: this.d(13), fill: GREY, anchor: "middle" });
    this.y = cy + r + this.d(80);
  }

  /** Phone desktop wallpaper + icon grid; targets "app:<name>". */
  launcher(apps: { name: string; color: string; onColor: string }[]): void {
    const cols = 4;
    const cellW = Math.floor(this.W / cols);
    const cellH = this.d(92);
    const top = this.y + this.d(60);
    this.label(this.d(24), this.y + this.d(4), this.d(50), this.clock, { size: this.d(40), fill: "#ffffff" });
    apps.forEach((a, i) => {
      const y = top + Math.floor(i / cols) * cellH;
      if (y + cellH > this.bottom - this.d(100)) return;
      const x = (i % cols) * cellW;
      const s = this.d(54);
      const ix = x + Math.round((cellW - s) / 2);
      this.rect(ix, y + this.d(8), s, s, a.color, this.d(14));
      const glyph = [...a.name].slice(0, a.name.length > 3 ? 2 : 1).join("");
      this.label(ix + s / 2, y + this.d(8), s, glyph, {
        size: this.d(glyph.length > 1 ? 16 : 24),
        fill: a.onColor,
        weight: 700,
        anchor: "middle",
      });
      this.label(x + cellW / 2, y + this.d(66), this.d(20), fit(a.name, 6), { size: this.d(12), fill: "#ffffff", anchor: "middle" });
      this.target(`app:${a.name}`, [x + this.d(6), y + this.d(4), x + cellW - this.d(6), y + cellH - this.d(4)]);
    });
    const dockY = this.bottom - this.d(90);
    this.rect(this.d(12), dockY, this.W - this.d(24), this.d(80), "#ffffff", this.d(24));
    this.parts[this.parts.length - 1] = this.parts[this.parts.length - 1]!.replace("/>", ' fill-opacity="0.25"/>');
    ["电话", "短信", "相机", "设置"].forEach((n, i) => {
      const cx = this.d(12) + Math.round(((this.W - this.d(24)) / 4) * (i + 0.5));
      this.circle(cx, dockY + this.d(40), this.d(24), ["#34c759", "#30b0c7", "#636366", "#8e8e93"][i]!);
      this.label(cx, dockY + this.d(16), this.d(48), n[0]!, { size: this.d(18), fill: "#ffffff", anchor: "middle" });
    });
  }

  /** Recent-apps overview (after system_button Menu); targets "recent:<name>". */
  recents(apps: { name: string; color: string }[]): void {
    const w = Math.round(this.W * 0.62);
    const h = Math.round((this.bottom - this.y) * 0.62);
    const y = this.y + Math.round((this.bottom - this.y - h) / 2);
    apps.forEach((a, i) => {
      const x = Math.round(this.W / 2 - w / 2 + (i - (apps.length - 1) / 2) * (w + this.d(24)));
      if (x + w < 0 || x > this.W) return;
      const cx0 = Math.max(0, x);
      const cx1 = Math.min(this.W, x + w);
      this.rect(cx0, y, cx1 - cx0, h, "#ffffff", this.d(16));
      this.rect(cx0, y, cx1 - cx0, this.d(60), a.color, this.d(16));
      this.rect(cx0, y + this.d(40), cx1 - cx0, this.d(20), a.color);
      this.rect(cx0 + this.d(12), y + this.d(80), cx1 - cx0 - this.d(24), this.d(60), "#eeeeee", this.d(8));
      this.rect(cx0 + this.d(12), y + this.d(150), cx1 - cx0 - this.d(24), this.d(120), "#f3f3f3", this.d(8));
      this.label(x + w / 2, y - this.d(40), this.d(30), a.name, { size: this.d(15), fill: "#ffffff", anchor: "middle" });
      this.target(`recent:${a.name}`, [cx0, y, cx1, y + h]);
    });
    this.label(this.W / 2, this.bottom - this.d(70), this.d(30), "全部清除", { size: this.d(14), fill: "#ffffff", anchor: "middle" });
  }

  /** Full-screen launch ad with a "跳过" pill; target "skip". */
  splash(app: { name: string; color: string; onColor: string }, ad: string, seconds: number): void {
    this.rect(0, 0, this.W, this.H, tint(app.color, 0.15));
    this.circle(this.W / 2, this.H * 0.38, this.W * 0.28, tint(app.color, 0.45));
    this.label(this.W / 2, this.H * 0.38 - this.d(20), this.d(40), ad, {
      size: this.d(26),
      fill: app.onColor,
      weight: 700,
      anchor: "middle",
    });
    this.rect(0, this.H - this.d(140), this.W, this.d(140), "#ffffff");
    this.label(this.W / 2, this.H - this.d(110), this.d(50), app.name, {
      size: this.d(30),
      fill: app.color === "#ffffff" ? INK : tint(app.color, -0.1),
      weight: 700,
      anchor: "middle",
    });
    const bw = this.d(70);
    const box: Box = [this.W - bw - this.d(16), this.d(40), this.W - this.d(16), this.d(72)];
    this.rect(box[0], box[1], bw, box[3] - box[1], "#000000", this.d(16));
    this.parts[this.parts.length - 1] = this.parts[this.parts.length - 1]!.replace("/>", ' fill-opacity="0.4"/>');
    this.label(box[0] + bw / 2, box[1], box[3] - box[1], `跳过 ${seconds}`, { size: this.d(13), fill: "#ffffff", anchor: "middle" });
    this.target("skip", box);
  }

  finish(): Layout {
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${this.W}" height="${this.H}" viewBox="0 0 ${this.W} ${this.H}">` +
      `<g font-family="${FONT_FAMILY}" text-rendering="optimizeSpeed">${this.parts.join("")}${this.overlay.join("")}</g></svg>`;
    return { size: { width: this.W, height: this.H }, svg, targets: new Map(this.targets) };
  }
}
