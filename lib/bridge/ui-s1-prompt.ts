/**
 * UI-S1's model input for one step, byte for byte as its semi-online trainer builds it (X-PLUG/MobileAgent,
 * UI-S1, commit 11cea575561fb7800b5fb6b6cafa56f7a91de11f, MIT licence, "Copyright (c) 2022 mPLUG"):
 * - the formatter `JsonFormat(RAW_SPACE, add_thought=True, force_add_thought=True)` of
 *   `verl/utils/dataset/universal_multiround.py` (StdTrajectory; actions_only None, hint False);
 * - its system prompt: `MOBILE_USE.format(OUTPUT_FORMAT['thought_action'], generate_prompt(space, actions_only))`
 *   (`x/data/agent/json.py`). gen_next_round passes actions_only (None) in generate_prompt's add_thought
 *   position, so the examples in the prompt carry no `<think>` although the output format asks for it;
 * - the turns `gen_next_round` adds step after step, each earlier step answered by `format_response`
 *   (what `MultiRoundGenerator.apply_response` patches in after a miss, and what a model that answered
 *   right wrote), then `slim_messages(messages, num_image_limit=2)` (`x/qwen/data_format.py`), as
 *   `QwenMessages2Inputs` does before the processor: only the last two screenshots stay;
 * - coordinates in each answer are in that step's RESIZED frame: `deal_with_coordinate` computes
 *   `round(x * (resized_width / width))` (`x/data/agent/base.py`, `x/qwen/image.py`), in that order.
 * The prompt texts below are the upstream strings (MIT). Vectors: vectors/ui-s1-prompt-vectors.json.
 */
import {
  framePair,
  resizeToFactor,
  roundHalfEven,
  toConventionPoint,
  QWEN_FACTOR,
  type CoordinateConvention,
  type FramePair,
  type Point,
  type Size,
} from "@/lib/domain/geometry";
import { trainableCall, type ToolCall } from "@/lib/domain/tool-call";
import type { CanonicalStep } from "@/lib/domain/trajectory";
import { resolveScreenshot, type ExportDir } from "./export-reader";
import { IMAGE_TAG, promptMessages, type ChatMessage, type FrameOptions, type StepSample } from "./samples";

// ---------------------------------------------------------------------------------------------
// RAW_SPACE (x/data/agent/space/std_space.py) and generate_prompt (x/data/agent/json.py)
// ---------------------------------------------------------------------------------------------

export type UiS1ActionSpace = {
  action_space: { action: string; arguments: string[]; action_desc: string }[];
  argument_space: { argument: string; enum: string[] | null; argument_desc: string }[];
};

export const UI_S1_RAW_SPACE: UiS1ActionSpace = {
  action_space: [
    { action: "key", arguments: ["text"], action_desc: "Perform a key event on the mobile device using adb's `keyevent` syntax." },
    { action: "click", arguments: ["coordinate"], action_desc: "Click the point on the screen with specified (x, y) coordinates." },
    {
      action: "long_press",
      arguments: ["coordinate", "time"],
      action_desc: "Press the point on the screen with specified (x, y) coordinates for a specified number of seconds.",
    },
    {
      action: "swipe",
      arguments: ["coordinate", "coordinate2"],
      action_desc: "Swipe from starting point with specified (x, y) coordinates to endpoint with specified (x2, y2) coordinates.",
    },
    { action: "type", arguments: ["text"], action_desc: "Input the specified text into the activated input box." },
    { action: "answer", arguments: ["text"], action_desc: "Output the specified answer." },
    { action: "system_button", arguments: ["button"], action_desc: "Press the specified system button: Back, Home, Menu, or Enter." },
    { action: "open", arguments: ["text"], action_desc: "Open an application on the device specified by text." },
    { action: "wait", arguments: ["time"], action_desc: "Wait for a specified number of seconds for changes to occur." },
    {
      action: "terminate",
      arguments: ["status"],
      action_desc: "Terminate the current task and report its completion status: success or failure.",
    },
  ],
  argument_space: [
    { argument: "coordinate", enum: null, argument_desc: "(x, y): The x and y pixels coordinates from the left and top edges." },
    {
      argument: "coordinate2",
      enum: null,
      argument_desc: "(x, y): The x and y pixels coordinates from the left and top edges for the endpoint of a swipe.",
    },
    { argument: "text", enum: null, argument_desc: "Text input required by actions like `key`, `type`, `answer`, and `open`." },
    { argument: "time", enum: null, argument_desc: "The time in seconds required by actions like `long_press` and `wait`." },
    {
      argument: "button",
      enum: ["Back", "Home", "Menu", "Enter"],
      argument_desc: "System buttons available for pressing: Back, Home, Menu, or Enter.",
    },
    { argument: "status", enum: ["success", "failure"], argument_desc: "The completion status of a terminated task." },
  ],
};

