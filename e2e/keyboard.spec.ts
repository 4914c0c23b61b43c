import type { APIRequestContext, Locator, Page } from "@playwright/test";
import type { StepAnnotation } from "@/lib/domain/annotation";
import type { TrajectoryView } from "@/lib/domain/views";
import { storageStateFor } from "./accounts";
import { expect, test } from "./fixtures";
import { EditorPage } from "./pages/editor-page";

/**
 * Every key the help overlay lists, pressed with the focus in a sample of the editor's controls,
 * compared against the saved annotation (read back through the API): data changes only where the
 * overlay says it does. Keys come from the rendered overlay (`data-kbd`), so a new shortcut is
 * covered the day it is added, and one with no documented effect below fails the test.
 *
 * The whole matrix (every kind of control, each canvas tool, with and without the box selected) runs
 * against the editor engine and the key policy in lib/canvas/key-matrix.test.ts; this spec keeps the
 * end-to-end sample that proves the browser, the one key listener and the saves agree with it: a text
 * field, the canvas with the box tool, and the page body.
 */
test.use({ storageState: storageStateFor("annotator") });

/** The saved data of a trajectory, as the API answers it: what a trainer would get. */
type Data = {
  trajectory: { outcome: string | null; isDiscarded: boolean; cutAfter: number | null; status: string };
  steps: StepAnnotation[];
};

function dataOf(t: TrajectoryView): Data {
  return {
    trajectory: { outcome: t.outcome, isDiscarded: t.isDiscarded, cutAfter: t.cutAfter, status: t.status },
    steps: t.steps.map((s) => ({ thought: s.thought, clearAction: s.clearAction, toolCall: s.toolCall, box: s.box, verdict: s.verdict })),
  };
}

/** Paths ("trajectory.outcome", "steps.1.toolCall.action") whose values differ. */
function changedPaths(a: unknown, b: unknown, at = ""): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) === !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) =>
      changedPaths((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], at ? `${at}.${k}` : k),
    );
  }
  return [at];
}

/** The step the matrix works on (the second: both neighbours exist). */
const STEP = 1;
const BOX: [number, number, number, number] = [200, 500, 600, 700];
const BASE_STEP: StepAnnotation = {
  thought: {
    state: "A list of results.",
    nextAction: "Tap the first result.",
    purpose: "To open it.",
    text: "A list of results. Tap the first result. To open it.",
  },
  clearAction: "Tap the first result.",
  toolCall: { action: "click", coordinate: [400, 600] },
  box: BOX,
  verdict: "unreviewed",
};

type Context = {
  name: string;
  /** Focus the control (without changing it or the box selection). */
  focus: (page: Page, isBoxSelected: boolean) => Promise<void>;
  /** Typing goes into this control; these saved paths may change when a character is typed. */
  typesInto?: { paths: RegExp; accepts: (key: string) => boolean };
  /** The canvas has the focus with this tool: navigation and tool keys are also checked for their effect. */
  canvasTool?: "box";
};

const form = (page: Page) => page.getByRole("complementary", { name: "Step annotation" });
const focusOn = (l: Locator) => l.evaluate((el: HTMLElement) => el.focus());

const CONTEXTS: Context[] = [
  {
    name: "text input (clear action)",
    focus: (p) => focusOn(form(p).getByRole("textbox", { name: /^Clear action/ })),
    typesInto: { paths: /^steps\.1\.clearAction$/, accepts: (k) => k.length === 1 },
  },
  // The canvas with the box tool (each tool is in the unit matrix): keys do what the help says whatever is selected.
  {
    name: "canvas (box tool)",
    canvasTool: "box",
    focus: async (p: Page, isBoxSelected: boolean) => {
      // The select tool's click pans by nothing on an empty spot, and selects the box on the box: no data changes.
      await p
        .getByRole("toolbar", { name: "Tools" })
        .getByRole("button", { name: /^Select/ })
        .click();
      if (isBoxSelected) {
        const [x, y] = await new EditorPage(p).toScreen([(BOX[0] + BOX[2]) / 2, (BOX[1] + BOX[3]) / 2]);
        await p.mouse.click(x, y);
      } else {
        const stage = await p.locator(".step-canvas-stage").boundingBox();
        await p.mouse.click(stage!.x + 8, stage!.y + stage!.height - 8);
      }
      // Then the box tool by its key (a tool change keeps the selection; B also selects the box, Esc drops it).
      await p.keyboard.press("b");
      if (!isBoxSelected) await p.keyboard.press("Escape");
      expect((await engine(p)).tool).toBe("box");
    },
  },
  { name: "page body", focus: (p) => p.evaluate(() => (document.activeElement as HTMLElement | null)?.blur()) },
];

