import type { Size } from "./geometry";
import { formatMobileUseCall, pyJsonDumps, type ActionType, type StepToolCall } from "./tool-call";

/** The actions the Qwen2.5-VL cookbook's `mobile_use` tool offers (Mobile-R1 uses the same tool). */
export const MOBILE_USE_ACTIONS = ["key", "click", "long_press", "swipe", "type", "system_button", "open", "wait", "terminate"] as const;

/**
 * Which actions a system prompt declares. `mobile-use`: the cookbook's tool byte for byte (what
 * Mobile-R1 trains with). `ui-s1`: the same tool plus UI-S1's `answer(text)` ("Output the specified
 * answer.", x/data/agent/space/std_space.py RAW_SPACE at MobileAgent 11cea57, placed after `type`
 * as there), for data whose targets answer questions.
 */
export type ActionSpace = "mobile-use" | "ui-s1";

/** The actions a prompt built for `space` offers, in the enum's order. */
export function declaredActions(space: ActionSpace): readonly ActionType[] {
  return space === "ui-s1"
    ? ["key", "click", "long_press", "swipe", "type", "answer", "system_button", "open", "wait", "terminate"]
    : MOBILE_USE_ACTIONS;
}

/**
 * The `mobile_use` tool as the Qwen2.5-VL cookbook declares it (cookbooks/utils/agent_function_call.py,
 * class MobileUse), in qwen-agent's key order. Only the resolution line depends on the image.
 */
function mobileUseTool(resized: Size, space: ActionSpace) {
  const answer = space === "ui-s1";
  return {
    type: "function",
    function: {
      name_for_human: "mobile_use",
      name: "mobile_use",
      description: [
        "Use a touchscreen to interact with a mobile device, and take screenshots.",
        "* This is an interface to a mobile device with touchscreen. You can perform actions like clicking, typing, swiping, etc.",
        "* Some applications may take time to start or process actions, so you may need to wait and take successive screenshots to see the results of your actions.",
        `* The screen's resolution is ${resized.width}x${resized.height}.`,
        "* Make sure to click any buttons, links, icons, etc with the cursor tip in the center of the element. Don't click boxes on their edges unless asked.",
      ].join("\n"),
      parameters: {
        properties: {
          action: {
            description: [
              "The action to perform. The available actions are:",
              "* `key`: Perform a key event on the mobile device.",
              "    - This supports adb's `keyevent` syntax.",
              '    - Examples: "volume_up", "volume_down", "power", "camera", "clear".',
              "* `click`: Click the point on the screen with coordinate (x, y).",
              "* `long_press`: Press the point on the screen with coordinate (x, y) for specified seconds.",
              "* `swipe`: Swipe from the starting point with coordinate (x, y) to the end point with coordinates2 (x2, y2).",
              "* `type`: Input the specified text into the activated input box.",
              ...(answer ? ["* `answer`: Output the specified answer."] : []),
              "* `system_button`: Press the system button.",
              "* `open`: Open an app on the device.",
              "* `wait`: Wait specified seconds for the change to happen.",
              "* `terminate`: Terminate the current task and report its completion status.",
            ].join("\n"),
            enum: [...declaredActions(space)],
            type: "string",
          },
          coordinate: {
            description:
              "(x, y): The x (pixels from the left edge) and y (pixels from the top edge) coordinates to move the mouse to. Required only by `action=click`, `action=long_press`, and `action=swipe`.",
            type: "array",
          },
          coordinate2: {
            description:
              "(x, y): The x (pixels from the left edge) and y (pixels from the top edge) coordinates to move the mouse to. Required only by `action=swipe`.",
            type: "array",
          },
          text: {
            description: answer
              ? "Required only by `action=key`, `action=type`, `action=answer`, and `action=open`."
              : "Required only by `action=key`, `action=type`, and `action=open`.",
            type: "string",
          },
          time: { description: "The seconds to wait. Required only by `action=long_press` and `action=wait`.", type: "number" },
          button: {
            description:
              "Back means returning to the previous interface, Home means returning to the desktop, Menu means opening the application background menu, and Enter means pressing the enter. Required only by `action=system_button`",
            enum: ["Back", "Home", "Menu", "Enter"],
            type: "string",
          },
          status: {
            description: "The status of the task. Required only by `action=terminate`.",
            type: "string",
            enum: ["success", "failure"],
          },
        },
        required: ["action"],
        type: "object",
      },
      args_format: "Format the arguments as a JSON object.",
    },
  };
}

