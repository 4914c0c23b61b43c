// GET /api/model/settings: the model endpoint as the studio uses it (never the key). PUT: save it (admin)
import { saveModelSettingsInput } from "@/lib/domain/model";
import { authed, json, readJson } from "@/lib/server/http";
import { getModelSettings, saveModelSettings } from "@/lib/server/model";

export const GET = authed(async (_req: Request, _ctx: unknown, actor) => json({ settings: await getModelSettings(actor) }));

export const PUT = authed(async (req: Request, _ctx: unknown, actor) => {
  const input = saveModelSettingsInput.parse(await readJson(req));
  return json({ settings: await saveModelSettings(actor, input) });
});