/** A registry key spec ("mod+shift+z", "?", "+") as Playwright presses it. */
function toPlaywright(spec: string): string {
  if (spec === "+") return "Shift+Equal";
  const parts = spec.split("+");
  const key = parts.pop()!;
  const named: Record<string, string> = { "=": "Equal", "-": "Minus", "?": "Shift+Slash" };
  const mods = parts.map((m) => ({ mod: "Control", shift: "Shift", alt: "Alt" })[m] ?? m);
  const main = named[key] ?? (key.length === 1 && mods.includes("Shift") ? key.toUpperCase() : key);
  return [...mods, main].join("+");
}

/** The character a key types into a text field, if any. */
function typedChar(spec: string): string | null {
  if (spec.startsWith("mod+")) return null;
  if (spec === "?" || spec === "+" || spec === "=" || spec === "-") return spec;
  const key = spec.replace(/^shift\+/, "");
  return key.length === 1 ? (spec.startsWith("shift+") ? key.toUpperCase() : key) : null;
}

type Listed = { spec: string; ids: string[] };

/**
 * What the overlay documents for a shortcut, as the saved paths it may change and a check of the
 * new value. `isBoxSelected`: the arrows and Delete act on the box only while it is selected.
 */
function documented(
  ids: string[],
  before: Data,
  isBoxSelected: boolean,
  redoTarget: Data | null,
): { paths: RegExp | null; check?: (after: Data) => void } {
  const ok = (paths: RegExp | null, check?: (after: Data) => void) => ({ paths, check });
  // Rows that share keys list several ids: the first that applies in this state wins, as in the registry.
  for (const id of ids) {
    // The cycle keys act whenever the step has elements or candidate boxes to snap to, selected box or
    // not, and change only the box (to another snap target: e2e/element-snap.spec.ts checks which).
    if (id === "box.parent" || id === "box.child") return ok(/^steps\.1\.box(\.\d)?$/);
    if (/^box\./.test(id)) {
      if (!isBoxSelected) continue;
      if (id === "box.delete") return ok(/^steps\.1\.box$/, (a) => expect(a.steps[STEP]!.box).toBeNull());
      return ok(/^steps\.1\.box\.\d$/, (a) => {
        const [x1, y1, x2, y2] = a.steps[STEP]!.box!;
        expect(x2 - x1, "a nudge keeps the size").toBe(BOX[2] - BOX[0]);
        expect(y2 - y1).toBe(BOX[3] - BOX[1]);
      });
    }
    if (/^(step|tool|zoom|view)\./.test(id) || ["help", "cancel", "save", "submit", "thought.focus"].includes(id)) return ok(null);
    // The fast lane's keys change the mode and the mark, never the saved data until a hand-in (e2e/fast-lane.spec.ts);
    // out of the lane E edits the thought and Ctrl+Enter submits, as documented under their own rows.
    if (id.startsWith("lane.")) return ok(null);
    // Accepts a model suggestion only while one is shown (e2e/suggest.spec.ts); none is shown here.
    if (id === "suggest.accept") return ok(null);
    if (id.startsWith("action.")) {
      const action = id.slice("action.".length);
      if (before.steps[STEP]!.toolCall.action === action) return ok(null);
      return ok(/^steps\.1\.toolCall(\..*)?$/, (a) => expect(a.steps[STEP]!.toolCall.action).toBe(action));
    }
    if (id.startsWith("verdict."))
      return ok(/^steps\.1\.verdict$/, (a) => expect(a.steps[STEP]!.verdict).toBe(id.slice("verdict.".length)));
    if (id === "trajectory.cut") return ok(/^trajectory\.cutAfter$/, (a) => expect(a.trajectory.cutAfter).toBe(STEP));
    if (id === "trajectory.discard")
      return ok(/^trajectory\.isDiscarded$/, (a) => expect(a.trajectory.isDiscarded).toBe(!before.trajectory.isDiscarded));
    if (id.startsWith("outcome."))
      return ok(/^trajectory\.outcome$/, (a) => expect(a.trajectory.outcome).toBe(id.slice("outcome.".length)));
    // Nothing was done before the press (every change is undone at once), so undo has nothing to take back.
    if (id === "history.undo") return ok(null);
    if (id === "history.redo") return redoTarget ? ok(/.*/, (a) => expect(a).toEqual(redoTarget)) : ok(null);
    throw new Error(`the test documents no effect for shortcut ${id}: add it to documented()`);
  }
  return ok(null);
}

