import { describe, expect, it } from "vitest";
import type { StepAnnotation, TrajectoryAnnotation } from "@/lib/domain/annotation";
import { createAutosave, restoreDrafts, type Draft, type DraftStore, type SaveOutcome } from "./autosave";
import {
  createEditor,
  dirtyKeys,
  toImagePoint,
  TRAJECTORY_KEY,
  viewTransform,
  type DocValue,
  type EditorState,
  type Synced,
} from "./editor";
import { editorShortcuts } from "./editor-shortcuts";
import { rewardPreview } from "./reward-preview";
import { snapTargetsOf } from "./snap";
import type { Box } from "@/lib/domain/geometry";
import { formatKbd, matchShortcut, type KeyInput } from "./shortcuts";

const SIZE = { width: 1080, height: 2400 };
const step = (over: Partial<StepAnnotation> = {}): StepAnnotation => ({
  thought: {
    state: "Home screen.",
    nextAction: "Tap Settings.",
    purpose: "To open settings.",
    text: "Home screen. Tap Settings. To open settings.",
  },
  clearAction: "Tap Settings.",
  toolCall: { action: "type", text: "hello" },
  box: null,
  verdict: "unreviewed",
  ...over,
});
const traj: TrajectoryAnnotation = { outcome: null, isDiscarded: false, cutAfter: null };

function setup(opts: { now?: () => number; targets?: Box[] } = {}) {
  const steps = ["s0", "s1", "s2"].map((id, index) => ({ id, index, size: SIZE, targets: index === 0 ? opts.targets : undefined }));
  const doc = { trajectory: traj, steps: { s0: step(), s1: step(), s2: step() } };
  const server: Record<string, Synced<DocValue>> = { [TRAJECTORY_KEY]: { version: 1, value: traj } };
  for (const s of steps) server[s.id] = { version: 1, value: doc.steps[s.id as "s0"] };
  const editor = createEditor({ trajectoryId: "t1", steps, doc, server, now: opts.now });
  editor.setViewport({ width: 540 + 16, height: 1200 + 16 }); // fit scale 0.5 with the 8 px padding
  return editor;
}
const cur = (e: ReturnType<typeof setup>) => e.get().doc.steps[e.get().steps[e.get().stepIndex]!.id]!;
/** A pointer event at an original-pixel point (display = image x 0.5 + offset). */
const at = (e: ReturnType<typeof setup>, x: number, y: number, shiftKey = false) => {
  const t = viewTransform(e.get());
  return { image: [x, y] as [number, number], display: [t.x + x * t.scale, t.y + y * t.scale] as [number, number], shiftKey };
};

const key = (k: string, mods: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});
const page = { save: () => {}, submit: () => {}, focusThought: () => {} };
const fire = (e: ReturnType<typeof setup>, k: KeyInput, isTyping = false) => {
  const list = editorShortcuts(e, page);
  const hit = matchShortcut<EditorState>(k, list, e.get(), isTyping);
  hit?.run(e.get());
  return hit?.id;
};

describe("view transform", () => {
  it("fits the screenshot in the pane and maps display pixels back to original pixels", () => {
    const e = setup();
    expect(viewTransform(e.get()).scale).toBeCloseTo(0.5);
    expect(toImagePoint(e.get(), at(e, 540, 1200).display)).toEqual([540, 1200]);
  });
  it("zooming about a point keeps that point still; zoom is not an undo step", () => {
    const e = setup();
    const p = at(e, 300, 400).display;
    e.zoomIn(p);
    e.zoomIn(p);
    expect(viewTransform(e.get()).scale).toBeCloseTo(0.5 * 1.5625);
    const back = toImagePoint(e.get(), p);
    expect(back[0]).toBeCloseTo(300);
    expect(back[1]).toBeCloseTo(400);
    expect(e.get().history.past).toHaveLength(0);
  });
});

