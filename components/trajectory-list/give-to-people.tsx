"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { OVERLAP_COPIES } from "@/lib/domain/overlap";
import { useT } from "@/lib/i18n/react";
import { useOverlap } from "@/lib/queries/overlap";
import { assignablePeopleQuery } from "@/lib/queries/trajectories";

const LEAST = Math.min(...OVERLAP_COPIES);
const MOST = Math.max(...OVERLAP_COPIES);

/**
 * "Give to chosen people…" (admins): the admin picks 2 or 3 different people, and each selected
 * trajectory gets one copy per person, given to them in the same request (POST /api/overlap with
 * `assignees`), so nobody has to find the copies afterwards. The plain "Give to N people" buttons
 * beside it leave the copies in the pool for "Start next task".
 */
export function GiveToPeople({
  ids,
  disabled,
  onMade,
  onError,
}: {
  ids: string[];
  disabled: boolean;
  onMade: (people: number, copies: number) => void;
  onError: (error: unknown) => void;
}) {
  const t = useT();
  const overlap = useOverlap();
  const [isOpen, setOpen] = useState(false);
  const people = useQuery({ ...assignablePeopleQuery(), enabled: isOpen });
  const [chosen, setChosen] = useState<string[]>(Array.from({ length: MOST }, () => ""));
  const picked = chosen.filter((e) => e !== "");
  const isValid = picked.length >= LEAST && new Set(picked).size === picked.length;
  const submit = () =>
    overlap.mutate(
      { trajectoryIds: ids, copies: picked.length as (typeof OVERLAP_COPIES)[number], assignees: picked },
      {
        onSuccess: (r) => {
          setOpen(false);
          setChosen(chosen.map(() => ""));
          onMade(
            picked.length,
            r.overlapped.reduce((n, o) => n + o.copies.length, 0),
          );
        },
        onError,
      },
    );
  return (
    <>
      <button
        type="button"
        className="btn"
        aria-expanded={isOpen}
        disabled={disabled || overlap.isPending}
        onClick={() => setOpen((o) => !o)}
      >
        {t("list.quality.pick")}
      </button>
      {isOpen && (
        <div className="panel panel-pad" style={{ flexBasis: "100%" }} role="dialog" aria-label={t("list.quality.pickTitle")}>
          <p>{t("list.quality.pickSub")}</p>
          <div className="form-row">
            {chosen.map((email, k) => (
              <label key={k} className="field">
                <span>{t(k < LEAST ? "list.quality.person" : "list.quality.personOptional", { k: k + 1 })}</span>
                <select className="select" value={email} onChange={(e) => setChosen(chosen.map((c, i) => (i === k ? e.target.value : c)))}>
                  <option value="">{t("list.quality.nobody")}</option>
                  {people.data?.people.map((p) => (
                    <option key={p.email} value={p.email} disabled={chosen.includes(p.email) && p.email !== email} data-i18n="data">
                      {p.name} ({p.email})
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
          <div className="form-row">
            <button type="button" className="btn btn-primary" disabled={!isValid || overlap.isPending} onClick={submit}>
              {t("list.quality.pickSubmit")}
            </button>
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              {t("list.quality.pickCancel")}
            </button>
          </div>
        </div>
      )}
    </>
  );
}
