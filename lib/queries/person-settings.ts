import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { personSettingsAnswer, type PersonSettings, type SavePersonSettingsInput } from "@/lib/domain/person-settings";
import { getJson, sendJson } from "./fetcher";

export const personSettingsKeys = {
  mine: () => ["me", "settings"] as const,
};

/** The signed-in person's own settings (GET /api/me/settings). */
export const personSettingsQuery = () =>
  queryOptions({
    queryKey: personSettingsKeys.mine(),
    queryFn: ({ signal }) => getJson("/api/me/settings", personSettingsAnswer, signal).then((a) => a.settings),
    staleTime: Infinity,
  });

/**
 * Change some settings: shown at once (the cache is updated before the server answers), then
 * replaced by what the server stored. A refused save puts the server's settings back.
 */
export async function savePersonSettings(client: QueryClient, patch: SavePersonSettingsInput): Promise<void> {
  const key = personSettingsKeys.mine();
  client.setQueryData(key, (s: PersonSettings | undefined) => ({ ...s, ...patch }));
  try {
    const answer = await sendJson("PUT", "/api/me/settings", patch, personSettingsAnswer);
    client.setQueryData(key, answer.settings);
  } catch {
    await client.invalidateQueries({ queryKey: key });
  }
}

/** The cached settings, for code outside React (a shortcut deciding what a key does). */
export function cachedPersonSettings(client: QueryClient): PersonSettings {
  return client.getQueryData<PersonSettings>(personSettingsKeys.mine()) ?? {};
}