describe("tools", () => {
  it("point tool: a click sets a tap at the point (original pixels) and is one undo step", () => {
    const e = setup();
    e.setTool("point");
    e.pointerDown(at(e, 100, 200));
    e.pointerMove(at(e, 110, 210));
    e.pointerUp(at(e, 120, 220));
    expect(cur(e).toolCall).toEqual({ action: "click", coordinate: [120, 220] });
    expect(e.get().history.past).toHaveLength(1);
    e.undo();
    expect(cur(e).toolCall).toEqual({ action: "type", text: "hello" });
    e.redo();
    expect(cur(e).toolCall).toEqual({ action: "click", coordinate: [120, 220] });
  });

  it("point tool keeps a long press a long press, and clamps a drag that leaves the screen", () => {
    const e = setup();
    e.setToolCall({ action: "long_press", coordinate: [1, 1], time: 3 });
    e.setTool("point");
    e.pointerDown(at(e, 10, 10));
    e.pointerMove(at(e, -50, 5000));
    e.pointerUp(at(e, -50, 5000));
    expect(cur(e).toolCall).toEqual({ action: "long_press", coordinate: [0, 2400], time: 3 });
  });

  it("a press that starts beside the screenshot never changes the step, whatever the tool: it pans and drops the selection", () => {
    for (const tool of ["point", "swipe", "box", "select"] as const) {
      const e = setup();
      e.setToolCall({ action: "system_button", button: "Home" });
      e.setBox([100, 100, 300, 300]);
      e.selectBox(true);
      const before = JSON.stringify(cur(e));
      const past = e.get().history.past.length;
      e.setTool(tool);
      e.pointerDown(at(e, -180, 1362));
      expect(e.get().drag, tool).toEqual({ kind: "pan" });
      e.pointerMove(at(e, 400, 1200));
      e.pointerUp(at(e, 400, 1200));
      expect(JSON.stringify(cur(e)), tool).toBe(before);
      expect(e.get().history.past.length, tool).toBe(past);
      expect(e.get().isBoxSelected, tool).toBe(false);
    }
  });

  it("box tool: a selected box's handles resize it and its body moves it, each one undo entry", () => {
    const e = setup();
    e.setBox([100, 100, 300, 300]);
    e.setTool("box");
    e.selectBox(true);
    const past = e.get().history.past.length;
    // The south-east handle: a resize, not a new tiny box.
    e.pointerDown(at(e, 300, 300));
    e.pointerMove(at(e, 400, 500));
    e.pointerUp(at(e, 400, 500));
    expect(cur(e).box).toEqual([100, 100, 400, 500]);
    // The body: a move.
    e.pointerDown(at(e, 200, 200));
    e.pointerMove(at(e, 250, 260));
    e.pointerUp(at(e, 250, 260));
    expect(cur(e).box).toEqual([150, 160, 450, 560]);
    expect(e.get().history.past.length).toBe(past + 2);
    e.undo();
    expect(cur(e).box).toEqual([100, 100, 400, 500]);
    // Elsewhere the box tool still draws a new box (and drops the selection first).
    e.pointerDown(at(e, 600, 1000));
    e.pointerMove(at(e, 800, 1200));
    e.pointerUp(at(e, 800, 1200));
    expect(cur(e).box).toEqual([600, 1000, 800, 1200]);
  });

  it("swipe tool: drag sets coordinate and coordinate2; a tiny drag changes nothing", () => {
    const e = setup();
    e.setTool("swipe");
    e.pointerDown(at(e, 540, 1800));
    e.pointerMove(at(e, 540, 1000));
    e.pointerUp(at(e, 545, 600));
    expect(cur(e).toolCall).toEqual({ action: "swipe", coordinate: [540, 1800], coordinate2: [545, 600] });
    const before = e.get().history.past.length;
    e.pointerDown(at(e, 10, 10));
    e.pointerUp(at(e, 11, 11));
    expect(cur(e).toolCall).toEqual({ action: "swipe", coordinate: [540, 1800], coordinate2: [545, 600] });
    expect(e.get().history.past).toHaveLength(before);
  });

  it("box tool: draw from any corner, then move and resize with handles in the select tool", () => {
    const e = setup();
    e.setTool("box");
    e.pointerDown(at(e, 300, 500));
    e.pointerMove(at(e, 200, 450));
    e.pointerUp(at(e, 100, 400));
    expect(cur(e).box).toEqual([100, 400, 300, 500]);
    expect(e.get().isBoxSelected).toBe(true);

    e.setTool("select");
    e.pointerDown(at(e, 200, 450)); // body: move
    e.pointerUp(at(e, 250, 470));
    expect(cur(e).box).toEqual([150, 420, 350, 520]);

    e.pointerDown(at(e, 350, 520)); // south-east handle
    e.pointerUp(at(e, 400, 600));
    expect(cur(e).box).toEqual([150, 420, 400, 600]);
    expect(e.get().history.past.map((h) => h.label)).toEqual(["history.box", "history.box", "history.box"]);
  });

  it("Escape during a drag abandons it: the document is as before and nothing is recorded", () => {
    const e = setup();
    e.setTool("box");
    e.pointerDown(at(e, 100, 100));
    e.pointerMove(at(e, 400, 400));
    expect(cur(e).box).toEqual([100, 100, 400, 400]);
    e.cancel();
    expect(cur(e).box).toBeNull();
    expect(e.get().drag).toBeNull();
    expect(e.get().history.past).toHaveLength(0);
  });

  it("select tool on empty space pans the view without touching the document", () => {
    const e = setup();
    e.setTool("select");
    e.pointerDown({ image: [0, 0], display: [10, 10] });
    e.pointerMove({ image: [0, 0], display: [60, 40] });
    e.pointerUp({ image: [0, 0], display: [60, 40] });
    const fitted = { x: 8, y: 8 }; // the fit centres the image inside the 8 px padding
    expect(viewTransform(e.get())).toMatchObject({ scale: 0.5, x: fitted.x + 50, y: fitted.y + 30 });
    expect(e.get().history.past).toHaveLength(0);
  });

  it("read-only: pointer gestures only pan, commands change nothing", () => {
    const e = setup();
    e.setReadOnly(true);
    e.setTool("point");
    e.pointerDown(at(e, 100, 100));
    e.pointerUp(at(e, 100, 100));
    e.setVerdict("good");
    expect(cur(e)).toEqual(step());
  });
});