/**
 * RAW_SPACE for rows in `coords`: UI-S1's own under qwen25-abs; under qwen3-rel1000 the two coordinate
 * arguments say what the model is asked for (UI-S1 has no relative prompt, so this wording is the studio's,
 * in the terms GUI-Owl 1.5's prompt uses: a 1000x1000 screen).
 */
export function uiS1SpaceFor(coords: CoordinateConvention): UiS1ActionSpace {
  if (coords === "qwen25-abs") return UI_S1_RAW_SPACE;
  const relative =
    "(x, y): The x and y coordinates from the left and top edges, as integers from 0 to 1000 relative to the screen (a 1000x1000 screen)";
  return {
    ...UI_S1_RAW_SPACE,
    argument_space: UI_S1_RAW_SPACE.argument_space.map((a) =>
      a.argument === "coordinate"
        ? { ...a, argument_desc: `${relative}.` }
        : a.argument === "coordinate2"
          ? { ...a, argument_desc: `${relative} for the endpoint of a swipe.` }
          : a,
    ),
  };
}

/** The actions UI-S1's system prompt offers (every studio action, `answer` included). */
export const UI_S1_PROMPT_ACTIONS: readonly string[] = UI_S1_RAW_SPACE.action_space.map((a) => a.action);

/** generate_prompt(space, add_thought) with actions_only None. */
export function uiS1GeneratePrompt(space: UiS1ActionSpace, addThought: boolean): string {
  const parts = ["You can perform the following actions:"];
  for (const a of space.action_space) parts.push(`- ${a.action}: ${a.action_desc}`);
  parts.push("\nThe arguments you can use are:");
  for (const g of space.argument_space) {
    // Python: `if argument['enum']` -- None and [] both leave the sentence out.
    const enumPart = g.enum && g.enum.length > 0 ? ` Possible values: ${g.enum.join(", ")}.` : "";
    parts.push(`- ${g.argument}: ${g.argument_desc}${enumPart}`);
  }
  parts.push("\nFormat your output as a JSON object with the selected action and its arguments at the same level.");
  const examples = space.action_space.slice(0, 2).map((a) => {
    const example: Record<string, string> = { action: a.action };
    for (const arg of a.arguments) example[arg] = "<value>";
    const json = uiS1JsonDumps(example);
    return addThought ? `<think>\n...\n</think>\n<action>\n${json}\n</action>` : `<action>\n${json}\n</action>`;
  });
  parts.push("\nExample outputs:");
  parts.push(...examples);
  return parts.join("\n");
}

/** OUTPUT_FORMAT['thought_action']: with force_add_thought every line can think. */
export const UI_S1_OUTPUT_FORMAT = "```\n<think> ... </think>\n\n<action> ... </action>\n```";

