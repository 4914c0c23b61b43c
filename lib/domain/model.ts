import { z } from "zod";
import { hasRefusedCharacter, REFUSED_CHARACTER_MESSAGE, text } from "./limits";
import { modelUrlProblem } from "./redact";
import { thoughtPartsSchema } from "./thought";
import { storedMessageSchema } from "./stored-message";
import { toolCallSchema } from "./tool-call";
import { PREFILL_SKIP_REASONS, type FieldProvenance, type ProvenanceField } from "./provenance";
import { outcomeSchema } from "./trajectory";
import { trajectoryFiltersSchema } from "./views";

// The model in the loop: endpoint settings, suggestions, field provenance, background jobs and the
// judge. Wire shapes for routes and clients, and the pure parts (parsing answers, agreement figures).

// ── Endpoint settings ────────────────────────────────────────────────────────────────────────────

export const MODEL_LIMITS = { concurrencyMax: 32, timeoutMsMin: 1_000, timeoutMsMax: 600_000 } as const;
export const MODEL_DEFAULTS = { concurrency: 4, timeoutMs: 60_000 } as const;

/**
 * What an admin saves. `apiKey`: absent keeps the stored key (unless the base URL changes: a key is
 * never sent to a host it was not entered for, so a new URL without a key clears it), "" clears it,
 * anything else replaces it. The URL may carry no credentials and no fragment.
 */
export const saveModelSettingsInput = z.object({
  baseUrl: z
    .string()
    .trim()
    .max(2_000)
    .refine((s) => !hasRefusedCharacter(s), REFUSED_CHARACTER_MESSAGE)
    .superRefine((s, ctx) => {
      const problem = s === "" ? null : modelUrlProblem(s);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  model: z
    .string()
    .trim()
    .max(200)
    .refine((s) => !hasRefusedCharacter(s), REFUSED_CHARACTER_MESSAGE),
  apiKey: z
    .string()
    .max(4_000)
    .refine((s) => !hasRefusedCharacter(s), REFUSED_CHARACTER_MESSAGE)
    .optional(),
  concurrency: z.number().int().min(1).max(MODEL_LIMITS.concurrencyMax).nullable(),
  timeoutMs: z.number().int().min(MODEL_LIMITS.timeoutMsMin).max(MODEL_LIMITS.timeoutMsMax).nullable(),
});
export type SaveModelSettingsInput = z.infer<typeof saveModelSettingsInput>;

const SETTING_SOURCES = ["saved", "env", "default", "unset"] as const;
/** The endpoint as the studio will use it; the key only as "is there one". Never carries the key itself. */
export const modelSettingsViewSchema = z.object({
  baseUrl: z.string().nullable(),
  model: z.string().nullable(),
  hasKey: z.boolean(),
  /**
   * A key is saved but cannot be decrypted with this server's secret (BETTER_AUTH_SECRET changed
   * since it was saved): calls are refused until an admin enters the key again.
   */
  keyUnreadable: z.boolean(),
  concurrency: z.number().int(),
  timeoutMs: z.number().int(),
  /** where each value comes from: the admin's saved setting, the STUDIO_MODEL_* environment, or the default */
  sources: z.object({
    baseUrl: z.enum(SETTING_SOURCES),
    model: z.enum(SETTING_SOURCES),
    apiKey: z.enum(SETTING_SOURCES),
    concurrency: z.enum(SETTING_SOURCES),
    timeoutMs: z.enum(SETTING_SOURCES),
  }),
  isConfigured: z.boolean(),
});
export type ModelSettingsView = z.infer<typeof modelSettingsViewSchema>;

/**
 * Why a model call failed, classified: the key was refused (401/403), the path or model does not
 * exist (404), another HTTP status, no answer within the deadline, the port refused the connection,
 * the host is unknown or the connection broke, the TLS handshake failed, the answer is not a chat
 * completion (or too large, or a redirect), the studio's budget is spent, the caller went away,
 * or no endpoint (or no readable key) is configured.
 */
export const MODEL_CALL_REASONS = [
  "auth",
  "not_found",
  "status",
  "timeout",
  "refused",
  "unreachable",
  "tls",
  "bad_answer",
  "unusable",
  "budget",
  "cancelled",
  "not_configured",
] as const;
export const modelCallReasonSchema = z.enum(MODEL_CALL_REASONS);
export type ModelCallReason = z.infer<typeof modelCallReasonSchema>;

/**
 * What "test connection" saw: the HTTP status (null when none came back), the time it took in
 * milliseconds and, on failure, the classified reason. Never a page body: on success only the
 * model's reply (at most 200 characters), on failure nothing the endpoint wrote.
 */
export const connectionTestSchema = z.object({
  ok: z.boolean(),
  model: z.string().nullable(),
  reply: z.string().nullable(),
  status: z.number().int().nullable(),
  reason: modelCallReasonSchema.nullable(),
  ms: z.number(),
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number() }).nullable(),
});
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