/**
 * What a navigation or tool key does to the view, by the first shortcut of its row that applies (as in the
 * registry: the arrows nudge a selected box, J and K always move between steps).
 */
function documentedView(
  ids: string[],
  isBoxSelected: boolean,
): { kind: "step"; to: (count: number) => number } | { kind: "tool"; to: string } | null {
  for (const id of ids) {
    if (/^box\./.test(id) && id !== "box.parent" && id !== "box.child" && !isBoxSelected) continue;
    if (id === "step.next") return { kind: "step", to: () => STEP + 1 };
    if (id === "step.prev") return { kind: "step", to: () => STEP - 1 };
    if (id === "step.first") return { kind: "step", to: () => 0 };
    if (id === "step.last") return { kind: "step", to: (n) => n - 1 };
    if (id.startsWith("tool.")) return { kind: "tool", to: id.slice("tool.".length) };
    return null;
  }
  return null;
}

async function saved(request: APIRequestContext, id: string): Promise<Data> {
  const res = await request.get(`/api/trajectories/${id}`);
  expect(res.ok()).toBe(true);
  return dataOf((await res.json()) as TrajectoryView);
}

type EngineDoc = {
  trajectory: { outcome: string | null; isDiscarded: boolean; cutAfter: number | null };
  steps: Record<string, StepAnnotation>;
};
type EditorWindow = {
  __studioEditor?: {
    flush: () => Promise<void>;
    sync: () => { status: string };
    state: () => {
      isBoxSelected: boolean;
      isHelpOpen: boolean;
      mode: "full" | "fast";
      stepIndex: number;
      tool: string;
      steps: { id: string }[];
      doc: EngineDoc;
      history: { past: unknown[] };
    };
  };
};
const engine = (page: Page) => page.evaluate(() => (window as unknown as EditorWindow).__studioEditor!.state());
const flush = (page: Page) => page.evaluate(() => (window as unknown as EditorWindow).__studioEditor!.flush());

/** Open the annotator's task with step 2 set to a tap with its box and no verdict, nothing else decided. */
async function openTask(page: Page, request: APIRequestContext, baseURL: string): Promise<string> {
  const next = await request.post("/api/tasks/next", { headers: { origin: baseURL } });
  expect(next.ok()).toBe(true);
  const { id } = (await next.json()) as { id: string };
  const t = (await (await request.get(`/api/trajectories/${id}`)).json()) as TrajectoryView;
  expect(t.steps.length).toBeGreaterThanOrEqual(3);
  const step = t.steps[STEP]!;
  const put = await request.put(`/api/steps/${step.id}/annotation`, {
    headers: { origin: baseURL },
    data: { ...BASE_STEP, version: step.version },
  });
  expect(put.ok(), await put.text()).toBe(true);
  const tr = await request.put(`/api/trajectories/${id}/annotation`, {
    headers: { origin: baseURL },
    data: { outcome: null, isDiscarded: false, cutAfter: null, version: t.version },
  });
  expect(tr.ok(), await tr.text()).toBe(true);
  await new EditorPage(page).goto(id, STEP + 1);
  return id;
}

/** The keys the help overlay lists, with the shortcut ids of their row. */
async function listedKeys(page: Page): Promise<Listed[]> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("Shift+Slash");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  const listed = await help.locator("[data-shortcut]").evaluateAll((rows) =>
    rows.flatMap((row) =>
      [...row.querySelectorAll("[data-kbd]")].map((k) => ({
        spec: k.getAttribute("data-kbd")!,
        ids: row.getAttribute("data-shortcut")!.split(" "),
      })),
    ),
  );
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
  return listed;
}

