import type { TrajectoryView } from "@/lib/domain/views";
import { composeThought } from "@/lib/domain/thought";
import { expect, test } from "./fixtures";
import { annotatorContext, seedAnnotatorTask } from "./layout-seed";
import { EditorPage } from "./pages/editor-page";

// The merge after a stale save (409) must never save a wrong thought: fields both tabs changed are questions with
// nothing chosen, Save waits for every answer, and the thought's text is composed from the parts that were chosen.

test("two tabs edit one step: the stale tab's merge asks only what both changed and saves a thought whose text is its parts", async ({
  browser,
  request,
  baseURL,
}) => {
  // Two browsers on one busy machine: opening the editor twice can take a while.
  test.setTimeout(180_000);
  const t = await seedAnnotatorTask(request, baseURL!, "merge", [
    { args: { action: "click", coordinate: [540, 1200] }, colour: "#e3ecd9" },
  ]);
  const stepId = t.steps[0]!.id;
  const contextA = await annotatorContext(browser, baseURL!);
  const contextB = await annotatorContext(browser, baseURL!);
  const a = new EditorPage(await contextA.newPage());
  const b = new EditorPage(await contextB.newPage());
  await a.goto(t.id, 1);
  await b.goto(t.id, 1);

  // Tab A saves: state, purpose and the clear action.
  await a.writeThought({ state: "Alice sees the settings list.", nextAction: "", purpose: "目的A" });
  await a.writeClearAction("Tap the Wi-Fi row.");
  await a.waitSaved();

  // Tab B, still on the old version, changes state, next action and purpose: its save is answered 409.
  // Its saves wait until it has typed all three, so the dialog opens (and takes the focus) after the typing, as for a person.
  let typed!: () => void;
  const isTyped = new Promise<void>((resolve) => (typed = resolve));
  await b.page.route(`**/api/steps/${stepId}/annotation`, async (route) => {
    await isTyped;
    await route.continue();
  });
  const stale = b.page.waitForResponse((r) => r.url().endsWith(`/api/steps/${stepId}/annotation`) && r.request().method() === "PUT");
  await b.writeThought({ state: "Bob sees the home screen.", nextAction: "Tap Settings.", purpose: "目的B" });
  typed();
  expect((await stale).status()).toBe(409);
  const dialog = b.mergeDialog;
  await expect(dialog).toBeVisible();

  // Only what both changed is a question, with nothing chosen; the thought's text is no question at all.
  const state = dialog.getByRole("group", { name: "State" });
  const purpose = dialog.getByRole("group", { name: "Purpose" });
  await expect(dialog.getByRole("group")).toHaveCount(2);
  await expect(dialog.getByRole("radio", { checked: true })).toHaveCount(0);
  await expect(dialog.getByRole("radio", { name: /both/i })).toHaveCount(0);
  await expect(purpose.getByText("目的A", { exact: true })).toBeVisible();
  await expect(purpose.getByText("目的B", { exact: true })).toBeVisible();
  // What one side changed merged on its own: B's next action, A's clear action.
  await expect(dialog.getByText("Merged: yours (only you changed it)")).toHaveCount(1);
  await expect(dialog.getByText("Merged: theirs (only they changed it)")).toHaveCount(1);
  const save = dialog.getByRole("button", { name: "Save merge" });
  await expect(save).toBeDisabled();
  await expect(dialog.getByRole("status")).toHaveText("2 conflicts left to choose");
  await expect(dialog.getByText("Shown once the parts are chosen.")).toBeVisible();

  // By keyboard: focus starts on the first question; Space chooses, Tab goes on to the next question, an arrow key
  // chooses there (theirs: A's purpose).
  await expect(state.getByRole("radio", { name: "Keep mine" })).toBeFocused();
  await b.page.keyboard.press("Space");
  await expect(state.getByRole("radio", { name: "Keep mine" })).toBeChecked();
  await expect(dialog.getByRole("status")).toHaveText("1 conflict left to choose");
  await expect(save).toBeDisabled();
  await b.page.keyboard.press("Tab");
  await expect(purpose.getByRole("radio", { name: "Keep mine" })).toBeFocused();
  await b.page.keyboard.press("ArrowRight");
  await expect(purpose.getByRole("radio", { name: "Keep theirs" })).toBeChecked();
  await expect(dialog.getByRole("status")).toHaveText("Every conflict is chosen.");

  // The state is written anew: an emptied text is no answer yet.
  await state.getByRole("radio", { name: "Write it anew" }).check();
  const written = state.getByRole("textbox", { name: "State: your merged text" });
  await expect(written).toHaveValue("Bob sees the home screen.");
  await written.fill("  ");
  await expect(save).toBeDisabled();
  await expect(dialog.getByRole("status")).toHaveText("1 conflict left to choose");
  await written.fill("Both see the settings list");
  await expect(dialog.getByRole("status")).toHaveText("Every conflict is chosen.");
  const parts = { state: "Both see the settings list", nextAction: "Tap Settings.", purpose: "目的A" };
  await expect(dialog.getByText(composeThought(parts), { exact: true })).toBeVisible();
  await save.focus();
  await b.page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await b.waitSaved();

  // What the server stored: the chosen parts, a text composed of exactly them, nothing twice, nothing of the rejected side.
  const stored = (await (await contextB.request.get(`/api/trajectories/${t.id}`)).json()) as TrajectoryView;
  const step = stored.steps[0]!;
  expect(step.thought).toEqual({ ...parts, text: composeThought(parts) });
  expect(step.thought.text).toBe("Both see the settings list. Tap Settings.目的A。");
  expect(step.thought.text).not.toContain("目的B");
  expect(step.thought.text.split("目的A")).toHaveLength(2);
  expect(step.clearAction).toBe("Tap the Wi-Fi row.");
  await contextA.close();
  await contextB.close();
});
