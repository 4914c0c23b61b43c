import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { personSettingsAnswer, type PersonSettings, type SavePersonSettingsInput } from "@/lib/domain/person-settings";
import { getJson, sendJson } from "./fetcher";

export const personSettingsKeys = {
  mine: () => ["me", "settings"] as const,
};

/** Changes sent to the server and not yet answered, per cache, in the order they were made. */
const unanswered = new WeakMap<QueryClient, SavePersonSettingsInput[]>();

/** What the server said, with the changes still on their way laid over it: an answer never takes one back. */
function withUnanswered(client: QueryClient, settings: PersonSettings): PersonSettings {
  return Object.assign({}, settings, ...(unanswered.get(client) ?? []));
}

/** The signed-in person's own settings (GET /api/me/settings). */
export const personSettingsQuery = () =>
  queryOptions({
    queryKey: personSettingsKeys.mine(),
    queryFn: ({ signal, client }) =>
      getJson("/api/me/settings", personSettingsAnswer, signal).then((a) => withUnanswered(client, a.settings)),
    staleTime: Infinity,
  });

/**
 * Change some settings: shown at once (the cache is updated before the server answers), then
 * replaced by what the server stored. A read still on its way (the settings not loaded yet) is
 * stopped first: it holds what was stored before the change and would take the change back; the
 * save's answer brings all the settings instead. A refused save puts the server's settings back.
 */
export async function savePersonSettings(client: QueryClient, patch: SavePersonSettingsInput): Promise<void> {
  const key = personSettingsKeys.mine();
  const waiting = unanswered.get(client) ?? [];
  unanswered.set(client, waiting);
  waiting.push(patch);
  const answered = () => void waiting.splice(waiting.indexOf(patch), 1);
  // Shown at once, before any await: the control that made the change reflects it in the same event.
  client.setQueryData(key, (s: PersonSettings | undefined) => ({ ...s, ...patch }));
  if (client.isFetching({ queryKey: key }) > 0) {
    await client.cancelQueries({ queryKey: key });
    // The cancel put back what the cache held before that read: lay the changes still on their way over it again.
    client.setQueryData(key, (s: PersonSettings | undefined) => withUnanswered(client, s ?? {}));
  }
  try {
    const answer = await sendJson("PUT", "/api/me/settings", patch, personSettingsAnswer);
    answered();
    client.setQueryData(key, withUnanswered(client, answer.settings));
  } catch {
    answered();
    await client.invalidateQueries({ queryKey: key });
  }
}

/** The cached settings, for code outside React (a shortcut deciding what a key does). */
export function cachedPersonSettings(client: QueryClient): PersonSettings {
  return client.getQueryData<PersonSettings>(personSettingsKeys.mine()) ?? {};
}
