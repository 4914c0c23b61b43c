"use client";

import type { StoredMessage } from "@/lib/domain/stored-message";
import { isMessageKey } from "@/lib/i18n";
import { useFormat, useT } from "@/lib/i18n/react";
import { messageNodes } from "./format";

/**
 * A message kept in the database (a failed job's error) in the reader's language: its sentence
 * with instants written by the person's date formatter, then the words from elsewhere on their own
 * "details" line. `fallback` (the English words) is shown only for a key this build does not know.
 */
export function StoredMessageText({ message, fallback }: { message: StoredMessage | null | undefined; fallback?: string | null }) {
  const t = useT();
  const format = useFormat();
  if (!message || !isMessageKey(message.key)) return <span data-i18n="data">{fallback ?? ""}</span>;
  // Counts go to the message itself, which words their plurals; instants in the person's date style (checked like any
  // date on the page); other values are data.
  const vars = Object.entries(message.vars ?? {});
  const counts = Object.fromEntries(vars.filter(([name, v]) => typeof v === "number" && !name.endsWith("At")));
  const nodes = Object.fromEntries(
    vars
      .filter(([name]) => !(name in counts))
      .map(([name, v]) => [name, name.endsWith("At") ? format.dateTime(String(v)) : <span data-i18n="data">{v}</span>]),
  );
  return (
    <>
      {messageNodes(t, message.key, counts, nodes)}
      {message.detail && (
        <span className="error-detail">
          {t("error.details")} <span data-i18n="data">{message.detail}</span>
        </span>
      )}
    </>
  );
}