/** MOBILE_USE.format(OUTPUT_FORMAT['thought_action'], generate_prompt(RAW_SPACE, None)), as gen_next_round builds it. */
export function uiS1SystemPrompt(space: UiS1ActionSpace = UI_S1_RAW_SPACE): string {
  return [
    "You are a GUI agent. You are given a task and your action history, with screenshots. You need to perform the next action to complete the task. ",
    "## Output Format",
    "",
    UI_S1_OUTPUT_FORMAT,
    "",
    "## Action Space",
    "",
    uiS1GeneratePrompt(space, false),
    "",
    "## Note",
    "",
    "- Planing the task and explain your reasoning step-by-step in `think` part.",
    "- Write your action in the `action` part according to the action space.",
    "",
  ].join("\n");
}

/** The first user turn's texts (gen_next_round, si == 0); later turns hold only the format line. */
export const UI_S1_FORMAT_INSTRUCT = `Output Format: ${UI_S1_OUTPUT_FORMAT}`;
export const UI_S1_ANSWER_HINT =
  "If the query asks a question, please answer the question through the answer action before terminating the process.\n";

// ---------------------------------------------------------------------------------------------
// Frames and format_response
// ---------------------------------------------------------------------------------------------

/** update_image_size_'s limits (x/qwen/image.py): 1 to 12800 tokens of 28x28 pixels, long side at most 50000. */
export const UI_S1_MIN_PIXELS = 28 * 28;
export const UI_S1_MAX_PIXELS = 12800 * 28 * 28;
const UI_S1_MAX_LONG_SIDE = 50000;

/**
 * make_qwen_image_item / update_image_size_: the size UI-S1's trainer resizes a screenshot to and its
 * token count (`seq_len`). Throws a RangeError where smart_resize raises.
 */
export function uiS1ImageSize(original: Size): { resized: Size; seqLen: number } {
  const { width, height } = original;
  if (height < 2 || width < 2) throw new RangeError(`height:${height} or width:${width} must be larger than factor:${QWEN_FACTOR}`);
  if (Math.max(height, width) / Math.min(height, width) > 200)
    throw new RangeError(`absolute aspect ratio must be smaller than 100, got ${height} / ${width}`);
  const { width: w, height: h } = resizeToFactor(
    { width, height },
    {
      factor: QWEN_FACTOR,
      minPixels: UI_S1_MIN_PIXELS,
      maxPixels: UI_S1_MAX_PIXELS,
      maxLongSide: UI_S1_MAX_LONG_SIDE,
      floorAtFactor: false,
    },
  );
  return { resized: { width: w, height: h }, seqLen: Math.floor((h * w) / (28 * 28)) + 2 };
}

/** deal_with_coordinate for one point: resize_coordinate then round, ratio first (`x * (rw / w)`). */
export function uiS1ResizePoint([x, y]: Point, frames: FramePair): Point {
  return [
    roundHalfEven(x * (frames.resized.width / frames.original.width)),
    roundHalfEven(y * (frames.resized.height / frames.original.height)),
  ];
}

/**
 * A number as Python prints what json.loads made of the JSON text `JSON.stringify` wrote: integers stay
 * ints (same digits); other numbers are floats, which repr writes with an exponent below 1e-4 (`1e-05`).
 */
