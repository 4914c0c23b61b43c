"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import type { PersonSettings } from "@/lib/domain/person-settings";
import { personSettingsQuery, savePersonSettings } from "@/lib/queries/person-settings";

/**
 * One of the signed-in person's settings, stored on the server (GET/PUT /api/me/settings), so it
 * follows them to another browser. Until the settings arrive the fallback is shown and `isLoaded` is
 * false: the control that changes the setting is disabled until then (`settingControl`), so a click
 * never acts on a value the server's answer is about to replace.
 */
export function usePersonSetting<K extends keyof PersonSettings>(
  key: K,
  fallback: NonNullable<PersonSettings[K]>,
): [NonNullable<PersonSettings[K]>, (value: NonNullable<PersonSettings[K]>) => void, boolean] {
  const client = useQueryClient();
  const query = useQuery(personSettingsQuery());
  const value = (query.data?.[key] ?? fallback) as NonNullable<PersonSettings[K]>;
  const set = useCallback(
    (next: NonNullable<PersonSettings[K]>) => void savePersonSettings(client, { [key]: next } as PersonSettings),
    [client, key],
  );
  return [value, set, query.data !== undefined];
}

/** The props of a control that changes a person's setting: disabled and busy until the settings have arrived. */
export function settingControl(isLoaded: boolean): { disabled: boolean; "aria-busy": boolean } {
  return { disabled: !isLoaded, "aria-busy": !isLoaded };
}

/** Whether the person's settings have arrived (a layout waits for them so panes do not jump on load). */
export function usePersonSettingsLoaded(): boolean {
  return useQuery(personSettingsQuery()).data !== undefined;
}

/**
 * Before the settings lived on the server, "verdict keys go to the next step" was kept in this
 * browser (`studio.prefs.<person>.verdictAdvances`). Carry such a value over once, then forget it.
 */
export function useLocalSettingsMigration(personId: string) {
  const client = useQueryClient();
  const query = useQuery(personSettingsQuery());
  const settings = query.data;
  useEffect(() => {
    if (!settings) return;
    const old = `studio.prefs.${personId}.verdictAdvances`;
    try {
      if (window.localStorage.getItem(old) !== "1") return;
      window.localStorage.removeItem(old);
    } catch {
      return;
    }
    if (settings.verdictAdvances !== true) void savePersonSettings(client, { verdictAdvances: true });
  }, [client, personId, settings]);
}