for (const context of CONTEXTS) {
  test(`keys with the focus in a ${context.name} change only what the help overlay documents`, async ({ page, request, baseURL }) => {
    test.setTimeout(300_000);
    const id = await openTask(page, request, baseURL!);
    const listed = await listedKeys(page);
    expect(listed.length).toBeGreaterThan(40);
    const base = await saved(request, id);
    let redoTarget: Data | null = null;
    const boxKeys = listed.filter((l) => l.ids.some((i) => i.startsWith("box.")));
    const runs = [...listed.map((l) => ({ ...l, isBoxSelected: false })), ...boxKeys.map((l) => ({ ...l, isBoxSelected: true }))];

    for (const run of runs) {
      // Space is the pan gesture (held over the canvas, never fired by the page listener); on a focused
      // button, checkbox or option it keeps its native meaning (press, tick, pick), which the overlay's note documents.
      if (run.ids.includes("view.pan") && /^(checkbox|button|radio)/.test(context.name)) continue;
      const label = `${context.name}: ${run.spec} (${run.ids.join(", ")})${run.isBoxSelected ? " with the box selected" : ""}`;
      // Back to the same place: step 2, help closed, nothing selected, then the box selected if asked.
      if ((await engine(page)).isHelpOpen) await page.keyboard.press("Escape");
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      // Shift+L (the fast lane) switched the mode: back to full correction, where the other keys are documented.
      if ((await engine(page)).mode === "fast") await page.keyboard.press("Shift+L");
      if ((await engine(page)).stepIndex !== STEP)
        await page
          .getByRole("navigation", { name: "Steps" })
          .getByRole("button", { name: /^Step 2:/ })
          .click();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press("Escape");
      if (run.isBoxSelected) await page.keyboard.press("b");
      await context.focus(page, run.isBoxSelected);
      expect((await engine(page)).isBoxSelected, label).toBe(run.isBoxSelected);

      const undoSteps = async () => (await engine(page)).history.past.length;
      const undoBefore = await undoSteps();
      await page.keyboard.press(toPlaywright(run.spec));
      await flush(page);
      let after = await saved(request, id);
      // An edit the domain rejects (a `key` call with no text yet) stays in the editor, marked
      // "invalid", until it is completed: judge the editor's document then, and nothing may be saved.
      const local = await page.evaluate(() => {
        const e = (window as unknown as EditorWindow).__studioEditor!;
        const s = e.state();
        return { status: e.sync()?.status, trajectory: s.doc.trajectory, steps: s.steps.map((m) => s.doc.steps[m.id]!) };
      });
      if (local.status === "invalid") {
        expect(changedPaths(base, after), `${label}: an invalid edit is not saved`).toEqual([]);
        after = { trajectory: { ...local.trajectory, status: after.trajectory.status }, steps: local.steps };
      } else {
        expect(local.status, label).toBe("saved");
      }
      const changed = changedPaths(base, after);

      const char = context.typesInto ? typedChar(run.spec) : null;
      if (context.typesInto && char !== null) {
        // In a text field a character is typed into that field, and only there.
        const isAccepted = context.typesInto.accepts(char);
        expect(
          changed.filter((p) => !context.typesInto!.paths.test(p)),
          label,
        ).toEqual([]);
        if (isAccepted) expect(changed.length, `${label}: the character was typed`).toBeGreaterThan(0);
        else expect(changed, label).toEqual([]);
      } else if (context.typesInto && !run.spec.startsWith("mod+")) {
        // Arrows, Home/End, Escape move the caret or leave; Delete/Backspace erase in the field.
        const erases = run.spec === "Delete" || run.spec === "Backspace";
        expect(
          changed.filter((p) => !(erases && context.typesInto!.paths.test(p))),
          label,
        ).toEqual([]);
      } else {
        const doc = documented(run.ids, base, run.isBoxSelected, redoTarget);
        expect(
          changed.filter((p) => !doc.paths?.test(p)),
          `${label}: changed beyond what is documented`,
        ).toEqual([]);
        if (doc.check) {
          expect(changed.length, `${label}: the documented change happened`).toBeGreaterThan(0);
          doc.check(after);
        }
      }

      // On the canvas and the page, the navigation and tool keys do what the help says, whatever the tool and the selection.
      if (context.canvasTool || context.name === "page body") {
        const view = documentedView(run.ids, run.isBoxSelected);
        if (view) {
          const st = await engine(page);
          if (view.kind === "step") expect(st.stepIndex, `${label}: moves to the step the help names`).toBe(view.to(st.steps.length));
          else expect(st.tool, `${label}: picks the tool the help names`).toBe(view.to);
        }
      }

      // A press that changes nothing leaves nothing to undo (or the next Ctrl+Z would seem to do nothing).
      if (changed.length === 0 && !run.ids.some((i) => i.startsWith("history.")))
        expect(await undoSteps(), `${label}: no undo step for no change`).toBe(undoBefore);

      if (changed.length > 0) {
        // Undo (from the page) takes the change back, in the saved data too.
        redoTarget = after;
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.keyboard.press("Control+z");
        await flush(page);
        expect(await saved(request, id), `${label}: undo restores the saved data`).toEqual(base);
      }
    }
  });
}
