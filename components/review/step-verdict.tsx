"use client";

import type { StepView } from "@/lib/domain/views";
import type { useT } from "@/lib/i18n/react";

type T = ReturnType<typeof useT>;

/** A step's verdict; a step after the cut that nobody judged reads "after the cut", never "unreviewed". */
export function StepVerdict({ verdict, isExcluded, t }: { verdict: StepView["verdict"]; isExcluded: boolean; t: T }) {
  if (isExcluded && verdict === "unreviewed") return <span className="chip chip-after-cut">{t("review.excluded")}</span>;
  return (
    <>
      <span className={`verdict verdict-${verdict}`}>{t(`verdict.${verdict}`)}</span>
      {isExcluded && <span className="chip chip-after-cut">{t("review.excluded")}</span>}
    </>
  );
}
