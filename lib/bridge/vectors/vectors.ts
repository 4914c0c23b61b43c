import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { boxSchema } from "@/lib/domain/geometry";
import { toolCallSchema } from "@/lib/domain/tool-call";
import { groundTruthSchema } from "@/lib/domain/rewards";

/** Schemas and loaders of the vector tables derived from UI-S1's code (see README.md here). Test-only. */

export const UI_S1_REWARD_VECTORS = fileURLToPath(new URL("./ui-s1-reward-vectors.json", import.meta.url));
export const UI_S1_SOP_VECTORS = fileURLToPath(new URL("./ui-s1-sop-vectors.json", import.meta.url));

const upstreamSchema = z.object({
  repository: z.string(),
  path: z.string(),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  licence: z.literal("MIT"),
});

export const uiS1RewardVectorsSchema = z.object({
  upstream: upstreamSchema,
  vectors: z.array(
    z.object({
      name: z.string(),
      note: z.string(),
      response: z.string(),
      gt: groundTruthSchema,
      check_options: z.record(z.string(), z.unknown()),
      upstream_error: z.string().nullable(),
      expect: z.object({ score: z.number(), format_score: z.number(), type_match: z.boolean(), extract_match: z.boolean() }),
    }),
  ),
});

const sopStepSchema = z.object({
  call: toolCallSchema,
  width: z.number().int(),
  height: z.number().int(),
  box: boxSchema.nullable(),
  candidates: z.array(boxSchema),
  annotation: z.enum(["GOOD", "HARMFUL", "NEUTRAL"]),
});

export const uiS1SopVectorsSchema = z.object({
  upstream: upstreamSchema,
  trajectories: z.array(
    z.object({
      name: z.string(),
      steps: z.array(sopStepSchema),
      responses: z.array(z.string()),
      expect: z.object({ num_steps: z.number(), final_step_id: z.number(), task_success: z.boolean(), responses_used: z.number() }),
    }),
  ),
  totals: z.object({ trajectories: z.number(), success_rate: z.number(), progress: z.number() }),
});

export const loadUiS1RewardVectors = () => uiS1RewardVectorsSchema.parse(JSON.parse(readFileSync(UI_S1_REWARD_VECTORS, "utf8")));
export const loadUiS1SopVectors = () => uiS1SopVectorsSchema.parse(JSON.parse(readFileSync(UI_S1_SOP_VECTORS, "utf8")));

export const UI_S1_PROMPT_VECTORS = fileURLToPath(new URL("./ui-s1-prompt-vectors.json", import.meta.url));

const scoredSchema = z.object({
  response: z.string(),
  score: z.number(),
  format_score: z.number(),
  type_match: z.boolean(),
  extract_match: z.boolean(),
});
const uiS1ContentSchema = z.union([
  z.object({ text: z.string() }).strict(),
  z
    .object({
      image: z.string(),
      height: z.number(),
      width: z.number(),
      resized_height: z.number(),
      resized_width: z.number(),
      seq_len: z.number(),
    })
    .strict(),
]);

export const uiS1PromptVectorsSchema = z.object({
  upstream: upstreamSchema,
  system_prompt: z.string(),
  generate_prompt: z.object({ as_gen_next_round_calls_it: z.string(), add_thought_true: z.string() }),
  raw_space_actions: z.array(z.string()),
  frames: z.array(
    z.object({
      width: z.number(),
      height: z.number(),
      resized_width: z.number().nullable(),
      resized_height: z.number().nullable(),
      seq_len: z.number().nullable(),
      error: z.string().nullable(),
    }),
  ),
  trajectories: z.array(
    z.object({
      name: z.string(),
      goal: z.string(),
      steps: z.array(
        z.object({
          call: toolCallSchema,
          width: z.number().int(),
          height: z.number().int(),
          thought: z.string(),
          box: boxSchema.nullable(),
          annotation: z.enum(["GOOD", "HARMFUL", "NEUTRAL"]),
          image: z.string(),
        }),
      ),
      rounds: z.array(
        z.object({
          step: z.number().int(),
          messages: z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.array(uiS1ContentSchema) })),
          check_options: z.record(z.string(), z.unknown()),
          extra_info: z.object({ width: z.number(), height: z.number(), resized_width: z.number(), resized_height: z.number() }),
          answers: z.object({ format_response: scoredSchema, mobile_r1_layout: scoredSchema }),
        }),
      ),
    }),
  ),
});
export type UiS1PromptVectors = z.infer<typeof uiS1PromptVectorsSchema>;

export const loadUiS1PromptVectors = () => uiS1PromptVectorsSchema.parse(JSON.parse(readFileSync(UI_S1_PROMPT_VECTORS, "utf8")));
