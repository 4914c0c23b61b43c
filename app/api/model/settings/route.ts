// GET /api/model/settings: the model endpoint as the studio uses it (never the key). PUT: save it (admin)
import { z } from "zod";
import { modelSettingsViewSchema, saveModelSettingsInput } from "@/lib/domain/model";
import { getModelSettings, saveModelSettings } from "@/lib/server/model";
import { route } from "@/lib/server/http";

const answer = z.object({ settings: modelSettingsViewSchema });

export const GET = route({
  permission: "model.manage",
  output: answer,
  handler: async ({ actor }) => ({ settings: await getModelSettings({ actor }) }),
});

export const PUT = route({
  permission: "model.manage",
  body: saveModelSettingsInput,
  output: answer,
  handler: async ({ actor, body }) => ({ settings: await saveModelSettings({ actor, ...body }) }),
});