function pyNumber(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a JSON number: ${n}`);
  if (Number.isInteger(n)) return JSON.stringify(n);
  const [mantissa, exp] = n.toExponential().split("e") as [string, string];
  const e = Number(exp);
  if (e >= -4) return String(n);
  return `${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

/** json.dumps(value, ensure_ascii=False): ", " and ": " separators, the object's key order, Python floats. */
export function uiS1JsonDumps(value: unknown): string {
  if (typeof value === "number") return pyNumber(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(uiS1JsonDumps).join(", ")}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${uiS1JsonDumps(v)}`).join(", ")}}`;
}

/**
 * format_action: the call with coordinate / coordinate2 moved into the resized frame (UI-S1's own arithmetic),
 * or under qwen3-rel1000 into 0..1000 of the screenshot, as JSON.
 */
export function uiS1FormatAction(call: ToolCall, frames: FramePair, coords: CoordinateConvention = "qwen25-abs"): string {
  const move = (p: Point) => (coords === "qwen25-abs" ? uiS1ResizePoint(p, frames) : toConventionPoint(p, coords, frames));
  const out: Record<string, unknown> = { ...call };
  if ("coordinate" in call) out.coordinate = move(call.coordinate);
  if ("coordinate2" in call) out.coordinate2 = move(call.coordinate2);
  return uiS1JsonDumps(out);
}

/**
 * format_response(step, image_ele, add_thought=True): `<think>\n{thought}\n</think>\n<action>\n{json}\n</action>`
 * (the think part only when the step has a thought key; an empty thought still writes it).
 * `call` is in ORIGINAL pixels; `frames` is the step's screenshot frame.
 */
export function uiS1FormatResponse(
  thought: string | null,
  call: ToolCall,
  frames: FramePair,
  coords: CoordinateConvention = "qwen25-abs",
): string {
  const action = `<action>\n${uiS1FormatAction(call, frames, coords)}\n</action>`;
  return thought === null ? action : `<think>\n${thought}\n</think>\n${action}`;
}

// ---------------------------------------------------------------------------------------------
// gen_next_round + slim_messages
// ---------------------------------------------------------------------------------------------

/** make_qwen_image_item's element, in its key order. */
export type UiS1ImageElement = {
  image: string;
  height: number;
  width: number;
  resized_height: number;
  resized_width: number;
  seq_len: number;
};
export type UiS1Content = { text: string } | UiS1ImageElement;
export type UiS1Message = { role: "system" | "user" | "assistant"; content: UiS1Content[] };

/**
 * One step of a UI-S1 line as the prompt needs it. `call` in original pixels; `frames` its screenshot's frame
 * pair; `coords` the convention answers are written in (qwen25-abs, UI-S1's own, when unset).
 */
export type UiS1PromptStep = { image: string; frames: FramePair; call: ToolCall; thought: string | null; coords?: CoordinateConvention };

function imageElement(step: UiS1PromptStep): UiS1ImageElement {
  const { original, resized } = step.frames;
  return {
    image: step.image,
    height: original.height,
    width: original.width,
    resized_height: resized.height,
    resized_width: resized.width,
    seq_len: Math.floor((resized.width * resized.height) / (28 * 28)) + 2,
  };
}

/**
 * The messages UI-S1's trainer hands to the processor for step `si` of a line: gen_next_round with every
 * earlier step answered by format_response, then slim_messages(num_image_limit). No assistant turn for `si`.
 */
export function uiS1StepMessages(goal: string, steps: readonly UiS1PromptStep[], si: number, numImageLimit = 2): UiS1Message[] {
  if (!(si >= 0 && si < steps.length)) throw new RangeError(`step ${si} is not in a line of ${steps.length} steps`);
  const coords = steps[si]!.coords ?? "qwen25-abs";
  const messages: UiS1Message[] = [{ role: "system", content: [{ text: uiS1SystemPrompt(uiS1SpaceFor(coords)) }] }];
  for (let i = 0; i <= si; i++) {
    const step = steps[i]!;
    if (i > 0) {
      const prev = steps[i - 1]!;
      messages.push({ role: "assistant", content: [{ text: uiS1FormatResponse(prev.thought, prev.call, prev.frames, coords) }] });
    }
    const content: UiS1Content[] =
      i === 0
        ? [{ text: `User Instruction: ${goal}\n${UI_S1_FORMAT_INSTRUCT}` }, { text: UI_S1_ANSWER_HINT }]
        : [{ text: UI_S1_FORMAT_INSTRUCT }];
    content.push(imageElement(step));
    messages.push({ role: "user", content });
  }
  return slimMessages(messages, numImageLimit);
}

/** slim_messages: keep the last `limit` images, drop the others, keep every text. */
export function slimMessages(messages: readonly UiS1Message[], limit: number): UiS1Message[] {
  const total = messages.reduce((n, m) => n + m.content.filter((c) => "image" in c).length, 0);
  // Python's keep_image_index[-limit:]; a limit of 0 keeps everything ([-0:] is the whole list).
  const firstKept = limit === 0 ? 0 : Math.max(0, total - limit);
  let ptr = 0;
  return messages.map((m) => ({
    role: m.role,
    content: m.content.filter((c) => !("image" in c) || ptr++ >= firstKept),
  }));
}

/**
 * The same messages in the string-content layout ms-swift and verl rows use: each message's texts
 * concatenated with `<image>` where an image element stood (Qwen2.5-VL's chat template renders list
 * content by concatenating the items, so the rendered prompt is the same), and the images in order.
 */
export function uiS1ChatMessages(messages: readonly UiS1Message[]): { messages: ChatMessage[]; images: string[]; sizes: Size[] } {
  const images: string[] = [];
  const sizes: Size[] = [];
  const out = messages.map((m) => ({
    role: m.role,
    content: m.content
      .map((c) => {
        if ("image" in c) {
          images.push(c.image);
          sizes.push({ width: c.resized_width, height: c.resized_height });
          return IMAGE_TAG;
        }
        return c.text;
      })
      .join(""),
  }));
  return { messages: out, images, sizes };
}

// ---------------------------------------------------------------------------------------------
// GRPO rows
// ---------------------------------------------------------------------------------------------

/** A GRPO row's prompt: messages with `<image>` tags, the absolute screenshot paths they stand for and their resized sizes. */
export type GrpoPrompt = { messages: ChatMessage[]; imagePaths: string[]; imageSizes: Size[] };
export type GrpoPromptResult = ({ ok: true } & GrpoPrompt) | { ok: false; message: string };

/** The Qwen2.5-VL cookbook `mobile_use` prompt (mobile-r1, studio-lenient): system + user text + one screenshot. */
export function mobileUseGrpoPrompt(sample: StepSample): GrpoPromptResult {
  return { ok: true, messages: promptMessages(sample), imagePaths: [sample.imagePath], imageSizes: [sample.frames.resized] };
}

function promptStep(step: CanonicalStep, image: string, opts: FrameOptions): UiS1PromptStep {
  return {
    image,
    frames: framePair({ width: step.screenshot.width, height: step.screenshot.height }, opts.maxPixels, opts.minPixels),
    // Every step reaching a prompt was checked (stepSamples names a pointless one as a problem).
    call: trainableCall(step.toolCall),
    // `bridge traj` writes every step's thought, so format_response always writes the think part.
    thought: step.thought.text,
    coords: opts.coords ?? "qwen25-abs",
  };
}

/**
 * UI-S1's prompt for a sample (rule ui-s1): UI-S1's system prompt, the trajectory's earlier steps as
 * UI-S1 lays them out (answers by format_response, in each step's resized frame), the last two screenshots.
 * Frames follow the row's --max-pixels / --min-pixels (the trainer resizes each image with them), which is
 * UI-S1's own frame wherever smart_resize at those limits agrees with update_image_size_ (see README).
 */
export async function uiS1GrpoPrompt(exp: ExportDir, sample: StepSample, opts: FrameOptions): Promise<GrpoPromptResult> {
  const si = sample.step.index;
  // One screenshot per step and slim_messages keeps the last two: only this step's and the previous
  // step's images reach the row, so only those paths are resolved ("" marks a dropped image).
  const steps = sample.trajectory.steps.slice(0, si).map((s) => promptStep(s, "", opts));
  steps.push({ ...promptStep(sample.step, sample.imagePath, opts), frames: sample.frames });
  if (si > 0) {
    const previous = await resolveScreenshot(exp, sample.trajectory.steps[si - 1]!);
    if (!previous.ok) return { ok: false, message: `the previous step's screenshot (kept in UI-S1's history): ${previous.message}` };
    steps[si - 1]!.image = previous.path;
  }
  const chat = uiS1ChatMessages(uiS1StepMessages(sample.trajectory.instruction, steps, si));
  if (chat.images.some((p) => p === "")) throw new Error("slim_messages kept a screenshot older than the previous step");
  return { ok: true, messages: chat.messages, imagePaths: chat.images, imageSizes: chat.sizes };
}
