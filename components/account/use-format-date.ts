"use client";

import { useCallback } from "react";
import { useLocale } from "@/lib/i18n/react";

/** Date and time in the person's language, or a dash when there is none. */
export function useFormatDate(): (iso: string | null) => string {
  const locale = useLocale();
  return useCallback(
    (iso) => (iso ? new Date(iso).toLocaleString(locale === "zh" ? "zh-CN" : "en-GB", { dateStyle: "medium", timeStyle: "short" }) : "—"),
    [locale],
  );
}
