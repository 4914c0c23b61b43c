"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { useFormat, useT } from "@/lib/i18n/react";
import { EXPORT_STATUS_OPTIONS, type ExportStatusOption } from "@/lib/domain/exports";
import type { CutAccount, ReleaseDiff, SnapshotItem } from "@/lib/domain/snapshots";
import { editorPath } from "@/lib/domain/trajectory";
import { evalSetsQuery, releaseDiffQuery, releasesQuery, useCutRelease, useFreezeEvalSet, useSetHeldOut } from "@/lib/queries/snapshots";

/** The filter fields both forms share: name, status, project, apps. */
function FilterFields({ status, setStatus }: { status: ExportStatusOption; setStatus: (s: ExportStatusOption) => void }) {
  const t = useT();
  return (
    <div className="form-row">
      <label className="field">
        <span>{t("snapshots.name")}</span>
        <input className="input" name="name" required maxLength={100} />
      </label>
      <label className="field">
        <span>{t("snapshots.status")}</span>
        <select
          className="select"
          value={status}
          onChange={(e) => setStatus(EXPORT_STATUS_OPTIONS.find((s) => s === e.target.value) ?? "approved")}
        >
          {EXPORT_STATUS_OPTIONS.map((s) => (
            <option key={s} value={s}>
              {t(`export.status.${s}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t("snapshots.project")}</span>
        <input className="input" name="project" maxLength={100} placeholder={t("snapshots.projectPlaceholder")} />
      </label>
      <label className="field">
        <span>{t("snapshots.apps")}</span>
        <input className="input" name="apps" maxLength={2000} placeholder={t("snapshots.appsPlaceholder")} />
      </label>
    </div>
  );
}

function filterOf(form: FormData) {
  const text = (k: string) => String(form.get(k) ?? "").trim();
  return {
    name: text("name"),
    project: text("project") || undefined,
    apps: text("apps")
      .split(",")
      .map((a) => a.trim())
      .filter(Boolean),
  };
}

function Counts({ s }: { s: SnapshotItem }) {
  const t = useT();
  const format = useFormat();
  return (
    <span className="hint">
      {t("snapshots.counts", { trajectories: format.number(s.trajectories), steps: format.number(s.steps) })} ·{" "}
      {t("snapshots.cutBy", { who: s.createdBy, when: format.dateTime(s.createdAt) })} · <code>{s.contentSha256.slice(0, 12)}</code>
    </span>
  );
}

function List({
  items,
  error,
  render,
}: {
  items: SnapshotItem[] | undefined;
  error: unknown;
  render: (s: SnapshotItem) => React.ReactNode;
}) {
  const t = useT();
  if (error) return <ErrorBox error={error} />;
  if (!items) return <Loading>{t("snapshots.loading")}</Loading>;
  if (items.length === 0) return <EmptyState title={t("snapshots.none")} />;
  return <ul className="export-list">{items.map(render)}</ul>;
}

/** Frozen evaluation sets: the freeze form, and every version with its counts and held-out switch. */
export function EvalSetsPanel() {
  const t = useT();
  const sets = useQuery(evalSetsQuery());
  const freeze = useFreezeEvalSet();
  const heldOut = useSetHeldOut();
  const [status, setStatus] = useState<ExportStatusOption>("approved");
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const ids = String(form.get("ids") ?? "")
      .split(/\s+/)
      .filter(Boolean);
    freeze.mutate({ ...filterOf(form), status, ids: ids.length ? ids : undefined, heldOut: form.get("heldOut") === "on" });
  }
  return (
    <section className="panel" aria-labelledby="eval-sets-title">
      <div className="panel-pad">
        <h2 id="eval-sets-title">{t("snapshots.sets.title")}</h2>
        <form className="export-form" onSubmit={submit} aria-label={t("snapshots.sets.formLabel")}>
          <FilterFields status={status} setStatus={setStatus} />
          <label className="field">
            <span>{t("snapshots.sets.ids")}</span>
            <textarea className="input" name="ids" rows={2} />
          </label>
          <div className="form-row">
            <label className="check">
              <input type="checkbox" name="heldOut" /> {t("snapshots.sets.heldOut")}
            </label>
            <button className="btn btn-primary" type="submit" disabled={freeze.isPending}>
              {t("snapshots.sets.freeze")}
            </button>
          </div>
          {freeze.error && <ErrorBox error={freeze.error} />}
        </form>
      </div>
      <List
        items={sets.data?.snapshots}
        error={sets.error}
        render={(s) => (
          <li key={s.id} className="export-entry" aria-label={t("snapshots.sets.version", { name: s.name, version: s.number })}>
            <div className="export-entry-head">
              <strong data-i18n="data">{t("snapshots.sets.version", { name: s.name, version: s.number })}</strong>
              {s.heldOut && <span className="badge badge-rejected">{t("snapshots.sets.heldOutBadge")}</span>}
              <button
                className="btn btn-sm"
                type="button"
                disabled={heldOut.isPending}
                onClick={() => heldOut.mutate({ id: s.id, heldOut: !s.heldOut })}
              >
                {s.heldOut ? t("snapshots.sets.release") : t("snapshots.sets.holdOut")}
              </button>
            </div>
            <Counts s={s} />
          </li>
        )}
      />
      {heldOut.error && <ErrorBox error={heldOut.error} />}
    </section>
  );
}

/** What a cut left out, and why: the count before and after, and each reason that left something out. */
function LeftOut({ a, label }: { a: CutAccount; label: string }) {
  const t = useT();
  const format = useFormat();
  const reasons = [
    ["status", a.status],
    ["app", a.app],
    ["lane", a.lane],
    ["heldOut", a.heldOut],
    ["nearDuplicate", a.nearDuplicate],
  ] as const;
  const left = reasons.filter(([, n]) => n > 0);
  return (
    <div className="hint" role="group" aria-label={label}>
      <div>{t("snapshots.leftOut.beforeAfter", { before: a.before, after: format.number(a.after) })}</div>
      <ul>
        {left.length === 0 && <li>{t("snapshots.leftOut.nothing")}</li>}
        {left.map(([why, n]) => (
          <li key={why}>{t(`snapshots.leftOut.${why}`, { n, sets: a.heldOutSets.join(", ") })}</li>
        ))}
      </ul>
    </div>
  );
}

/** Releases: the cut form, the list with counts and who cut them, and the diff between two of them. */
export function ReleasesPanel() {
  const t = useT();
  const releases = useQuery(releasesQuery());
  const cut = useCutRelease();
  const [status, setStatus] = useState<ExportStatusOption>("approved");
  const [pair, setPair] = useState<{ from: number; to: number } | null>(null);
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    cut.mutate({
      ...filterOf(form),
      status,
      includeHeldOut: form.get("includeHeldOut") === "on",
      license: String(form.get("license") ?? "").trim(),
    });
  }
  function compare(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPair({ from: Number(form.get("from")), to: Number(form.get("to")) });
  }
  const numbers = (releases.data?.snapshots ?? []).map((r) => r.number).sort((a, b) => a - b);
  return (
    <section className="panel" aria-labelledby="releases-title">
      <div className="panel-pad">
        <h2 id="releases-title">{t("snapshots.releases.title")}</h2>
        <form className="export-form" onSubmit={submit} aria-label={t("snapshots.releases.formLabel")}>
          <FilterFields status={status} setStatus={setStatus} />
          <label className="field">
            <span>{t("snapshots.releases.license")}</span>
            <input
              className="input"
              name="license"
              required
              maxLength={64}
              placeholder="CC-BY-4.0"
              aria-describedby="release-license-hint"
            />
          </label>
          <p className="hint" id="release-license-hint">
            {t("snapshots.releases.licenseHint")}
          </p>
          <div className="form-row">
            <label className="check">
              <input type="checkbox" name="includeHeldOut" /> {t("snapshots.releases.includeHeldOut")}
            </label>
            <button className="btn btn-primary" type="submit" disabled={cut.isPending}>
              {t("snapshots.releases.cut")}
            </button>
          </div>
          {cut.error && <ErrorBox error={cut.error} />}
          {cut.data && <p role="status">{t("snapshots.releases.cutDone", { n: cut.data.snapshot.number })}</p>}
        </form>
      </div>
      <List
        items={releases.data?.snapshots}
        error={releases.error}
        render={(s) => (
          <li key={s.id} className="export-entry" aria-label={t("snapshots.releases.number", { n: s.number })}>
            <div className="export-entry-head">
              <strong>{t("snapshots.releases.number", { n: s.number })}</strong> <span data-i18n="data">{s.name}</span>
            </div>
            <Counts s={s} />
            {s.leftOut && <LeftOut a={s.leftOut} label={t("snapshots.leftOut.title")} />}
            <code className="hint">{t("snapshots.releases.export", { n: s.number })}</code>
          </li>
        )}
      />
      {numbers.length >= 2 && (
        <div className="panel-pad">
          <h3>{t("snapshots.diff.title")}</h3>
          <form className="form-row" onSubmit={compare} aria-label={t("snapshots.diff.title")}>
            <label className="field">
              <span>{t("snapshots.diff.from")}</span>
              <select className="select" name="from" defaultValue={numbers[numbers.length - 2]}>
                {numbers.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
            <label className="field">
              <span>{t("snapshots.diff.to")}</span>
              <select className="select" name="to" defaultValue={numbers[numbers.length - 1]}>
                {numbers.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
            <button className="btn" type="submit">
              {t("snapshots.diff.show")}
            </button>
          </form>
          {pair && <DiffView from={pair.from} to={pair.to} />}
        </div>
      )}
    </section>
  );
}

function DiffView({ from, to }: { from: number; to: number }) {
  const t = useT();
  const diff = useQuery(releaseDiffQuery(from, to));
  if (diff.error) return <ErrorBox error={diff.error} />;
  if (!diff.data) return <Loading>{t("snapshots.loading")}</Loading>;
  return <DiffBody d={diff.data} />;
}

const shown = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

function DiffBody({ d }: { d: ReleaseDiff }) {
  const t = useT();
  const format = useFormat();
  return (
    <div className="release-diff" aria-label={t("snapshots.diff.title")}>
      <p>
        {t("snapshots.diff.summary", {
          added: d.added.length,
          removed: d.removed.length,
          changed: d.changed.length,
          unchanged: d.unchanged,
        })}
      </p>
      {d.added.length > 0 && <h4>{t("snapshots.diff.added")}</h4>}
      <ul>
        {d.added.map((x) => (
          <li key={x.id} data-i18n="data">
            + {x.app}: {x.instruction}
          </li>
        ))}
      </ul>
      {d.removed.length > 0 && <h4>{t("snapshots.diff.removed")}</h4>}
      <ul>
        {d.removed.map((x) => (
          <li key={x.id} data-i18n="data">
            − {x.app}: {x.instruction}
          </li>
        ))}
      </ul>
      {d.changed.length > 0 && <h4>{t("snapshots.diff.changed")}</h4>}
      <ul>
        {d.changed.map((x) => (
          <li key={x.id}>
            <strong data-i18n="data">
              {x.app}: {x.instruction}
            </strong>
            <ul>
              {x.fields.map((f, i) => (
                <li key={i} className="diff-field">
                  {f.step === null ? t("snapshots.diff.trajectoryField") : t("snapshots.diff.stepField", { n: f.step + 1 })} ·{" "}
                  {/* The field's name is the export's own key (clearAction, status): data, the same in every language. */}
                  <code data-i18n="data">{f.field}</code>: <del data-i18n="data">{shown(f.before)}</del> →{" "}
                  <ins data-i18n="data">{shown(f.after)}</ins>{" "}
                  <span className="hint" data-i18n="data">
                    {f.changedBy.length
                      ? f.changedBy.map((c) => `${c.by} ${format.dateTime(c.at)}`).join(", ")
                      : t("snapshots.diff.nobody")}
                  </span>{" "}
                  {f.step !== null && <Link href={editorPath(x.id, f.step)}>{t("snapshots.diff.open")}</Link>}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}