describe("history grouping", () => {
  it("typing in one field is one undo step; a pause or another field starts a new one", () => {
    let t = 0;
    const e = setup({ now: () => t });
    for (const text of ["T", "Ta", "Tap"]) {
      t += 100;
      e.setClearAction(text);
    }
    t += 100;
    e.setThoughtPart("state", "Settings open");
    t += 5000;
    e.setClearAction("Tap it.");
    expect(e.get().history.past.map((h) => h.label)).toEqual(["history.clearAction", "history.thought", "history.clearAction"]);
    e.undo();
    expect(cur(e).clearAction).toBe("Tap");
    e.undo();
    expect(cur(e).thought.state).toBe("Home screen.");
    e.undo();
    expect(cur(e).clearAction).toBe("Tap Settings.");
  });

  it("editing a thought part recomposes the text unless the text was edited by hand", () => {
    const e = setup();
    e.setThoughtPart("purpose", "To change the language");
    expect(cur(e).thought.text).toBe("Home screen. Tap Settings. To change the language.");
    e.setThoughtText("My own words.");
    e.setThoughtPart("state", "Settings screen.");
    expect(cur(e).thought.text).toBe("My own words.");
    e.recomposeThought();
    expect(cur(e).thought.text).toBe("Settings screen. Tap Settings. To change the language.");
  });

  it("arrow nudges in a row are one undo step; undo returns to the step it happened on", () => {
    let t = 0;
    const e = setup({ now: () => t });
    e.setBox([100, 100, 200, 200]);
    e.selectBox(true);
    for (let i = 0; i < 5; i++) {
      t += 50;
      e.nudgeBox(1, 0);
    }
    t += 50;
    e.nudgeBox(0, 10);
    expect(cur(e).box).toEqual([105, 110, 205, 210]);
    expect(e.get().history.past).toHaveLength(2);
    e.next();
    e.undo();
    expect(e.get().stepIndex).toBe(0);
    expect(cur(e).box).toEqual([100, 100, 200, 200]);
    e.undo();
    expect(cur(e).box).toBeNull();
  });

  it("a new change clears redo; navigation, selection and zoom are never recorded", () => {
    const e = setup();
    e.setVerdict("good");
    e.undo();
    e.next();
    e.zoomIn();
    e.selectBox(true);
    expect(e.get().history.future).toHaveLength(1);
    e.setVerdict("harmful");
    expect(e.get().history.future).toHaveLength(0);
  });

  it("cut toggles on the current step and trajectory edits undo too", () => {
    const e = setup();
    e.next();
    e.toggleCutHere();
    expect(e.get().doc.trajectory.cutAfter).toBe(1);
    e.toggleCutHere();
    expect(e.get().doc.trajectory.cutAfter).toBeNull();
    e.setOutcome("success");
    e.undo();
    expect(e.get().doc.trajectory.outcome).toBeNull();
  });

  it("changing the action type keeps what carries over", () => {
    const e = setup({});
    e.setBox([100, 100, 300, 200]);
    e.setActionType("click");
    expect(cur(e).toolCall).toEqual({ action: "click", coordinate: [200, 150] });
    e.setActionType("long_press");
    expect(cur(e).toolCall).toEqual({ action: "long_press", coordinate: [200, 150], time: 2 });
  });
});