// ── Suggestions and provenance ───────────────────────────────────────────────────────────────────

export const SUGGESTION_KINDS = ["thought", "action"] as const;
export const suggestionKindSchema = z.enum(SUGGESTION_KINDS);
export type SuggestionKind = z.infer<typeof suggestionKindSchema>;

export const requestSuggestionInput = z.object({ kind: suggestionKindSchema });

export const thoughtSuggestionSchema = thoughtPartsSchema.extend({ text: z.string() });
export const actionSuggestionSchema = z.object({ toolCall: toolCallSchema, clearAction: z.string(), thought: z.string() });
export type ThoughtSuggestion = z.infer<typeof thoughtSuggestionSchema>;
export type ActionSuggestion = z.infer<typeof actionSuggestionSchema>;

/**
 * The evaluation run whose failing answer a suggestion is (origin eval, from "Send to annotation"): evidence of what the
 * model got wrong, named by the run, never a default the annotator takes.
 */
export const failedPredictionSchema = z.object({
  runId: z.string(),
  endpoint: z.string(),
  set: z.string(),
  version: z.number().int(),
  rule: z.string(),
});
export type FailedPrediction = z.infer<typeof failedPredictionSchema>;

export const suggestionViewSchema = z.discriminatedUnion("kind", [
  z.object({
    id: z.string(),
    kind: z.literal("thought"),
    stepId: z.string(),
    prompt: z.string(),
    model: z.string(),
    output: thoughtSuggestionSchema,
    createdAt: z.coerce.string(),
    failedPrediction: failedPredictionSchema.nullable(),
  }),
  z.object({
    id: z.string(),
    kind: z.literal("action"),
    stepId: z.string(),
    prompt: z.string(),
    model: z.string(),
    output: actionSuggestionSchema,
    createdAt: z.coerce.string(),
    /** Set when the suggestion is an evaluation run's failing answer: shown as the model's wrong action, never accepted. */
    failedPrediction: failedPredictionSchema.nullable(),
  }),
]);
export type SuggestionView = z.infer<typeof suggestionViewSchema>;

export * from "./provenance";

/** The fields a suggestion of this kind fills. */
export function fieldsOf(kind: SuggestionKind): ProvenanceField[] {
  return kind === "thought" ? ["thought.state", "thought.nextAction", "thought.purpose", "thought.text"] : ["clearAction", "toolCall"];
}

type SuggestionLike = { kind: "thought"; output: ThoughtSuggestion } | { kind: "action"; output: ActionSuggestion };

/** A suggestion's value for one field (undefined when the suggestion does not fill it). */
export function suggestedValue(s: SuggestionLike, field: ProvenanceField): unknown {
  if (s.kind === "thought") {
    const o = s.output;
    return { "thought.state": o.state, "thought.nextAction": o.nextAction, "thought.purpose": o.purpose, "thought.text": o.text }[
      field as string
    ];
  }
  if (field === "clearAction") return s.output.clearAction;
  if (field === "toolCall") return s.output.toolCall;
  return undefined;
}

/**
 * The provenance of a field a save changes. Equal to the accepted suggestion: accepted; changed
 * after a suggestion filled it (accepted here, or prefilled): edited; otherwise typed. `by` is the
 * saving person's audit label (their email), `at` the save's instant.
 */
