// Test support: how each trainer's own loader turns an image reference from a data row into file
// bytes, written from the loaders' code (read, not copied) so tests can open every image the way the
// trainer will. Python's open() / os.path resolve a relative path against the working directory,
// which is passed in explicitly here.
//
// - qwen-vl-utils fetch_image (QwenLM/Qwen3-VL qwen-vl-utils/src/qwen_vl_utils/vision_process.py,
//   qwen-vl-utils 0.0.14, commit 96588727; Apache-2.0): ele["image"] (else ele["image_url"]); a PIL
//   image is used as is; "http://"/"https://" fetched; "file://" → Image.open(image[7:]) with no
//   URL decoding; "data:image" → base64 after "base64,"; anything else → Image.open(image).
// - verl RLHFDataset._build_messages (volcengine/verl verl/utils/dataset/rl_dataset.py, commit
//   b178a3cd; Apache-2.0): each entry of the row's image_key list that is a dict with "bytes" gets
//   image["image"] = Image.open(BytesIO(image["bytes"])); the dict becomes {"type": "image", **image}
//   and goes to fetch_image.
// - ms-swift load_file (modelscope/ms-swift swift/llm/template/vision_utils.py; Apache-2.0): the
//   string is stripped; "http…" fetched; if os.path.exists(path) or (not "data:" and len <= 200):
//   when the path does not exist and ROOT_IMAGE_DIR is set, path = join(ROOT_IMAGE_DIR, path); then
//   abspath(expanduser(path)) is opened; otherwise the string is decoded as base64.
// - LLaMA-Factory DatasetConverter._find_medias (hiyouga/LLaMA-Factory src/llamafactory/data/
//   converter.py; Apache-2.0): for data loaded from files, join(media_dir, media) replaces the path
//   when it is a file (media_dir defaults to dataset_dir); otherwise the original string is kept and
//   later opened as is.
// - UI-S1 ImageIO2 (X-PLUG/MobileAgent UI-S1/x/io/image_io.py, commit 11cea575; MIT): http(s)
//   fetched; os.path.isfile(path) → Image.open(path); otherwise base64-decoded.
import { pngSize } from "@/lib/domain/png";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Python's os.path.join for POSIX: an absolute second part replaces the first. */
export function pyJoin(a: string, b: string): string {
  return b.startsWith("/") ? b : a.endsWith("/") ? a + b : `${a}/${b}`;
}

/** What Python's open() opens for `p` with working directory `cwd`. */
function pyResolve(p: string, cwd: string): string {
  return path.isAbsolute(p) ? p : path.join(cwd, p);
}

function isFile(p: string, cwd: string): boolean {
  try {
    return statSync(pyResolve(p, cwd)).isFile();
  } catch {
    return false;
  }
}

function exists(p: string, cwd: string): boolean {
  try {
    statSync(pyResolve(p, cwd));
    return true;
  } catch {
    return false;
  }
}

export class LoaderError extends Error {}