describe("shortcuts", () => {
  it("arrows move between steps, but nudge the box when one is selected (Shift: 10 px)", () => {
    const e = setup();
    expect(fire(e, key("ArrowRight"))).toBe("step.next");
    expect(e.get().stepIndex).toBe(1);
    e.setBox([10, 10, 20, 20]);
    e.selectBox(true);
    expect(fire(e, key("ArrowRight"))).toBe("box.right");
    expect(fire(e, key("ArrowDown", { shiftKey: true }))).toBe("box.down10");
    expect(cur(e).box).toEqual([11, 20, 21, 30]);
    // J and K move between steps whatever is selected (Esc is never needed first).
    expect(fire(e, key("j"))).toBe("step.next");
    expect(e.get().stepIndex).toBe(2);
    expect(fire(e, key("k"))).toBe("step.prev");
    expect(e.get().stepIndex).toBe(1);
    e.selectBox(true);
    expect(fire(e, key("Delete"))).toBe("box.delete");
    expect(cur(e).box).toBeNull();
    expect(fire(e, key("ArrowLeft"))).toBe("step.prev");
  });

  it("plain keys never fire while typing; undo, save and submit do", () => {
    const e = setup();
    expect(fire(e, key("j"), true)).toBeUndefined();
    expect(fire(e, key("z", { ctrlKey: true }), true)).toBe("history.undo");
    expect(fire(e, key("Z", { metaKey: true, shiftKey: true }), true)).toBe("history.redo");
    expect(fire(e, key("s", { ctrlKey: true }), true)).toBe("save");
  });

  it("digits pick the action type, letters the verdict and tools; ? opens help", () => {
    const e = setup();
    fire(e, key("1"));
    expect(cur(e).toolCall.action).toBe("click");
    fire(e, key("3"));
    expect(cur(e).toolCall.action).toBe("swipe");
    fire(e, key("h"));
    expect(cur(e).verdict).toBe("harmful");
    fire(e, key("b"));
    expect(e.get().tool).toBe("box");
    fire(e, key("?", { shiftKey: true }));
    expect(e.get().isHelpOpen).toBe(true);
  });

  it("every shortcut has a distinct id and prints readably", () => {
    const list = editorShortcuts(setup(), page);
    expect(new Set(list.map((s) => s.id)).size).toBe(list.length);
    expect(formatKbd("mod+shift+z")).toBe("Ctrl+Shift+Z");
    expect(formatKbd("shift+ArrowLeft", true)).toBe("⇧←");
  });
});

/** A stand-in server with versions, in memory: the real one is tested in lib/server. */
function memoryServer(initial: Record<string, Synced<DocValue>>) {
  const rows = new Map(Object.entries(initial));
  let isDown = false;
  return {
    rows,
    setDown: (d: boolean) => (isDown = d),
    api: {
      async save(key: string, value: DocValue, version: number): Promise<SaveOutcome> {
        if (isDown) return { kind: "offline" };
        const row = rows.get(key)!;
        if (row.version !== version) return { kind: "conflict", theirs: row };
        const next = { version: version + 1, value };
        rows.set(key, next);
        return { kind: "saved", synced: next };
      },
    },
  };
}

