"use client";

import { useState } from "react";
import { formatCalendarDay, parseCalendarDay } from "@/lib/i18n/format";
import { useFormat, useT } from "@/lib/i18n/react";

/**
 * A calendar day typed as text in the person's language's date style (`2026年11月25日`,
 * `25 Nov 2026`; `2026-11-25` is read in both). A browser's `<input type="date">` writes the day
 * in the browser's own locale (mm/dd/yyyy inside the Chinese UI), so the studio does not use it.
 * `value` and `onChange` carry `YYYY-MM-DD`, or "" for no day; text that is not a day yet is
 * marked invalid and changes nothing.
 */
export function DayInput({ value, onChange, label }: { value: string; onChange: (iso: string) => void; label?: string }) {
  const t = useT();
  const { locale } = useFormat();
  const shown = (iso: string) => (iso ? formatCalendarDay(iso, locale) : "");
  const [text, setText] = useState(() => shown(value));
  const [seen, setSeen] = useState(value);
  // A value set from outside (the filters cleared) replaces what is typed.
  if (value !== seen) {
    setSeen(value);
    if (parseCalendarDay(text) !== value) setText(shown(value));
  }
  const parsed = parseCalendarDay(text);
  const invalid = text.trim() !== "" && parsed === null;
  return (
    <input
      className="input input-date"
      inputMode="numeric"
      value={text}
      aria-label={label}
      aria-invalid={invalid || undefined}
      title={invalid ? t("ui.dayInvalid", { example: formatCalendarDay("2026-11-25", locale) }) : undefined}
      placeholder={formatCalendarDay("2026-11-25", locale)}
      onChange={(e) => {
        setText(e.target.value);
        const day = e.target.value.trim() === "" ? "" : parseCalendarDay(e.target.value);
        if (day !== null) {
          setSeen(day);
          onChange(day);
        }
      }}
      // Written back in the language's style once the person moves on.
      onBlur={() => parsed && setText(shown(parsed))}
    />
  );
}