function openFile(p: string, cwd: string): Buffer {
  try {
    return readFileSync(pyResolve(p, cwd));
  } catch (e) {
    throw new LoaderError(`cannot open ${JSON.stringify(p)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** A decoded image stand-in: the bytes Image.open would read. */
export type OpenedImage = { bytes: Buffer };

/** qwen-vl-utils fetch_image's choice of source (resizing left out). */
export function fetchImage(ele: Record<string, unknown>, cwd: string): OpenedImage {
  const image = "image" in ele ? ele.image : ele.image_url;
  if (image && typeof image === "object" && "bytes" in image) return image as OpenedImage; // a PIL image
  if (typeof image !== "string") throw new LoaderError(`Unrecognized image input: ${String(image)}`);
  if (image.startsWith("http://") || image.startsWith("https://")) throw new LoaderError("network images are not used here");
  if (image.startsWith("file://")) return { bytes: openFile(image.slice(7), cwd) };
  if (image.startsWith("data:image")) {
    if (!image.includes("base64,")) throw new LoaderError(`Unrecognized image input: ${image.slice(0, 40)}`);
    return { bytes: Buffer.from(image.split("base64,", 2)[1]!, "base64") };
  }
  return { bytes: openFile(image, cwd) };
}

/** verl RLHFDataset: one entry of the row's `images` list, through _build_messages and fetch_image. */
export function verlImage(entry: unknown, cwd: string): OpenedImage {
  if (!entry || typeof entry !== "object")
    throw new LoaderError(`image must be dict or PIL.Image, unsupported image type: ${typeof entry}`);
  const image: Record<string, unknown> = { ...(entry as Record<string, unknown>) };
  if ("bytes" in image) image.image = { bytes: Buffer.from(image.bytes as Uint8Array) };
  return fetchImage({ type: "image", ...image }, cwd);
}

/** ms-swift load_file for a string image, with the ROOT_IMAGE_DIR environment variable. */
export function msSwiftImage(ref: string, cwd: string, env: { ROOT_IMAGE_DIR?: string } = {}): OpenedImage {
  let p = ref.trim();
  if (p.startsWith("http")) throw new LoaderError("network images are not used here");
  if (exists(p, cwd) || (!p.startsWith("data:") && p.length <= 200)) {
    if (!exists(p, cwd) && env.ROOT_IMAGE_DIR !== undefined) p = pyJoin(env.ROOT_IMAGE_DIR, p);
    return { bytes: openFile(p, cwd) };
  }
  const m = /^data:(.+?);base64,(.+)$/s.exec(p);
  return { bytes: Buffer.from(m ? m[2]! : p, "base64") };
}

/** LLaMA-Factory _find_medias (+ the later open), media_dir defaulting to dataset_dir. */
export function llamaFactoryImage(ref: string, cwd: string, args: { datasetDir: string; mediaDir?: string }): OpenedImage {
  const mediaPath = pyJoin(args.mediaDir ?? args.datasetDir, ref);
  return { bytes: openFile(isFile(mediaPath, cwd) ? mediaPath : ref, cwd) };
}

/** UI-S1 ImageIO2 for a step's `screenshot`. */
export function uiS1Image(ref: string, cwd: string): OpenedImage {
  if (ref.startsWith("http://") || ref.startsWith("https://")) throw new LoaderError("network images are not used here");
  if (isFile(ref, cwd)) return { bytes: openFile(ref, cwd) };
  throw new LoaderError(`not a file and not base64: ${JSON.stringify(ref)}`);
}

/** Width and height of PNG bytes (IHDR), or null when they are not a PNG: the one reader, lib/domain/png.ts. */
export { pngSize };

// How each trainer's own dataset preprocessing reads a preference row (rules written from their code, read,
// not copied):
// - ms-swift RowPreprocessor (modelscope/ms-swift swift/llm/dataset/preprocessor/core.py; Apache-2.0):
//   _check_messages keeps role/content/loss, requires a role in system/user/assistant/tool… and a content that
//   is not None; _check_rejected_response raises ValueError when `rejected_response` is None or equals
//   messages[-1]['content']; the pairs after the system turn alternate user -> assistant and an assistant
//   content may not be '' or None. Each `<image>` takes the next entry of `images` (Custom-dataset.md).
// - LLaMA-Factory SharegptDatasetConverter (hiyouga/LLaMA-Factory src/llamafactory/data/converter.py, commit
//   02e2fb34; Apache-2.0) with `ranking: true`: a first message whose role is system_tag becomes the system;
//   the others must alternate (user_tag, observation_tag) / (assistant_tag, function_tag) from the first;
//   a ranking example needs an ODD number of them (the prompt ends with a user turn) and `chosen` and
//   `rejected` dicts whose role is assistant_tag or function_tag; anything else is "Skipping this abnormal
//   example" (an empty prompt and response). The columns and tags come from dataset_info.json.

/** What ms-swift's preprocessing makes of a DPO row, or a LoaderError naming what it refuses. */
export function msSwiftRlhfRow(row: Record<string, unknown>): {
  system?: string;
  turns: { role: string; content: string }[];
  rejected: string;
  images: unknown[];
} {
  const messages = row.messages;
  if (!Array.isArray(messages) || messages.length === 0) throw new LoaderError(`messages: ${JSON.stringify(messages)}`);
  const roles = new Set(["system", "user", "assistant", "tool", "tool_call", "tool_response", "function", "observation"]);
  for (const m of messages as Record<string, unknown>[]) {
    if (!roles.has(String(m.role)) || m.content === undefined || m.content === null) throw new LoaderError(`message: ${JSON.stringify(m)}`);
  }
  const msgs = messages as { role: string; content: string }[];
  const rejected = row.rejected_response;
  if (rejected === undefined || rejected === null || (typeof rejected === "string" && rejected === msgs[msgs.length - 1]!.content)) {
    throw new LoaderError(`rejected_response: ${String(rejected)}`);
  }
  const [first, ...rest] = msgs;
  const turns = first!.role === "system" ? rest : msgs;
  for (let i = 0; i < turns.length; i += 2) {
    const [user, assistant] = [turns[i], turns[i + 1]];
    if (!user || !["user", "tool"].includes(user.role)) throw new LoaderError(`user_message: ${JSON.stringify(user)}`);
    if (!assistant || assistant.role !== "assistant" || assistant.content === "")
      throw new LoaderError(`assistant_message: ${JSON.stringify(assistant)}`);
  }
  const images = Array.isArray(row.images) ? row.images : [];
  const tags = msgs.reduce((n, m) => n + m.content.split("<image>").length - 1, 0);
  if (tags !== images.length) throw new LoaderError(`${tags} <image> tags for ${images.length} images`);
  return { system: first!.role === "system" ? first!.content : undefined, turns, rejected: String(rejected), images };
}

/** A dataset_info.json entry as LLaMA-Factory's DatasetAttr reads it (only what the sharegpt converter uses). */
export type LlamaFactoryDatasetAttr = {
  formatting?: string;
  ranking?: boolean;
  columns?: Record<string, string>;
  tags?: Record<string, string>;
};

/** SharegptDatasetConverter on one example: the prompt, [chosen, rejected] and the system, or a LoaderError for an abnormal example. */
export function llamaFactoryPairwise(
  example: Record<string, unknown>,
  attr: LlamaFactoryDatasetAttr,
): { system: string; prompt: { role: string; content: string }[]; response: { role: string; content: string }[]; images: unknown } {
  if (attr.formatting !== "sharegpt") throw new LoaderError(`formatting ${String(attr.formatting)} is not sharegpt`);
  const col = { messages: "conversations", chosen: "chosen", rejected: "rejected", images: "images", ...attr.columns };
  const tag = {
    role_tag: "from",
    content_tag: "value",
    user_tag: "human",
    assistant_tag: "gpt",
    observation_tag: "observation",
    function_tag: "function_call",
    system_tag: "system",
    ...attr.tags,
  };
  const map: Record<string, string> = {
    [tag.user_tag]: "user",
    [tag.assistant_tag]: "assistant",
    [tag.observation_tag]: "observation",
    [tag.function_tag]: "function",
    [tag.system_tag]: "system",
  };
  const accept = [
    [tag.user_tag, tag.observation_tag],
    [tag.assistant_tag, tag.function_tag],
  ];
  let messages = example[col.messages] as Record<string, string>[];
  let system = "";
  if (messages.length !== 0 && messages[0]![tag.role_tag] === tag.system_tag) {
    system = messages[0]![tag.content_tag]!;
    messages = messages.slice(1);
  }
  const aligned = messages.map((m, i) => {
    if (!accept[i % 2]!.includes(m[tag.role_tag]!)) throw new LoaderError(`Invalid role tag in ${JSON.stringify(messages)}`);
    return { role: map[m[tag.role_tag]!]!, content: m[tag.content_tag]! };
  });
  if ((!attr.ranking && aligned.length % 2 !== 0) || (attr.ranking && aligned.length % 2 === 0)) {
    throw new LoaderError(`Invalid message count in ${JSON.stringify(messages)}`);
  }
  const chosen = example[col.chosen];
  const rejected = example[col.rejected];
  const isDict = (v: unknown): v is Record<string, string> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (!attr.ranking || !isDict(chosen) || !isDict(rejected))
    throw new LoaderError("not a pairwise example (ranking with chosen and rejected dicts)");
  if (!accept[1]!.includes(chosen[tag.role_tag]!) || !accept[1]!.includes(rejected[tag.role_tag]!)) {
    throw new LoaderError(`Invalid role tag in ${JSON.stringify([chosen, rejected])}`);
  }
  return {
    system,
    prompt: aligned,
    response: [
      { role: map[chosen[tag.role_tag]!]!, content: chosen[tag.content_tag]! },
      { role: map[rejected[tag.role_tag]!]!, content: rejected[tag.content_tag]! },
    ],
    images: example[col.images],
  };
}
