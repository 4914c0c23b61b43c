"use client";

import { useT } from "@/lib/i18n/react";

/** The pre-annotation option to include submitted and approved work (a person's fields are never written either way). */
export function IncludeHandedInField({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const t = useT();
  return (
    <label className="field">
      <span>
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> {t("model.prefill.include")}
      </span>
      <small className="muted">{t("model.prefill.includeHint")}</small>
    </label>
  );
}