/**
 * The Qwen2.5-VL `mobile_use` system prompt (qwen-agent NousFnCallPrompt), byte for byte what the
 * cookbook renders between `<|im_start|>system\n` and `<|im_end|>`. `resized` is the smart-resized
 * image size in pixels (the frame the model's coordinates live in), e.g. 1092x2408 for 1080x2400.
 * `space` "ui-s1" adds UI-S1's `answer` action (see ActionSpace); the default is the cookbook's text.
 */
export function mobileUseSystemPrompt(resized: Size, space: ActionSpace = "mobile-use"): string {
  // A dataset has a handful of screen sizes and this text is a few KB: built once per size, not once
  // per step (an export measures every step's prompt).
  const key = `${resized.width}x${resized.height}:${space}`;
  let text = SYSTEM_PROMPTS.get(key);
  if (text === undefined) {
    if (SYSTEM_PROMPTS.size >= 256) SYSTEM_PROMPTS.clear();
    SYSTEM_PROMPTS.set(key, (text = buildSystemPrompt(resized, space)));
  }
  return text;
}

const SYSTEM_PROMPTS = new Map<string, string>();

function buildSystemPrompt(resized: Size, space: ActionSpace): string {
  return [
    "You are a helpful assistant.",
    "",
    "# Tools",
    "",
    "You may call one or more functions to assist with the user query.",
    "",
    "You are provided with function signatures within <tools></tools> XML tags:",
    "<tools>",
    // The cookbook prints the tool with json.dumps(ensure_ascii=False): ", " and ": " separators.
    pyJsonDumps(mobileUseTool(resized, space)),
    "</tools>",
    "",
    "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:",
    "<tool_call>",
    '{"name": <function-name>, "arguments": <args-json-object>}',
    "</tool_call>",
  ].join("\n");
}

/**
 * The user turn's text in the cookbook's single-turn layout:
 * `The user query:  {instruction}\nTask progress (You have done the following operation on the current device): Step 1: {call}; Step 2: {call}; `
 * (two spaces after the colon, each step followed by "; "). `history` holds the calls already made,
 * oldest first, each ALREADY in the model's resized frame. The image placeholder is not included:
 * the cookbook puts the screenshot after this text.
 */
export function mobileUseUserText(instruction: string, history: readonly StepToolCall[]): string {
  const steps = history.map((call, i) => `Step ${i + 1}: ${formatMobileUseCall(call)}; `).join("");
  return `The user query:  ${instruction}\nTask progress (You have done the following operation on the current device): ${steps}`;
}

/**
 * A Mobile-R1 style assistant response: `<think>\n…\n</think>\n<action>\n…\n</action>\n<tool_call>\n{json}\n</tool_call>`.
 * `call` must already be in the model's resized frame.
 */
export function mobileR1Response(thought: string, clearAction: string, call: StepToolCall): string {
  return mobileR1ResponseText(thought, clearAction, formatMobileUseCall(call));
}

/** mobileR1Response with the call already formatted (formatMobileUseCall), for a caller that needs that text too. */
export function mobileR1ResponseText(thought: string, clearAction: string, callText: string): string {
  return `<think>\n${thought}\n</think>\n<action>\n${clearAction}\n</action>\n<tool_call>\n${callText}\n</tool_call>`;
}

/**
 * The actions a `mobile_use` system prompt offers, read back from its `<tools>` JSON (the action
 * enum); empty when the text holds no such tool. For checks that every target is declared.
 */
export function actionsOfferedBy(systemPrompt: string): string[] {
  const m = /<tools>\n([\s\S]*?)\n<\/tools>/.exec(systemPrompt);
  if (!m) return [];
  try {
    const tool = JSON.parse(m[1]!) as { function?: { parameters?: { properties?: { action?: { enum?: unknown } } } } };
    const e = tool.function?.parameters?.properties?.action?.enum;
    return Array.isArray(e) ? e.filter((a): a is string => typeof a === "string") : [];
  } catch {
    return [];
  }
}

/** The characters that open and close a data fence in a prompt; never left inside the data. */
const FENCE_OPEN = "⟦";
const FENCE_CLOSE = "⟧";

/**
 * Imported text as data in a prompt: on its own lines between `⟦data:<label>⟧` and `⟦/data⟧`, with
 * every ⟦ and ⟧ inside it replaced by [ and ], so the text can neither close its fence nor open
 * another one (prompts judge.v2 and suggest-thought.v2 tell the model that fenced text is evidence, not instructions).
 */
export function fenceData(label: string, text: string): string {
  const clean = text.replaceAll(FENCE_OPEN, "[").replaceAll(FENCE_CLOSE, "]");
  return `${FENCE_OPEN}data:${label}${FENCE_CLOSE}\n${clean}\n${FENCE_OPEN}/data${FENCE_CLOSE}`;
}
