// GET /api/me/settings: your own studio settings. PUT /api/me/settings: change some of them
import { personSettingsAnswer, savePersonSettingsInput } from "@/lib/domain/person-settings";
import { getPersonSettings, savePersonSettings } from "@/lib/server/people";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "signed-in",
  output: personSettingsAnswer,
  handler: async ({ actor }) => ({ settings: await getPersonSettings({ actor }) }),
});

export const PUT = route({
  permission: "signed-in",
  body: savePersonSettingsInput,
  output: personSettingsAnswer,
  handler: async ({ actor, body }) => ({ settings: await savePersonSettings({ actor, ...body }) }),
});