function memoryDrafts(): DraftStore & { map: Map<string, Draft> } {
  const map = new Map<string, Draft>();
  return { map, get: (k) => map.get(k), set: (k, d) => void map.set(k, d), remove: (k) => void map.delete(k) };
}

describe("autosave", () => {
  const manualTimers = () => {
    let pending: (() => void) | null = null;
    return {
      setTimer: (fn: () => void) => (pending = fn),
      clearTimer: () => (pending = null),
      fire: async () => {
        const fn = pending;
        pending = null;
        fn?.();
        await new Promise((r) => setTimeout(r, 0));
      },
    };
  };

  it("drafts at once, saves after the debounce with the base version, then drops the draft", async () => {
    const e = setup();
    const server = memoryServer(e.get().server);
    const drafts = memoryDrafts();
    const timers = manualTimers();
    const sync = createAutosave(e, { api: server.api, drafts, isValid: () => true, ...timers });
    e.setClearAction("Tap the gear icon.");
    expect(drafts.map.get("s0")).toMatchObject({ baseVersion: 1, value: { clearAction: "Tap the gear icon." } });
    expect(sync.state.get().status).toBe("pending");
    await timers.fire();
    expect(server.rows.get("s0")).toMatchObject({ version: 2, value: { clearAction: "Tap the gear icon." } });
    expect(drafts.map.size).toBe(0);
    expect(sync.state.get().status).toBe("saved");
    expect(dirtyKeys(e.get())).toEqual([]);
  });

  it("keeps the draft while offline and saves when the connection is back", async () => {
    const e = setup();
    const server = memoryServer(e.get().server);
    const drafts = memoryDrafts();
    const timers = manualTimers();
    const sync = createAutosave(e, { api: server.api, drafts, isValid: () => true, ...timers });
    server.setDown(true);
    e.setVerdict("good");
    await timers.fire();
    expect(sync.state.get().status).toBe("offline");
    expect(drafts.map.has("s0")).toBe(true);
    server.setDown(false);
    await timers.fire(); // the retry
    expect(sync.state.get().status).toBe("saved");
    expect(drafts.map.size).toBe(0);
  });

  it("a stale save becomes a conflict; the merge saves on top of their version", async () => {
    const e = setup();
    const server = memoryServer(e.get().server);
    server.rows.set("s0", { version: 2, value: step({ clearAction: "Their action." }) });
    const drafts = memoryDrafts();
    const timers = manualTimers();
    const sync = createAutosave(e, { api: server.api, drafts, isValid: () => true, ...timers });
    e.setThoughtPart("state", "My state.");
    await timers.fire();
    expect(sync.state.get().status).toBe("conflict");
    expect(e.get().conflicts.s0).toMatchObject({ version: 2, theirs: { clearAction: "Their action." } });
    expect(drafts.map.get("s0")).toMatchObject({ baseVersion: 1 });

    e.resolveConflict("s0", step({ clearAction: "Their action.", thought: { ...step().thought, state: "My state." } }));
    await timers.fire();
    expect(server.rows.get("s0")).toMatchObject({ version: 3, value: { clearAction: "Their action.", thought: { state: "My state." } } });
    expect(sync.state.get().status).toBe("saved");
  });

  it("invalid values stay local drafts and are not sent", async () => {
    const e = setup();
    const server = memoryServer(e.get().server);
    const drafts = memoryDrafts();
    const timers = manualTimers();
    const sync = createAutosave(e, {
      api: server.api,
      drafts,
      isValid: (_k, v) => !("toolCall" in v) || v.toolCall.action !== "key" || v.toolCall.text !== "",
      ...timers,
    });
    e.setToolCall({ action: "key", text: "" });
    await timers.fire();
    expect(sync.state.get().status).toBe("invalid");
    expect(server.rows.get("s0")!.version).toBe(1);
    expect(drafts.map.has("s0")).toBe(true);
  });

  it("restores drafts at load: same base is an edit to save, an older base a conflict to merge", () => {
    const drafts = memoryDrafts();
    const mine = step({ clearAction: "Mine." });
    const theirs = step({ clearAction: "Theirs." });
    drafts.set("s0", { baseVersion: 3, base: step(), value: mine, at: 0 });
    drafts.set("s1", { baseVersion: 1, base: step(), value: mine, at: 0 });
    drafts.set("s2", { baseVersion: 1, base: step(), value: step(), at: 0 });
    const server = { s0: { version: 3, value: step() }, s1: { version: 2, value: theirs }, s2: { version: 2, value: step() } };
    const r = restoreDrafts({ trajectory: traj, steps: { s0: step(), s1: theirs, s2: step() } }, server, drafts);
    expect(r.doc.steps.s0).toEqual(mine);
    expect(r.doc.steps.s1).toEqual(mine);
    expect(r.conflicts).toEqual({ s1: { base: step(), theirs, version: 2 } });
    expect(r.server.s1).toEqual({ version: 1, value: step() });
    expect(drafts.map.has("s2")).toBe(false);
  });

  it("drops a draft that does not parse (an older studio's, or damaged) instead of loading it", () => {
    const drafts = memoryDrafts();
    drafts.set("s0", { baseVersion: 1, base: step(), value: { thought: "not the right shape" } as unknown as StepAnnotation, at: 0 });
    const server = { s0: { version: 1, value: step() } };
    const r = restoreDrafts({ trajectory: traj, steps: { s0: step() } }, server, drafts);
    expect(r.doc.steps.s0).toEqual(step());
    expect(drafts.map.has("s0")).toBe(false);
  });
});

