import { composeThought } from "@/lib/domain/thought";
import { isPointInBox, isPointOnScreen, type Box, type Point, type Size } from "@/lib/domain/geometry";
import type { ToolCall, SystemButton } from "@/lib/domain/tool-call";
import type { AppDef } from "./apps";
import type { Rng } from "./prng";
import { Screen, type Layout } from "./screen";

/** One demo step before it is written: the screen it was taken on, the call, and the true target box. */
export type DraftStep = {
  layout: Layout;
  call: ToolCall;
  /**
   * The element the call acts on, in original pixels: the right one, or on a deliberate mis-click the element the
   * model hit instead, so a step never contradicts itself (its point always lies in its box); null for
   * non-coordinate actions.
   */
  bbox: Box | null;
  thought: string;
  subtask: string;
  /** Internal only (never written): this step carries a deliberate model mistake. */
  isMistake: boolean;
};

/** What a step says: current state, next action, purpose (the Mobile-R1 thought), and the one-line clear action. */
export type Words = { state: string; next: string; purpose: string; subtask?: string };

/** Phrases a confused model might think while doing something else, by the action it actually did. */
const WRONG_NEXT: Record<string, string[]> = {
  click: ["向上滑动页面查看更多内容", "返回上一页", "等待页面加载完成"],
  long_press: ["点击该选项", "向下滑动页面"],
  swipe: ["点击第一个结果", "返回上一页"],
  type: ["点击右侧的搜索按钮", "向上滑动页面"],
  system_button: ["点击页面上的搜索按钮", "等待页面加载"],
  key: ["点击播放按钮", "返回上一页"],
  wait: ["点击页面中间的按钮"],
  open: ["点击屏幕上的搜索框"],
  answer: ["点击第一个结果"],
};

/**
 * Builds one trajectory step by step. Each action takes the layout of the screen it acts on (so
 * the tap point is chosen inside the drawn element) and pushes one step; with `allowMistakes` a few
 * steps come out wrong the way a small model goes wrong.
 */
export class Flow {
  readonly steps: DraftStep[] = [];

  constructor(
    readonly rng: Rng,
    readonly app: AppDef,
    readonly size: Size,
    private readonly startMinutes: number,
    readonly allowMistakes: boolean,
    /** Optional detours (splash ads, pop-ups, extra scrolling) are allowed. */
    readonly extras: boolean,
  ) {}

  get clock(): string {
    const m = this.startMinutes + Math.floor(this.steps.length / 3);
    return `${Math.floor(m / 60) % 24}:${String(m % 60).padStart(2, "0")}`;
  }

  /** A fresh screen in the app's colours. */
  screen(background?: string, theme = { primary: this.app.color, onPrimary: this.app.onColor }): Screen {
    return new Screen(this.size, theme, this.clock, background);
  }

  private box(layout: Layout, key: string): Box {
    const b = layout.targets.get(key);
    if (!b)
      throw new Error(
        `demo flow bug: no element "${key}" on this ${this.app.name} screen (targets: ${[...layout.targets.keys()].join(", ")})`,
      );
    return b;
  }

  has(layout: Layout, key: string): boolean {
    return layout.targets.has(key);
  }

  /** A point near the centre of the box, as a model that aims well would pick. */
  pointIn([x1, y1, x2, y2]: Box): Point {
    const jx = (x2 - x1) * 0.2;
    const jy = (y2 - y1) * 0.2;
    return [Math.round((x1 + x2) / 2 + (this.rng.next() * 2 - 1) * jx), Math.round((y1 + y2) / 2 + (this.rng.next() * 2 - 1) * jy)];
  }

  /** The smallest drawn element holding `p` (what a tap there hits), or null where the screen has none. */
  private elementAt(layout: Layout, p: Point): Box | null {
    let best: Box | null = null;
    for (const b of layout.targets.values()) {
      if (isPointInBox(p, b) && (!best || (b[2] - b[0]) * (b[3] - b[1]) < (best[2] - best[0]) * (best[3] - best[1]))) best = b;
    }
    return best;
  }

  /** A point just outside the box (a near miss), still on the screen. */
  private pointOutside(box: Box): Point | null {
    const [x1, y1, x2, y2] = box;
    const off = Math.round(this.size.width / 360) * this.rng.int(3, 9);
    const [cx, cy] = this.pointIn(box);
    const sides: Point[] = [
      [cx, y2 + off],
      [cx, y1 - off],
      [x2 + off, cy],
      [x1 - off, cy],
    ];
    const start = this.rng.int(0, 3);
    for (let i = 0; i < 4; i++) {
      const p = sides[(start + i) % 4]!;
      if (isPointOnScreen(p, this.size) && !isPointInBox(p, box)) return p;
    }
    return null;
  }

