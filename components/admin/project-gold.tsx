"use client";

import { useId, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { GOLD_RATE_UI_MAX, type GoldRates } from "@/lib/domain/gold";
import { ErrorBox, Loading } from "@/components/ui/states";
import { useFormat, useT } from "@/lib/i18n/react";
import { goldRatesQuery, useSetGoldRate } from "@/lib/queries/gold";

type ProjectGold = GoldRates["projects"][number];

/** A rate 0..1 as the whole percent the input shows. */
const toPercent = (rate: number | null) => String(Math.round((rate ?? 0) * 100));

/** Per project: the share of each person's takes that are gold tasks (0–50 %), with how many gold tasks it has. */
export function ProjectGold() {
  const t = useT();
  const format = useFormat();
  const query = useQuery(goldRatesQuery());
  const [saved, setSaved] = useState<{ project: string; rate: number | null } | null>(null);
  if (query.error) return <ErrorBox error={query.error} />;
  if (!query.data) return <Loading />;
  const { projects } = query.data;
  return (
    <section className="panel panel-pad admin-section" aria-labelledby="project-gold-title">
      <h2 id="project-gold-title">{t("gold.admin.title")}</h2>
      <p className="sub">{t("gold.admin.sub", { max: String(GOLD_RATE_UI_MAX * 100) })}</p>
      {projects.length === 0 ? (
        <p className="muted">{t("gold.admin.none")}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t("gold.admin.project")}</th>
              <th scope="col" className="num">
                {t("gold.admin.tasks")}
              </th>
              <th scope="col">{t("gold.admin.rate")}</th>
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              // Keyed by the saved rate too: a save (or another admin's) resets the row's draft to what is stored.
              <GoldRow key={`${p.project}:${p.rate}`} project={p} onSaved={(rate) => setSaved({ project: p.project, rate })} />
            ))}
          </tbody>
        </table>
      )}
      <p role="status">{saved ? t("gold.admin.saved", { project: saved.project, rate: format.percent(saved.rate ?? 0) }) : null}</p>
    </section>
  );
}

function GoldRow({ project: p, onSaved }: { project: ProjectGold; onSaved: (rate: number | null) => void }) {
  const t = useT();
  const format = useFormat();
  const save = useSetGoldRate();
  const [draft, setDraft] = useState(toPercent(p.rate));
  const percent = Number(draft);
  const max = GOLD_RATE_UI_MAX * 100;
  const isValid = draft.trim() !== "" && Number.isFinite(percent) && percent >= 0 && percent <= max;
  const noteId = useId();
  return (
    <tr>
      <th scope="row" data-i18n="data">
        {p.project}
      </th>
      <td className="num">{format.number(p.goldTasks)}</td>
      <td>
        <form
          className="form-row"
          onSubmit={(e) => {
            e.preventDefault();
            if (isValid) save.mutate({ project: p.project, rate: percent / 100 }, { onSuccess: (r) => onSaved(r.rate) });
          }}
        >
          <input
            className="input"
            type="number"
            inputMode="decimal"
            min={0}
            max={max}
            step={1}
            style={{ width: "6rem" }}
            value={draft}
            aria-label={t("gold.admin.rateFor", { project: p.project })}
            aria-invalid={!isValid || undefined}
            aria-describedby={noteId}
            onChange={(e) => setDraft(e.target.value)}
          />
          <span aria-hidden="true">%</span>
          <button
            type="submit"
            className="btn"
            disabled={!isValid || save.isPending || draft === toPercent(p.rate)}
            aria-label={t("gold.admin.saveFor", { project: p.project })}
          >
            {t("gold.admin.save")}
          </button>
          <span id={noteId} className="hint">
            {!isValid ? t("gold.admin.range", { max: String(max) }) : null}
          </span>
        </form>
        {save.error && <ErrorBox error={save.error} />}
      </td>
    </tr>
  );
}
