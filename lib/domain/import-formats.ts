import { z } from "zod";
import { screenElementsSchema, type ScreenElement } from "./elements";
import { boxOverlapsScreen, boxSchema, framePair, fromConventionPoint, toOriginalPoint, type Box, type Size } from "./geometry";
import { text } from "./limits";
import { parseModelOutput } from "./model-output";
import { normalizeActionForImport } from "./normalize";
import { problemOf, zodIssueProblem, type ImportProblem } from "./problems";
import { splitThought, composeThought, type ThoughtParts } from "./thought";
import type { StepProvenance } from "./provenance";
import { mapPoints, type StepToolCall } from "./tool-call";
import { canonicalTrajectorySchema, type OriginalOutput, type Outcome, type TrajectorySource, type Verdict } from "./trajectory";

export const IMPORT_FORMATS = ["mobile-r1", "ui-s1", "studio"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * The frame coordinates in the file are in: `original` screenshot pixels, the `resized` frame a
 * Qwen2.5-VL model saw at some max_pixels (convention qwen25-abs: model output in the model's own pixels),
 * or `rel1000`, 0..1000 relative to the screenshot (convention qwen3-rel1000: Qwen3-VL, GUI-Owl 1.5, and
 * `bridge traj --coords qwen3-rel1000` files).
 */
export type CoordinateFrame = { kind: "original" } | { kind: "resized"; maxPixels: number } | { kind: "rel1000" };

export function parseFrameOption(s: string | undefined): CoordinateFrame {
  if (!s || s === "original") return { kind: "original" };
  if (s === "rel1000" || s === "qwen3-rel1000") return { kind: "rel1000" };
  const m = s.match(/^(?:resized|qwen25-abs)(?::(\d+))?$/);
  if (!m) throw new Error(`--frame must be "original", "resized[:<max_pixels>]" or "rel1000", got "${s}"`);
  return { kind: "resized", maxPixels: m[1] ? Number(m[1]) : 12845056 };
}

/** A step as read from a file, before its screenshot is known. Coordinates still in the file's frame. */
export type DraftStep = {
  screenshotName: string;
  rawAction: unknown;
  response?: string;
  thought?: string;
  clearAction?: string;
  box?: unknown;
  candidateBoxes?: unknown;
  /** The screen's elements (studio format), already checked by its schema; boxes in original pixels. */
  elements?: ScreenElement[];
  /** Device size the file states for its coordinates, when it states one (Mobile-R1 image_width/height). */
  declaredSize?: Size;
  extra?: Record<string, unknown>;
  /** The source row's fields kept verbatim for writing it back (OriginalOutput.row). */
  row?: Record<string, unknown>;
  /** Present when the file already holds annotations (the studio's own format). */
  annotated?: {
    thought: ThoughtParts & { text: string };
    clearAction: string;
    toolCall: unknown;
    box: unknown;
    candidateBoxes: unknown;
    verdict: Verdict;
    /** Who wrote each field, as exported (already checked by its schema). */
    provenance?: StepProvenance;
    /** The step's version as exported (already checked by its schema). */
    version?: number;
  };
  originalToolCall?: unknown;
  /** UI-S1 per-step `annotation` other than GOOD. */
  verdictHint?: "HARMFUL" | "NEUTRAL";
};

export type DraftTrajectory = {
  source: TrajectorySource;
  sourceRef: string;
  app: string;
  instruction: string;
  systemPrompt?: string;
  originalOutcome: Outcome | null;
  meta: Record<string, unknown>;
  steps: DraftStep[];
  annotated?: { status?: string; outcome: Outcome | null; cutAfter: number | null; isDiscarded: boolean };
};

/** What a built step holds: everything in original screenshot pixels. */
export type BuiltStep = {
  index: number;
  screenshotName: string;
  original: OriginalOutput;
  thought: ThoughtParts & { text: string };
  clearAction: string;
  toolCall: StepToolCall;
  box: Box | null;
  candidateBoxes: Box[];
  /** The screen's elements as imported (original pixels); absent when the file had none. */
  elements?: ScreenElement[];
  verdict: Verdict;
  /** Who wrote each field (studio format); absent: every field as imported. */
  provenance?: StepProvenance;
  /** The version the step starts at (studio format: as exported); absent: 1. */
  version?: number;
};

export type BuiltTrajectory = Omit<DraftTrajectory, "steps"> & { steps: BuiltStep[] };

/**
 * What a trajectory's `meta` holds for a row imported from a source format: the format, and the row's
 * top-level fields that the trajectory's own columns do not keep (Mobile-R1: trajectory_length,
 * image_width, image_height, a `system` that is not a non-empty string, unknown fields; UI-S1:
 * is_successful, episode_id, app, unknown fields), verbatim, so an export can write the row back.
 */
export const sourceMetaSchema = z.object({ source: z.enum(["mobile-r1", "ui-s1"]), row: z.record(z.string(), z.unknown()) });
export type SourceMeta = z.infer<typeof sourceMetaSchema>;

/** The source row kept in a trajectory's meta, when it came from a source format. */
export function sourceMetaOf(meta: unknown): SourceMeta | undefined {
  const m = sourceMetaSchema.safeParse(meta);
  return m.success ? m.data : undefined;
}

/** `keys` of `record` that it really holds (an own key whose value may be null), copied. */
function own(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (Object.hasOwn(record, k)) out[k] = record[k];
  return out;
}

type MapResult = { draft?: DraftTrajectory; problems: Omit<ImportProblem, "file" | "line">[] };

const mobileR1Schema = z
  .object({
    app_name: text("appName").min(1),
    instruction: text("instruction").min(1),
    system: text("systemPrompt").optional(),
    image_width: z.number().int().positive().optional(),
    image_height: z.number().int().positive().optional(),
    trajectory: z
      .array(
        z
          .object({
            image: z.string().min(1),
            thought: text("thought").optional(),
            subtask: text("clearAction").optional(),
            action: z.unknown().optional(),
            response: z.string().optional(),
            bbox: z.unknown().optional(),
            /** The screen's elements (not in the Mobile-R1 release; the studio's demo writes them): the box tool snaps to them. */
            elements: screenElementsSchema.optional(),
          })
          .passthrough(),
      )
      .min(1, "has no steps"),
  })
  .passthrough();

const uiS1Schema = z
  .object({
    goal: text("instruction").min(1),
    is_successful: z.boolean().optional(),
    episode_id: z.union([z.number(), z.string()]).optional(),
    app: text("appName").optional(),
    steps: z
      .array(
        z
          .object({
            action_content: z.record(z.string(), z.unknown()),
            screenshot: z.string().min(1),
            thought: text("thought").optional(),
            action_description: text("clearAction").optional(),
            step_instruction: text("clearAction").optional(),
            check_options: z.record(z.string(), z.unknown()).optional(),
            annotation: z.enum(["GOOD", "HARMFUL", "NEUTRAL"]).optional(),
          })
          .passthrough(),
      )
      .min(1, "has no steps"),
  })
  .passthrough();

function zodProblems(error: z.ZodError): MapResult["problems"] {
  return error.issues.map((i) => {
    const [first, second, ...rest] = i.path;
    const isStep = (first === "trajectory" || first === "steps") && typeof second === "number";
    return {
      step: isStep ? second : undefined,
      field: (isStep ? rest : i.path).join(".") || undefined,
      ...zodIssueProblem(i),
    };
  });
}

const baseName = (p: string) => p.split(/[\\/]/).pop() ?? p;

/** Map one parsed JSON record of `format` to a draft trajectory. Pure; never throws. */
export function mapRecord(format: ImportFormat, record: unknown, sourceRef: string): MapResult {
  switch (format) {
    case "mobile-r1": {
      const r = mobileR1Schema.safeParse(record);
      if (!r.success) return { problems: zodProblems(r.error) };
      const t = r.data;
      const declaredSize = t.image_width && t.image_height ? { width: t.image_width, height: t.image_height } : undefined;
      const { app_name: _app, instruction: _instruction, system, trajectory, ...top } = t;
      // A non-empty system prompt lives in its column; "" (or a non-string) is kept as written.
      const row = typeof system === "string" && system !== "" ? top : { ...top, ...own(t, ["system"]) };
      return {
        problems: [],
        draft: {
          source: "mobile-r1",
          sourceRef,
          app: t.app_name,
          instruction: t.instruction,
          systemPrompt: system || undefined,
          originalOutcome: null,
          meta: { source: "mobile-r1", row } satisfies SourceMeta,
          steps: trajectory.map((step) => {
            const { image, thought, subtask, action, response, bbox, elements, ...extra } = step;
            return {
              ...(elements ? { elements } : {}),
              screenshotName: baseName(image),
              rawAction: action,
              response,
              thought,
              clearAction: subtask,
              box: bbox ?? undefined,
              declaredSize,
              extra,
              row: own(step, ["image", "thought", "subtask", "bbox", "elements"]),
            };
          }),
        },
      };
    }
    case "ui-s1": {
      const r = uiS1Schema.safeParse(record);
      if (!r.success) return { problems: zodProblems(r.error) };
      const t = r.data;
      const opened = t.steps.find((s) => s.action_content.action === "open")?.action_content.text;
      const { goal: _goal, steps: _steps, ...top } = t;
      return {
        problems: [],
        draft: {
          source: "ui-s1",
          sourceRef: t.episode_id !== undefined ? `episode ${t.episode_id}` : sourceRef,
          app: t.app ?? (typeof opened === "string" ? opened : "Unknown app"),
          instruction: t.goal,
          originalOutcome: t.is_successful === undefined ? null : t.is_successful ? "success" : "failure",
          meta: { source: "ui-s1", row: top } satisfies SourceMeta,
          steps: t.steps.map((step) => {
            const { action_content, screenshot, thought, action_description, check_options, annotation, ...extra } = step;
            const { bbox, ...action } = action_content;
            return {
              row: { ...own(step, ["screenshot", "thought", "action_description"]), ...own(action_content, ["bbox"]) },
              screenshotName: baseName(screenshot),
              rawAction: action,
              thought,
              clearAction: action_description,
              box: bbox,
              candidateBoxes: check_options?.candidate_bbox,
              extra: { ...extra, ...(check_options ? { check_options } : {}), ...(annotation ? { annotation } : {}) },
              ...(annotation && annotation !== "GOOD" ? { verdictHint: annotation } : {}),
            };
          }),
        },
      };
    }
    case "studio": {
      const r = canonicalTrajectorySchema.safeParse(record);
      if (!r.success) return { problems: zodProblems(r.error) };
      const t = r.data;
      return {
        problems: [],
        draft: {
          source: t.source,
          sourceRef: t.sourceRef ?? sourceRef,
          app: t.app,
          instruction: t.instruction,
          systemPrompt: t.systemPrompt ?? undefined,
          originalOutcome: t.originalOutcome ?? null,
          meta: t.meta ?? {},
          annotated: { status: t.status, outcome: t.outcome, cutAfter: t.cutAfter, isDiscarded: t.isDiscarded },
          steps: t.steps.map((s) => ({
            screenshotName: baseName(s.screenshot.file ?? `${s.screenshot.sha256}.png`),
            rawAction: s.original.rawAction ?? s.original.toolCall,
            originalToolCall: s.original.toolCall,
            response: s.original.response,
            thought: s.original.thought,
            clearAction: s.original.clearAction,
            extra: s.original.extra,
            row: s.original.row,
            box: s.original.box,
            ...(s.elements ? { elements: s.elements } : {}),
            annotated: {
              thought: s.thought,
              clearAction: s.clearAction,
              toolCall: s.toolCall,
              box: s.box,
              candidateBoxes: s.candidateBoxes,
              verdict: s.verdict,
              ...(s.provenance && Object.keys(s.provenance).length > 0 ? { provenance: s.provenance } : {}),
              ...(s.version !== undefined ? { version: s.version } : {}),
            },
          })),
        },
      };
    }
  }
}

const VERDICT_FROM_ANNOTATION: Record<"HARMFUL" | "NEUTRAL", Verdict> = { HARMFUL: "harmful", NEUTRAL: "neutral" };

/**
 * Turn a draft into a trajectory in original pixels, given each step's real screenshot size.
 * Normalises action dialects, parses tagged responses, converts coordinates from the file's frame,
 * and checks every point and box lies on its screenshot.
 */
export function buildTrajectory(
  draft: DraftTrajectory,
  sizes: (Size | undefined)[],
  frame: CoordinateFrame,
): { trajectory?: BuiltTrajectory; problems: Omit<ImportProblem, "file" | "line">[] } {
  const problems: Omit<ImportProblem, "file" | "line">[] = [];
  // The studio's own format is in original pixels by definition, annotations included.
  if (draft.steps.some((s) => s.annotated) && frame.kind !== "original") {
    return { problems: [{ field: "frame", ...problemOf("frameOriginal") }] };
  }
  // A line that declares its convention (`bridge traj --coords qwen3-rel1000` writes `coords`) must be read in it:
  // 0..1000 points also lie on a phone screen, so reading them as pixels would be silently wrong.
  const declared = sourceMetaOf(draft.meta)?.row?.coords;
  if (declared !== undefined && declared !== "qwen25-abs" && !(declared === "qwen3-rel1000" && frame.kind === "rel1000")) {
    return {
      problems: [
        {
          field: "coords",
          ...(declared === "qwen3-rel1000"
            ? problemOf("coordsRel1000")
            : problemOf("coordsUnknown", { declared: JSON.stringify(declared) })),
        },
      ],
    };
  }
  if (declared === "qwen25-abs" && frame.kind === "rel1000") {
    return { problems: [{ field: "coords", ...problemOf("coordsAbs") }] };
  }
  const steps: BuiltStep[] = [];
  draft.steps.forEach((s, index) => {
    const size = sizes[index];
    if (!size) return; // the missing screenshot is already reported
    const push = (field: string, problem: ReturnType<typeof problemOf>) => problems.push({ step: index, field, ...problem });
    const toOriginal = fromFileFrame(frame, size, s.declaredSize);

    const parsed = s.response !== undefined ? parseModelOutput(s.response) : undefined;
    const source = s.rawAction ?? parsed?.toolCallText;
    if (source === undefined) return push("action", problemOf("noAction"));
    const n = normalizeActionForImport(source, size);
    if (!n.ok) return n.problems.forEach(({ field, ...p }) => push(field === "action" ? "action" : `action.${field}`, p));
    // A point or box off the screenshot is what the model wrote (or what a save accepted): it imports, and the
    // editor (toolCall.offScreen, box.offScreen, both blocking) and the bridge name it, as they do after a save.
    const original = toOriginal.call(n.call);

    const readBox = (v: unknown, field: string): Box | null => {
      if (v === undefined || v === null) return null;
      const b = boxSchema.safeParse(v);
      if (!b.success) {
        push(field, problemOf("notBox", { detail: b.error.issues[0]?.message ?? "" }));
        return null;
      }
      return toOriginal.box(b.data);
    };
    const candidates = Array.isArray(s.candidateBoxes)
      ? s.candidateBoxes.map((b, i) => readBox(b, `candidate_bbox.${i}`)).filter((b): b is Box => b !== null)
      : [];
    const box = readBox(s.box, "bbox") ?? candidates[0] ?? null;
    // Like candidate boxes, an element may reach past the screen's edge, but some part of it must be on it.
    s.elements?.forEach((el, i) => {
      if (!boxOverlapsScreen(el.bbox, size))
        push(`elements.${i}.bbox`, problemOf("offScreen", { box: `[${el.bbox.join(", ")}]`, width: size.width, height: size.height }));
    });
    const elements = s.elements ? { elements: s.elements } : {};
    const thoughtText = s.thought ?? parsed?.thought ?? "";
    const clear = s.clearAction ?? parsed?.clearAction ?? "";
    const originalOutput: OriginalOutput = {
      ...(s.response !== undefined ? { response: s.response } : {}),
      ...(thoughtText ? { thought: thoughtText } : {}),
      ...(clear ? { clearAction: clear } : {}),
      toolCall: original,
      ...(box ? { box } : {}),
      rawAction: s.rawAction,
      ...(s.extra && Object.keys(s.extra).length > 0 ? { extra: s.extra } : {}),
      ...(s.row ? { row: s.row } : {}),
    };
    if (s.annotated) {
      const a = s.annotated;
      const call = normalizeActionForImport(a.toolCall, size);
      if (!call.ok) return call.problems.forEach(({ field, ...p }) => push(`toolCall.${field}`, p));
      const originalCall = s.originalToolCall !== undefined ? normalizeActionForImport(s.originalToolCall, size) : undefined;
      steps.push({
        index,
        screenshotName: s.screenshotName,
        original: { ...originalOutput, toolCall: originalCall?.ok ? originalCall.call : original },
        thought: a.thought,
        clearAction: a.clearAction,
        toolCall: call.call,
        box: readBox(a.box, "box"),
        candidateBoxes: Array.isArray(a.candidateBoxes)
          ? a.candidateBoxes.map((b, i) => readBox(b, `candidateBoxes.${i}`)).filter((b): b is Box => b !== null)
          : [],
        ...elements,
        verdict: a.verdict,
        ...(a.provenance ? { provenance: a.provenance } : {}),
        ...(a.version !== undefined ? { version: a.version } : {}),
      });
      return;
    }
    const parts = splitThought(thoughtText);
    steps.push({
      index,
      screenshotName: s.screenshotName,
      original: originalOutput,
      thought: { ...parts, text: thoughtText || composeThought(parts) },
      clearAction: clear,
      toolCall: original,
      box,
      candidateBoxes: candidates,
      ...elements,
      verdict: s.verdictHint ? VERDICT_FROM_ANNOTATION[s.verdictHint] : "unreviewed",
    });
  });
  if (problems.length > 0 || steps.length !== draft.steps.length) return { problems };
  const cut = draft.annotated?.cutAfter;
  if (cut !== undefined && cut !== null && cut >= steps.length)
    problems.push({ field: "cutAfter", ...problemOf("cutPastEnd", { cut, last: steps.length - 1 }) });
  return problems.length > 0 ? { problems } : { trajectory: { ...draft, steps }, problems };
}

/** Converters from the file's coordinate frame to original screenshot pixels. */
function fromFileFrame(frame: CoordinateFrame, size: Size, declared?: Size) {
  let point: (p: [number, number]) => [number, number];
  if (frame.kind === "resized") {
    const frames = framePair(size, frame.maxPixels);
    point = (p) => toOriginalPoint(p, frames);
  } else if (frame.kind === "rel1000") {
    // Relative to the image itself, so the screenshot's own size is the frame whatever size the file declares.
    const frames = { original: size, resized: size };
    point = (p) => fromConventionPoint(p, "qwen3-rel1000", frames);
  } else if (declared && (declared.width !== size.width || declared.height !== size.height)) {
    // The file's coordinates are in the device size it declares; the image on disk was scaled.
    const frames = { original: size, resized: declared };
    point = (p) => toOriginalPoint(p, frames);
  } else {
    point = (p) => p;
  }
  return {
    call: (c: StepToolCall) => mapPoints(c, point),
    box: ([x1, y1, x2, y2]: Box): Box => {
      const [a, b] = point([x1, y1]);
      const [c, d] = point([x2, y2]);
      return [a, b, c, d];
    },
  };
}