describe("box tool snapping to the screen's elements", () => {
  // A settings row inside a list inside the screen: the row's switch is the innermost element.
  const SCREEN: Box = [0, 0, 1080, 2400];
  const LIST: Box = [0, 300, 1080, 1500];
  const ROW: Box = [0, 600, 1080, 800];
  const SWITCH: Box = [880, 650, 1040, 750];
  const OTHER_ROW: Box = [0, 800, 1080, 1000];
  const targets = [SCREEN, LIST, ROW, SWITCH, OTHER_ROW];

  it("a click inside elements takes the smallest one containing the point, as one undo entry", () => {
    const e = setup({ targets });
    e.setBox([10, 10, 50, 50]);
    e.setTool("box");
    e.pointerDown(at(e, 950, 700));
    e.pointerMove(at(e, 951, 701)); // hand jitter well under the click distance
    e.pointerUp(at(e, 951, 701));
    expect(cur(e).box).toEqual(SWITCH);
    expect(e.get().isBoxSelected).toBe(true);
    expect(e.get().history.past.map((h) => h.label)).toEqual(["history.box", "history.box"]);
    e.undo();
    expect(cur(e).box).toEqual([10, 10, 50, 50]);
    e.redo();
    expect(cur(e).box).toEqual(SWITCH);
  });

  it("the cycle keys walk out to the enclosing elements of the click point and back, one undo entry each", () => {
    const e = setup({ targets });
    e.setTool("box");
    e.pointerDown(at(e, 950, 700));
    e.pointerUp(at(e, 950, 700));
    expect(cur(e).box).toEqual(SWITCH);
    expect(fire(e, key("]"))).toBe("box.parent");
    expect(cur(e).box).toEqual(ROW); // not OTHER_ROW: it does not contain the point
    fire(e, key("]"));
    expect(cur(e).box).toEqual(LIST);
    fire(e, key("]"));
    expect(cur(e).box).toEqual(SCREEN);
    fire(e, key("]")); // past the outermost, round to the innermost
    expect(cur(e).box).toEqual(SWITCH);
    expect(fire(e, key("["))).toBe("box.child");
    expect(cur(e).box).toEqual(SCREEN);
    expect(e.get().history.past).toHaveLength(6);
    e.undo();
    expect(cur(e).box).toEqual(SWITCH);
    e.undo();
    expect(cur(e).box).toEqual(SCREEN);
  });

  it("without a click on the step, the cycle keys start from the box's centre", () => {
    const e = setup({ targets });
    e.setBox([900, 660, 1000, 740]); // drawn by hand inside the switch
    fire(e, key("]"));
    expect(cur(e).box).toEqual(SWITCH); // the first target larger than the hand-drawn box
    fire(e, key("]"));
    expect(cur(e).box).toEqual(ROW);
  });

  it("a drag still draws a freehand box; a click outside every element changes nothing", () => {
    const e = setup({ targets: [SWITCH] });
    e.setTool("box");
    e.pointerDown(at(e, 100, 100));
    e.pointerMove(at(e, 200, 150));
    e.pointerUp(at(e, 300, 200));
    expect(cur(e).box).toEqual([100, 100, 300, 200]);
    // A drag that starts inside an element draws too, even when it ends back near where it began.
    e.pointerDown(at(e, 900, 700));
    e.pointerMove(at(e, 1000, 740));
    e.pointerUp(at(e, 1000, 740));
    expect(cur(e).box).toEqual([900, 700, 1000, 740]);
    const before = e.get().history.past.length;
    e.pointerDown(at(e, 500, 2000));
    e.pointerUp(at(e, 500, 2000));
    expect(cur(e).box).toEqual([900, 700, 1000, 740]);
    expect(e.get().history.past).toHaveLength(before);
  });

  it("steps without elements have no cycle keys, and a read-only editor never snaps", () => {
    const e = setup({ targets });
    e.next();
    expect(fire(e, key("]"))).toBeUndefined();
    e.prev();
    e.setReadOnly(true);
    e.setTool("box");
    e.pointerDown(at(e, 950, 700));
    e.pointerUp(at(e, 950, 700));
    expect(cur(e).box).toBeNull();
    expect(fire(e, key("]"))).toBeUndefined();
  });

  it("the reward preview reads the snapped box at once", () => {
    const e = setup({ targets });
    e.setActionType("click");
    e.setTool("box");
    e.pointerDown(at(e, 950, 700));
    e.pointerUp(at(e, 950, 700));
    const model = { toolCall: { action: "click" as const, coordinate: [960, 700] as [number, number] } };
    expect(rewardPreview(model, cur(e), [], SIZE)).toMatchObject({ hit: true, mobileR1: 1 });
    e.pointerDown(at(e, 100, 900)); // the other row: the model's point is outside it now
    e.pointerUp(at(e, 100, 900));
    expect(cur(e).box).toEqual(OTHER_ROW);
    expect(rewardPreview(model, cur(e), [], SIZE)).toMatchObject({ hit: false, mobileR1: 0 });
  });

  it("snap targets are the step's elements when it has any, else its candidate boxes, each box once", () => {
    expect(snapTargetsOf({ elements: [{ bbox: ROW }, { bbox: ROW, text: "Wi-Fi" }], candidateBoxes: [SWITCH] })).toEqual([ROW]);
    expect(snapTargetsOf({ elements: [], candidateBoxes: [SWITCH, LIST] })).toEqual([SWITCH, LIST]);
    expect(snapTargetsOf({ candidateBoxes: [] })).toEqual([]);
  });
});

describe("reward preview", () => {
  const original = { toolCall: { action: "click" as const, coordinate: [540, 1200] as [number, number] }, thought: "t", clearAction: "a" };
  it("scores the model's point against the corrected box under both rules", () => {
    const hit = rewardPreview(
      original,
      step({ toolCall: { action: "click", coordinate: [545, 1210] }, box: [500, 1150, 600, 1250] }),
      [],
      SIZE,
    )!;
    expect(hit).toMatchObject({ mobileR1: 1, hit: true });
    expect(hit.uiS1).toBeCloseTo(1);
    const miss = rewardPreview(
      original,
      step({ toolCall: { action: "click", coordinate: [100, 300] }, box: [50, 250, 150, 350] }),
      [],
      SIZE,
    )!;
    expect(miss).toMatchObject({ mobileR1: 0, hit: false });
    expect(miss.uiS1Action).toBe(0.5); // right type, wrong place
  });
});
