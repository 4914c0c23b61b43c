// Test support: an export whose steps pair a model's original output with what a person left, for the
// commands that train on the pair (dpo, critic, prm). Real cookbook screenshots, synthetic trajectories.
import type { ToolCall } from "@/lib/domain/tool-call";
import type { CanonicalStep, Verdict } from "@/lib/domain/trajectory";
import { EN_SCREENSHOT, loadShot, makeTrajectory, writeExport, ZH_SCREENSHOT, type Shot } from "./test-fixtures";

type Side = { thought: string; clearAction: string; toolCall: ToolCall };

/**
 * One step: the model's output (`model`, kept in `original` with the response it wrote in the studio's layout,
 * original pixels) and the person's changes to it (`person`, defaults: nothing changed).
 */
export function pairedStep(
  index: number,
  shot: Shot,
  model: Side,
  opts: { person?: Partial<Side>; verdict?: Verdict; box?: CanonicalStep["box"] } = {},
): CanonicalStep {
  const person = { ...model, ...opts.person };
  const [state = "", nextAction = "", purpose = ""] = person.thought.split(/(?<=[.。])\s*/);
  return {
    index,
    screenshot: { sha256: shot.sha256, width: shot.width, height: shot.height, file: shot.file },
    original: {
      thought: model.thought,
      clearAction: model.clearAction,
      toolCall: model.toolCall,
      response: `<think>\n${model.thought}\n</think>\n<action>\n${model.clearAction}\n</action>\n<tool_call>\n${JSON.stringify({ name: "mobile_use", arguments: model.toolCall })}\n</tool_call>`,
    },
    thought: { state, nextAction, purpose, text: person.thought },
    clearAction: person.clearAction,
    toolCall: person.toolCall,
    box: opts.box ?? null,
    candidateBoxes: [],
    verdict: opts.verdict ?? "good",
  };
}

/** Where each kind of step sits in pairedExport (0-based step indexes). */
export const PAIRED = {
  /** Steps a person changed inside the cut of a kept trajectory: exactly these give preference pairs. */
  changed: [
    ["traj-a", 1],
    ["traj-a", 4],
    ["traj-a", 5],
    ["traj-b", 1],
  ],
  /** traj-a step 5 differs only in punctuation ("Finish the task" / "Finish the task."). */
  punctuationOnly: ["traj-a", 5],
  labels: { "traj-a": [1, -1, -1, 0, 1, 1], "traj-b": [1, -1] },
  firstError: { "traj-a": 2, "traj-b": 2 },
} as const;

/**
 * - traj-a (1080x2400, File Manager): 0 open, right; 1 the model clicked (300, 1500), a person moved it to
 *   (925, 405) and rewrote the clear action (corrected); 2 harmful swipe nobody rewrote; 3 Back, neutral;
 *   4 only the thought reworded; 5 terminate, only a full stop added to the clear action.
 * - traj-b (720x1280, 盒马): 0 click, right; 1 harmful type "牛乃", the person wrote "牛奶"; 2 a changed click
 *   after the cut (cutAfter 1).
 * - traj-c: discarded, one changed step.
 */
export async function pairedExport(): Promise<{ dir: string; en: Shot; zh: Shot }> {
  const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
  const zh = await loadShot(ZH_SCREENSHOT, 720, 1280);
  const a = makeTrajectory(
    [
      pairedStep(0, en, {
        thought: "The home screen is open. Open File Manager. To find the folder.",
        clearAction: "Open File Manager",
        toolCall: { action: "open", text: "File Manager" },
      }),
      pairedStep(
        1,
        en,
        {
          thought: "File Manager is open. Tap the list. To see files.",
          clearAction: "Tap the list",
          toolCall: { action: "click", coordinate: [300, 1500] },
        },
        {
          person: { clearAction: "Tap the MUSIC folder", toolCall: { action: "click", coordinate: [925, 405] } },
          verdict: "corrected",
          box: [850, 350, 1000, 460],
        },
      ),
      pairedStep(
        2,
        en,
        {
          thought: "The MUSIC folder is open. Scroll down. To find the file.",
          clearAction: "Scroll down",
          toolCall: { action: "swipe", coordinate: [540, 1800], coordinate2: [540, 600] },
        },
        { verdict: "harmful" },
      ),
      pairedStep(
        3,
        en,
        {
          thought: "The list scrolled past the file. Go back. To return.",
          clearAction: "Go back",
          toolCall: { action: "system_button", button: "Back" },
        },
        { verdict: "neutral" },
      ),
      pairedStep(
        4,
        en,
        {
          thought: "The file is visible. Tap it. To view it.",
          clearAction: "Tap the file",
          toolCall: { action: "click", coordinate: [540, 700] },
        },
        { person: { thought: "The mp3 file is listed. Tap it. To open it." }, verdict: "corrected" },
      ),
      pairedStep(
        5,
        en,
        {
          thought: "The file is open. Finish. The task is done.",
          clearAction: "Finish the task",
          toolCall: { action: "terminate", status: "success" },
        },
        { person: { clearAction: "Finish the task." }, verdict: "corrected" },
      ),
    ],
    { id: "traj-a", instruction: "Open the file manager and view the mp3 file in MUSIC", app: "File Manager" },
  );
  const b = makeTrajectory(
    [
      pairedStep(0, zh, {
        thought: "当前在首页。点击搜索框。以便搜索。",
        clearAction: "点击搜索框",
        toolCall: { action: "click", coordinate: [632, 1088] },
      }),
      pairedStep(
        1,
        zh,
        { thought: "搜索框已打开。输入商品名。以便搜索。", clearAction: "输入牛乃", toolCall: { action: "type", text: "牛乃" } },
        { person: { clearAction: "输入牛奶", toolCall: { action: "type", text: "牛奶" } }, verdict: "harmful" },
      ),
      pairedStep(
        2,
        zh,
        { thought: "结果已出现。点击第一个。以便加购。", clearAction: "点击第一个", toolCall: { action: "click", coordinate: [100, 100] } },
        { person: { toolCall: { action: "click", coordinate: [360, 400] } }, verdict: "corrected" },
      ),
    ],
    { id: "traj-b", instruction: "在盒马搜索牛奶", app: "盒马", cutAfter: 1 },
  );
  const c = makeTrajectory(
    [
      pairedStep(
        0,
        en,
        { thought: "Wait. Wait. Wait.", clearAction: "Wait", toolCall: { action: "wait", time: 2 } },
        { person: { toolCall: { action: "wait", time: 3 } }, verdict: "corrected" },
      ),
    ],
    { id: "traj-c", isDiscarded: true },
  );
  const dir = await writeExport([a, b, c], [en, zh]);
  return { dir, en, zh };
}
