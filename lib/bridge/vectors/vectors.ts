import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { boxSchema } from "@/lib/domain/geometry";
import { toolCallSchema } from "@/lib/domain/tool-call";
import { groundTruthSchema } from "../rewards";

/** Schemas and loaders of the vector tables derived from UI-S1's code (see README.md here). Test-only. */

export const UI_S1_REWARD_VECTORS = fileURLToPath(new URL("./ui-s1-reward-vectors.json", import.meta.url));
export const UI_S1_SOP_VECTORS = fileURLToPath(new URL("./ui-s1-sop-vectors.json", import.meta.url));

const upstreamSchema = z.object({ repository: z.string(), path: z.string(), commit: z.string().regex(/^[0-9a-f]{40}$/), licence: z.literal("MIT") });

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
