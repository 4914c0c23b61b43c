"use client";

import { useCallback, useSyncExternalStore } from "react";

/**
 * A person's editor settings, kept in this browser (one key per person, so two people sharing a
 * machine keep their own). Read with `useSyncExternalStore`: a change in another tab shows here too.
 */
const CHANGE = "studio:preferences";
const keyOf = (personId: string, name: string) => `studio.prefs.${personId}.${name}`;

function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGE, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGE, onChange);
  };
}

export function readFlag(personId: string, name: string): boolean {
  try {
    return window.localStorage.getItem(keyOf(personId, name)) === "1";
  } catch {
    return false;
  }
}

/** A boolean setting of this person, off until they turn it on. */
export function useFlagPreference(personId: string, name: string): [boolean, (on: boolean) => void] {
  const value = useSyncExternalStore(
    subscribe,
    () => readFlag(personId, name),
    () => false,
  );
  const set = useCallback(
    (on: boolean) => {
      try {
        if (on) window.localStorage.setItem(keyOf(personId, name), "1");
        else window.localStorage.removeItem(keyOf(personId, name));
      } catch {
        // Storage refused (private mode): the setting lasts until the page closes.
      }
      window.dispatchEvent(new Event(CHANGE));
    },
    [personId, name],
  );
  return [value, set];
}

/** The name of the "verdict keys go to the next step" setting. */
export const VERDICT_ADVANCES = "verdictAdvances";