  private push(layout: Layout, call: ToolCall, bbox: Box | null, w: Words, isMistake = false): void {
    let words = w;
    let mistake = isMistake;
    if (!mistake && this.allowMistakes && call.action !== "terminate" && this.rng.chance(0.075)) {
      const wrong = (WRONG_NEXT[call.action] ?? []).filter((p) => p !== w.next);
      if (wrong.length) {
        words = { ...w, next: this.rng.pick(wrong), subtask: w.subtask ?? w.next };
        mistake = true;
      }
    }
    const thought = composeThought({ state: words.state, nextAction: words.next, purpose: words.purpose });
    this.steps.push({ layout, call, bbox, thought, subtask: words.subtask ?? words.next, isMistake: mistake });
  }

  /** Click (or long-press for `time` seconds) the element `key`. May produce a near miss followed by a retry. */
  tap(layout: Layout, key: string, w: Words, time?: number): void {
    const box = this.box(layout, key);
    if (time === undefined && this.allowMistakes && this.rng.chance(0.07)) {
      const miss = this.pointOutside(box);
      const hit = miss && this.elementAt(layout, miss);
      if (miss && hit) {
        this.steps.push({
          layout,
          call: { action: "click", coordinate: miss },
          bbox: hit,
          thought: composeThought({ state: w.state, nextAction: w.next, purpose: w.purpose }),
          subtask: w.subtask ?? w.next,
          isMistake: true,
        });
        w = { ...w, state: `上一步点击没有生效，${w.state.replace(/^当前/, "页面仍")}` };
      }
    }
    const coordinate = this.pointIn(box);
    this.push(layout, time === undefined ? { action: "click", coordinate } : { action: "long_press", coordinate, time }, box, w);
  }

  /**
   * Click the element `key` in a list; sometimes the model first opens a neighbour `wrongKey`
   * (its page drawn by `wrongPage`), notices, and goes Back. bbox is always the right element.
   */
  tapChoice(layout: Layout, key: string, w: Words, wrong?: { key: string; page: () => Layout; what: string }): void {
    if (wrong && this.allowMistakes && this.has(layout, wrong.key) && this.rng.chance(0.4)) {
      const box = this.box(layout, wrong.key);
      this.steps.push({
        layout,
        call: { action: "click", coordinate: this.pointIn(box) },
        bbox: box,
        thought: composeThought({ state: w.state, nextAction: w.next, purpose: w.purpose }),
        subtask: w.subtask ?? w.next,
        isMistake: true,
      });
      this.sys(wrong.page(), "Back", {
        state: `当前进入的是${wrong.what}，不是要找的目标，点错了`,
        next: "返回上一页",
        purpose: "回到列表重新选择",
        subtask: "点击返回键回到上一页",
      });
      w = { ...w, state: `已回到列表页。${w.state}` };
    }
    this.tap(layout, key, w);
  }

  /** Swipe inside the scrollable region `key`: "up" moves the finger up (the content scrolls down). */
  swipe(layout: Layout, key: string, dir: "up" | "down" | "left", w: Words): void {
    const box = this.box(layout, key);
    const [x1, y1, x2, y2] = box;
    const h = y2 - y1;
    const x = Math.round((x1 + x2) / 2 + (this.rng.next() - 0.5) * (x2 - x1) * 0.3);
    let from: Point;
    let to: Point;
    if (dir === "left") {
      const y = Math.round((y1 + y2) / 2);
      from = [Math.round(x1 + (x2 - x1) * 0.8), y];
      to = [Math.round(x1 + (x2 - x1) * 0.2), y];
    } else {
      const a = Math.round(y1 + h * (0.72 + this.rng.next() * 0.1));
      const b = Math.round(y1 + h * (0.18 + this.rng.next() * 0.08));
      from = dir === "up" ? [x, a] : [x, b];
      to = dir === "up" ? [x + this.rng.int(-8, 8), b] : [x + this.rng.int(-8, 8), a];
    }
    this.push(layout, { action: "swipe", coordinate: from, coordinate2: to }, box, w);
  }

  /** Type `text`; rarely the model drops a character. Returns what was actually typed. */
  type(layout: Layout, text: string, w: Words): string {
    let typed = text;
    let mistake = false;
    const chars = [...text];
    if (this.allowMistakes && chars.length > 3 && this.rng.chance(0.06)) {
      const i = this.rng.int(1, chars.length - 1);
      typed = [...chars.slice(0, i), ...chars.slice(i + 1)].join("");
      mistake = true;
    }
    this.push(layout, { action: "type", text: typed }, null, w, mistake);
    return typed;
  }

  sys(layout: Layout, button: SystemButton, w: Words): void {
    this.push(layout, { action: "system_button", button }, null, w);
  }
  key(layout: Layout, text: string, w: Words): void {
    this.push(layout, { action: "key", text }, null, w);
  }
  open(layout: Layout, text: string, w: Words): void {
    this.push(layout, { action: "open", text }, null, w);
  }
  wait(layout: Layout, time: number, w: Words): void {
    this.push(layout, { action: "wait", time }, null, w);
  }
  answer(layout: Layout, text: string, w: Words): void {
    this.push(layout, { action: "answer", text }, null, w);
  }
  end(layout: Layout, status: "success" | "failure", w: Words): void {
    this.push(layout, { action: "terminate", status }, null, w);
  }
}
