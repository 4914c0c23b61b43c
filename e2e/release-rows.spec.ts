import sharp from "sharp";
import type { TrajectoryView } from "@/lib/domain/views";
import { storageStateFor } from "./accounts";
import { importViaApi } from "./datasets";
import { expect, test } from "./fixtures";
import { EditorPage } from "./pages/editor-page";

// A row in the Mobile-R1 release's real shape, with an icon tap stored as system_button "Tap" (no point), imports
// whole; the editor names the tap on step 1 and submit lists it; a click on the screenshot places the point.
const RUN = Date.now().toString(36);
const INSTRUCTION = `打开笔记应用 ${RUN}`;

function releaseRow() {
  const call = (args: Record<string, unknown>) => JSON.stringify({ name: "mobile_use", arguments: args });
  const step = (image: string, thought: string, subtask: string, args: Record<string, unknown>) => ({
    image,
    thought,
    subtask,
    action: call(args),
    response: `<think>\n${thought}\n</think><action>\n${subtask}\n</action><tool_call>\n${JSON.stringify(call(args))}\n</tool_call>`,
  });
  return {
    app_name: "笔记",
    trajectory_length: 2,
    instruction: INSTRUCTION,
    system: `# Tools\n\n<tools>\n{"type": "function", "function": {"name_for_human": "mobile_use", "name": "mobile_use"}}\n</tools>\n用户任务: ${INSTRUCTION}`,
    image_width: 1080,
    image_height: 2400,
    trajectory: [
      step(`r${RUN}_0.png`, "现在在手机主屏,下一步要点击“笔记”图标进入“笔记”首页", "点击“笔记”应用图标。", {
        action: "system_button",
        button: "Tap",
      }),
      step(`r${RUN}_1.png`, "笔记已打开,任务完成", "结束任务。", { action: "terminate", status: "success" }),
    ],
  };
}

test("a release row with a tap that has no point imports whole; the editor names the tap until a click places it @storage", async ({
  browser,
  request,
  baseURL,
}) => {
  const form = new FormData();
  form.append("format", "mobile-r1");
  form.append("files", new Blob([`${JSON.stringify(releaseRow())}\n`]), "data.jsonl");
  for (const [i, colour] of ["#dfe8f5", "#f5e9df"].entries()) {
    const png = await sharp({ create: { width: 1080, height: 2400, channels: 3, background: colour } })
      .png()
      .toBuffer();
    form.append("files", new Blob([new Uint8Array(png)]), `r${RUN}_${i}.png`);
  }
  const job = await importViaApi(request, baseURL, form);
  expect(job).toMatchObject({ state: "succeeded", trajectories: 1, steps: 2 });

  const list = (await (await request.get(`/api/trajectories?q=${encodeURIComponent(RUN)}`)).json()) as { rows: { id: string }[] };
  const id = list.rows[0]!.id;
  // The admin hands it to the annotator, who corrects it in their own browser.
  const assigned = await request.post("/api/assignments", {
    headers: { origin: baseURL! },
    data: { trajectoryIds: [id], assignee: "annotator@studio.local" },
  });
  expect(assigned.status(), await assigned.text()).toBe(200);
  const context = await browser.newContext({ baseURL, storageState: storageStateFor("annotator") });
  const page = await context.newPage();
  const annotator = context.request;
  const editor = new EditorPage(page);
  await editor.goto(id, 1);
  await editor.waitForScreenshot();
  const named = page
    .getByRole("region", { name: "Tool call" })
    .getByText("The model tapped without a point; click where it should have tapped.");
  await expect(named).toBeVisible();

  // Submit lists the step by number.
  await editor.setOutcome("Success");
  await editor.submitButton.click();
  // Step 1's line names the tap (beside the thought parts and verdict still to do); step 2's does not.
  const blocked = page.getByRole("alert", { name: "Not ready to submit yet:" });
  await expect(blocked.getByRole("listitem").filter({ hasText: /^Step 1:/ })).toContainText(
    "The model tapped without a point; click where it should have tapped.",
  );
  await expect(blocked.getByRole("listitem").filter({ hasText: /^Step 2:/ })).not.toContainText("tapped without a point");

  // A click on the screenshot places the point, with the submit list still open (it lies over the work area and
  // never moves the canvas): the problem is gone, and the save reaches the server.
  await expect(blocked).toBeVisible();
  await editor.tapAt([540, 1300]);
  await expect(named).toBeHidden();
  await editor.waitSaved();
  const saved = (await (await annotator.get(`/api/trajectories/${id}`)).json()) as TrajectoryView;
  const call = saved.steps[0]!.toolCall;
  expect(call.action).toBe("click");
  expect(call.action === "click" && call.coordinate).toBeTruthy();
  if (call.action === "click" && call.coordinate) {
    expect(Math.abs(call.coordinate[0] - 540)).toBeLessThanOrEqual(2);
    expect(Math.abs(call.coordinate[1] - 1300)).toBeLessThanOrEqual(2);
  }
  // The model's output stays as it was imported.
  expect(saved.steps[0]!.original.toolCall).toEqual({ action: "click", coordinate: null });
  await context.close();
});