export function provenanceAfterEdit(
  field: ProvenanceField,
  value: unknown,
  prev: FieldProvenance | undefined,
  accepted: (SuggestionLike & { id: string; prompt: string; model: string; acceptedAt: Date }) | null,
  at: Date,
  by: string,
): FieldProvenance {
  const stamp = at.toISOString();
  const isFresh = accepted && (!prev || new Date(prev.at) <= accepted.acceptedAt);
  if (accepted && fieldsOf(accepted.kind).includes(field)) {
    const ref = { by, suggestionId: accepted.id, prompt: accepted.prompt, model: accepted.model, at: stamp };
    if (JSON.stringify(suggestedValue(accepted, field)) === JSON.stringify(value)) return { source: "suggested-accepted", ...ref };
    if (isFresh || prev?.suggestionId === accepted.id) return { source: "suggested-edited", ...ref };
  }
  if (prev && prev.source !== "typed" && prev.suggestionId)
    return { source: "suggested-edited", by, suggestionId: prev.suggestionId, prompt: prev.prompt, model: prev.model, at: stamp };
  return { source: "typed", by, at: stamp };
}

// ── Parsing what the model answers ───────────────────────────────────────────────────────────────

/** The first JSON object in a reply (a model may wrap it in prose or ```json fences); null when none parses. */
export function firstJsonObject(reply: string): Record<string, unknown> | null {
  const fenced = reply.match(/```(?:json)?\s*([\s\S]*?)```/);
  const candidates = [fenced?.[1], reply];
  for (const c of candidates) {
    if (!c) continue;
    const start = c.indexOf("{");
    const end = c.lastIndexOf("}");
    if (start < 0 || end <= start) continue;
    try {
      const v: unknown = JSON.parse(c.slice(start, end + 1));
      if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // try the next candidate
    }
  }
  return null;
}

const thoughtReplySchema = z.object({
  state: z.string().trim().min(1, "is empty"),
  next_action: z.string().trim().min(1, "is empty"),
  purpose: z.string().trim().min(1, "is empty"),
});

