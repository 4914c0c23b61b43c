"use client";

import { StoredMessageText } from "@/components/ui/stored-message";
import { useQuery } from "@tanstack/react-query";
import { Fragment } from "react";
import { CopyButton } from "@/components/account/copy";
import { fillNodes } from "@/components/ui/format";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { useFormat, useT } from "@/lib/i18n/react";
import { trainerCommands } from "@/lib/domain/trainer-hints";
import type { ExportItem } from "@/lib/domain/exports";
import { exportsQuery } from "@/lib/queries/exports";

/** Finished (and failed) exports: filters, counts from the manifest, the folder, and the trainer bridge command. */
export function ExportList() {
  const t = useT();
  const query = useQuery(exportsQuery());
  const items = query.data?.exports.filter((e) => e.state !== "running");
  return (
    <section className="panel" aria-labelledby="exports-title">
      <div className="panel-pad">
        <h2 id="exports-title">{t("export.previous")}</h2>
      </div>
      {query.error ? (
        <div className="panel-pad">
          <ErrorBox error={query.error} />
        </div>
      ) : !items ? (
        <Loading>{t("admin.loading")}</Loading>
      ) : items.length === 0 ? (
        <EmptyState title={t("export.none")}>
          <p>{t("export.noneHint")}</p>
        </EmptyState>
      ) : (
        <ul className="export-list" aria-label={t("export.previous")}>
          {items.map((e) => (
            <ExportEntry key={e.id} item={e} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ExportEntry({ item }: { item: ExportItem }) {
  const t = useT();
  const formatDate = useFormat().dateTime;
  const c = item.counts;
  // Apps, the project and the split are names people gave: data, read in any language.
  const filters: { text: string; data: boolean }[] = [
    {
      text: t(`export.status.${item.filters.status === "submitted" || item.filters.status === "all" ? item.filters.status : "approved"}`),
      data: false,
    },
    item.filters.apps.length ? { text: item.filters.apps.join(", "), data: true } : { text: t("export.allApps"), data: false },
    ...(item.filters.project ? [{ text: item.filters.project, data: true }] : []),
    ...(item.filters.split ? [{ text: item.filters.split, data: true }] : []),
  ];
  return (
    <li className="export-entry" aria-label={item.id}>
      <div className="export-entry-head">
        <strong>{item.id}</strong>
        {item.state === "failed" ? (
          <span className="badge badge-rejected">{t("export.state.failed")}</span>
        ) : (
          <span className="badge badge-approved">{t("export.done")}</span>
        )}
        <span className="muted">{formatDate(item.finishedAt ?? item.startedAt)}</span>
        <span className="muted">
          {filters.map((f, i) => (
            <Fragment key={i}>
              {i > 0 && " · "}
              {f.data ? <span data-i18n="data">{f.text}</span> : f.text}
            </Fragment>
          ))}
        </span>
      </div>
      {item.state === "failed" ? (
        <p className="error-text">
          <StoredMessageText message={item.errorMessage} fallback={item.error} />
        </p>
      ) : (
        c && (
          <>
            <dl className="counts">
              <Count label={t("export.trajectories")} value={c.trajectories} />
              <Count label={t("export.steps")} value={c.steps} />
              <Count label={t("export.trainingSteps")} value={c.trainingSteps} />
              <Count label={t("export.harmfulSteps")} value={c.harmfulSteps} />
              <Count label={t("export.screenshots")} value={c.screenshots} />
              {Object.entries(c.bySplit).map(([split, n]) => (
                <Count key={split} label={split} value={n} data />
              ))}
            </dl>
            <div className="cmd-row">
              <span className="cmd-label">{t("export.folder")}</span>
              <code className="cmd">{item.outDir}</code>
              <CopyButton text={item.outDir} label={t("export.copyFolder")} />
            </div>
            <TrainerCommands item={item} />
          </>
        )
      )}
    </li>
  );
}

/** Per trainer: the bridge command, and the settings the rows need (measured at export time). */
function TrainerCommands({ item }: { item: ExportItem }) {
  const t = useT();
  const h = item.trainer;
  return (
    <section className="trainer-commands" aria-label={t("export.bridge")}>
      {item.filters.status === "all" && <p className="hint hint-warn">{t("export.unreviewedWarning")}</p>}
      <p className="hint">
        {h && h.rows > 0
          ? t("export.trainerMeasured", {
              rows: h.rows,
              maxPixels: h.maxPixels,
              prompt: h.maxPromptTokens,
              image: h.maxImageTokens,
              sequence: h.maxSequenceTokens,
            })
          : t("export.trainerNotMeasured")}
      </p>
      {trainerCommands(item.outDir, h).map((c) => (
        <div key={c.trainer} className="trainer-command" aria-label={t(`export.trainer.${c.trainer}`)}>
          <div className="cmd-row">
            <span className="cmd-label">{t(`export.trainer.${c.trainer}`)}</span>
            <code className="cmd">{c.bridge}</code>
            <CopyButton text={c.bridge} label={t("export.copyCommand")} />
          </div>
          {c.settings.length > 0 && (
            <div className="cmd-row">
              <span className="cmd-label">{t("export.trainerSettings")}</span>
              <code className="cmd">{c.settings.join("\n")}</code>
              <CopyButton text={c.settings.join("\n")} label={t("export.copySettings")} />
            </div>
          )}
          {c.runFrom && (
            <p className="hint">
              {fillNodes(t("export.runFrom"), { dir: <code data-i18n="data">{c.runFrom}</code>, flag: <code>--image-root</code> })}
            </p>
          )}
        </div>
      ))}
    </section>
  );
}

/** One figure; `data` marks a label people named (a split), not a word of the catalogue. */
function Count({ label, value, data }: { label: string; value: number; data?: boolean }) {
  const format = useFormat();
  return (
    <div>
      <dt data-i18n={data ? "data" : undefined}>{label}</dt>
      <dd>{format.number(value)}</dd>
    </div>
  );
}