/** The three thought parts from a reply to suggest-thought; throws an Error naming what is wrong. */
export function parseThoughtReply(reply: string): { state: string; nextAction: string; purpose: string } {
  const obj = firstJsonObject(reply);
  if (!obj) throw new Error("the model's answer holds no JSON object with state, next_action and purpose");
  const r = thoughtReplySchema.safeParse(obj);
  if (!r.success) throw new Error(`the model's answer: ${r.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
  return { state: r.data.state, nextAction: r.data.next_action, purpose: r.data.purpose };
}

const judgeReplySchema = z.object({
  completed: z.boolean(),
  consistent: z.boolean(),
  reason: z.string().default(""),
});

/** The judge's verdict from its reply; throws an Error naming what is wrong. */
export function parseJudgeReply(reply: string): { outcome: "success" | "failure"; isConsistent: boolean; reason: string } {
  const obj = firstJsonObject(reply);
  if (!obj) throw new Error("the judge's answer holds no JSON object with completed, consistent and reason");
  const r = judgeReplySchema.safeParse(obj);
  if (!r.success) throw new Error(`the judge's answer: ${r.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
  return { outcome: r.data.completed ? "success" : "failure", isConsistent: r.data.consistent, reason: r.data.reason.slice(0, 4_000) };
}

// ── Background jobs ──────────────────────────────────────────────────────────────────────────────

export const MODEL_JOB_KINDS = ["prefill", "judge"] as const;
export const MODEL_JOB_STATES = ["running", "paused", "cancelled", "succeeded", "failed"] as const;
export const modelJobStateSchema = z.enum(MODEL_JOB_STATES);
export type ModelJobState = z.infer<typeof modelJobStateSchema>;

export const startModelJobInput = z
  .object({
    kind: z.enum(MODEL_JOB_KINDS),
    /** the trajectories to work on; for the judge, empty takes every reviewed one */
    trajectoryIds: z.array(text("id").min(1)).max(10_000).default([]),
    /**
     * Pre-annotation only, instead of ids: every trajectory matching the trajectory list's filters
     * (app, status, instruction text, assignee email or "none") that still has a step nobody has touched.
     */
    matching: trajectoryFiltersSchema.omit({ page: true }).optional(),
    /**
     * Pre-annotation only, an admin's explicit choice: also work on submitted and approved trajectories
     * and on steps people worked on. A thought any part of which a person wrote is still never replaced.
     */
    includeSubmittedAndApproved: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (v.includeSubmittedAndApproved && v.kind !== "prefill")
      ctx.addIssue({
        code: "custom",
        path: ["includeSubmittedAndApproved"],
        message: "including submitted and approved work is for pre-annotation (kind prefill)",
      });
    if (v.matching && v.trajectoryIds.length)
      ctx.addIssue({ code: "custom", path: ["matching"], message: "give either trajectoryIds or matching filters, not both" });
    if (v.matching && v.kind !== "prefill")
      ctx.addIssue({ code: "custom", path: ["matching"], message: "matching filters are for pre-annotation (kind prefill)" });
  });
/** What a caller gives (trajectoryIds may be left out). */
export type StartModelJobInput = z.input<typeof startModelJobInput>;

export const MODEL_JOB_COMMANDS = ["pause", "resume", "cancel"] as const;
export const modelJobCommandInput = z.object({ command: z.enum(MODEL_JOB_COMMANDS) });
export type ModelJobCommand = z.infer<typeof modelJobCommandInput>["command"];

export const modelJobViewSchema = z.object({
  id: z.string(),
  kind: z.enum(MODEL_JOB_KINDS),
  state: modelJobStateSchema,
  prompt: z.string(),
  model: z.string(),
  createdBy: z.string(),
  trajectories: z.number().int(),
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  skipped: z.number().int(),
  /** the steps left alone, by reason (pre-annotation); reasons with none are absent */
  skippedBy: z.partialRecord(z.enum(PREFILL_SKIP_REASONS), z.number().int()),
  /** pre-annotation told to include submitted and approved work */
  includesSubmittedAndApproved: z.boolean(),
  failures: z.number().int(),
  tokens: z.object({ prompt: z.number().int(), completion: z.number().int() }),
  /** The failure in English (scripts); `errorMessage` is what the page words in its reader's language. */
  error: z.string().nullable(),
  errorMessage: storedMessageSchema.nullable().optional(),
  startedAt: z.coerce.string(),
  finishedAt: z.coerce.string().nullable(),
});
export type ModelJobView = z.infer<typeof modelJobViewSchema>;
export const modelJobListSchema = z.object({ jobs: z.array(modelJobViewSchema) });
export const modelJobAnswerSchema = z.object({ job: modelJobViewSchema });

// ── Judge agreement ──────────────────────────────────────────────────────────────────────────────

/** counts[human][judge] over success/failure */
export type Confusion = { success: { success: number; failure: number }; failure: { success: number; failure: number } };

export function emptyConfusion(): Confusion {
  return { success: { success: 0, failure: 0 }, failure: { success: 0, failure: 0 } };
}

/**
 * Cohen's kappa for two raters over two classes: (p_o - p_e) / (1 - p_e). Null with no pairs, and
 * when chance agreement is total (both raters always gave the same single class): kappa is undefined there.
 */
export function cohensKappa(c: Confusion): number | null {
  const n = c.success.success + c.success.failure + c.failure.success + c.failure.failure;
  if (n === 0) return null;
  const po = (c.success.success + c.failure.failure) / n;
  const humanS = (c.success.success + c.success.failure) / n;
  const judgeS = (c.success.success + c.failure.success) / n;
  const pe = humanS * judgeS + (1 - humanS) * (1 - judgeS);
  if (pe === 1) return null;
  return (po - pe) / (1 - pe);
}

export const confusionSchema = z.object({
  success: z.object({ success: z.number().int(), failure: z.number().int() }),
  failure: z.object({ success: z.number().int(), failure: z.number().int() }),
});

export const agreementGroupSchema = z.object({
  pairs: z.number().int(),
  agree: z.number().int(),
  confusion: confusionSchema,
  kappa: z.number().nullable(),
});
export const judgeAgreementSchema = z.object({
  overall: agreementGroupSchema,
  byApp: z.array(agreementGroupSchema.extend({ app: z.string() })),
  /** reviewed trajectories with no verdict yet */
  unjudged: z.number().int(),
  disagreements: z.array(
    z.object({
      trajectoryId: z.string(),
      app: z.string(),
      instruction: z.string(),
      human: outcomeSchema,
      judge: outcomeSchema,
      isConsistent: z.boolean(),
      reason: z.string(),
      model: z.string(),
      prompt: z.string(),
    }),
  ),
});
export type JudgeAgreement = z.infer<typeof judgeAgreementSchema>;
