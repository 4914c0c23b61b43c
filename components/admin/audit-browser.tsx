"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { DayInput } from "@/components/ui/day-input";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { useFormat, useT } from "@/lib/i18n/react";
import { isMessageKey, type MessageKey } from "@/lib/i18n";
import { auditActionName } from "@/lib/i18n/audit-words";
import { AUDIT_PAGE_SIZE, type AuditFilters, type AuditSubject } from "@/lib/domain/audit-log";
import { auditFacetsQuery, auditFiltersToSearch, auditListQuery } from "@/lib/queries/audit";
import { AuditDiff } from "./audit-diff";

const FIELDS = ["action", "entityType", "entityId", "actor", "from", "to"] as const;

/** The audit trail: filters in the URL, one page of events, and what each changed. */
export function AuditBrowser({ filters }: { filters: AuditFilters }) {
  const t = useT();
  const router = useRouter();
  const format = useFormat();
  const formatDate = format.dateTime;
  const facets = useQuery(auditFacetsQuery());
  const list = useQuery(auditListQuery(filters));
  const [draft, setDraft] = useState(
    () => Object.fromEntries(FIELDS.map((k) => [k, filters[k] ?? ""])) as Record<(typeof FIELDS)[number], string>,
  );
  const typeLabel = (type: string) => (isMessageKey(`audit.type.${type}`) ? t(`audit.type.${type}` as MessageKey) : type);
  const go = (next: AuditFilters) => router.push(`/admin/audit${auditFiltersToSearch(next)}`);
  const isFiltered = FIELDS.some((k) => filters[k]);
  const set = (k: (typeof FIELDS)[number]) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    go({ ...Object.fromEntries(FIELDS.map((k) => [k, draft[k].trim() || undefined])), page: 1 });
  };
  // Keep a value in the URL selectable even when the facets do not list it (yet).
  const options = (values: string[] | undefined, current: string) => [...new Set([...(current ? [current] : []), ...(values ?? [])])];

  return (
    <section className="panel" aria-label={t("audit.title")}>
      <form className="toolbar" role="search" onSubmit={submit}>
        <FacetSelect
          label={t("audit.action")}
          any={t("audit.anyAction")}
          value={draft.action}
          values={options(facets.data?.actions, draft.action)}
          labelOf={(a) => auditActionName(a, t)}
          onChange={set("action")}
        />
        <FacetSelect
          label={t("audit.entityType")}
          any={t("audit.anyEntity")}
          value={draft.entityType}
          values={options(facets.data?.entityTypes, draft.entityType)}
          labelOf={typeLabel}
          onChange={set("entityType")}
        />
        <label className="field">
          <span>{t("audit.entityId")}</span>
          <input className="input" value={draft.entityId} onChange={set("entityId")} />
        </label>
        <label className="field">
          <span>{t("audit.actor")}</span>
          <input className="input" value={draft.actor} onChange={set("actor")} placeholder={t("audit.actorPlaceholder")} />
        </label>
        <label className="field">
          <span>{t("audit.from")}</span>
          <DayInput value={draft.from} onChange={(day) => set("from")({ target: { value: day } })} />
        </label>
        <label className="field">
          <span>{t("audit.to")}</span>
          <DayInput value={draft.to} onChange={(day) => set("to")({ target: { value: day } })} />
        </label>
        <button className="btn btn-primary" type="submit">
          {t("audit.apply")}
        </button>
        {isFiltered && (
          <button
            className="btn btn-ghost"
            type="button"
            onClick={() => {
              setDraft(Object.fromEntries(FIELDS.map((k) => [k, ""])) as typeof draft);
              go({ page: 1 });
            }}
          >
            {t("audit.clear")}
          </button>
        )}
        <span className="count" role="status" aria-label={t("audit.matching")}>
          {list.data ? t("audit.count", { n: format.number(list.data.total) }) : ""}
        </span>
      </form>
      {list.error ? (
        <div className="panel-pad">
          <ErrorBox error={list.error} />
        </div>
      ) : !list.data ? (
        <Loading>{t("admin.loading")}</Loading>
      ) : list.data.rows.length === 0 ? (
        <EmptyState title={isFiltered ? t("audit.noMatch") : t("audit.empty")} />
      ) : (
        <>
          <table className="table audit-table" aria-label={t("audit.events")}>
            <thead>
              <tr>
                <th>{t("audit.time")}</th>
                <th>{t("audit.actor")}</th>
                <th>{t("audit.action")}</th>
                <th>{t("audit.entity")}</th>
                <th>{t("audit.change")}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.rows.map((r) => (
                <tr key={r.id}>
                  <td className="nowrap muted">{formatDate(r.at)}</td>
                  <td className="nowrap" data-i18n="data" title={r.actorName ? r.actorLabel : undefined}>
                    {r.actorName ? `${r.actorName} · ${r.actorLabel}` : r.actorLabel}
                  </td>
                  <td className="nowrap">{auditActionName(r.action, t)}</td>
                  <td className="audit-entity">
                    <span className="muted">{typeLabel(r.entityType)}</span>
                    {r.entityId && (
                      <>
                        {" "}
                        <button
                          type="button"
                          className="link-button"
                          data-entity-id={r.entityId}
                          title={t("audit.idTitle", { type: typeLabel(r.entityType), id: r.entityId })}
                          onClick={() => go({ entityType: r.entityType, entityId: r.entityId ?? undefined, page: 1 })}
                        >
                          <AuditSubjectText subject={r.subject} />
                        </button>
                      </>
                    )}
                  </td>
                  <td>
                    <AuditDiff before={r.before} after={r.after} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <AuditPager page={list.data.page} total={list.data.total} onPage={(page) => go({ ...filters, page })} />
        </>
      )}
    </section>
  );
}

function AuditPager({ page, total, onPage }: { page: number; total: number; onPage: (page: number) => void }) {
  const t = useT();
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  return (
    <nav className="pager" aria-label={t("audit.pagination")}>
      <span>{t("audit.pageOf", { page, pages })}</span>
      <span className="pager-buttons">
        <button className="btn" type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {t("audit.previous")}
        </button>
        <button className="btn" type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          {t("audit.next")}
        </button>
      </span>
    </nav>
  );
}

/** A filter over the values the audit trail holds, with "any" first. */
function FacetSelect(props: {
  label: string;
  any: string;
  value: string;
  values: string[];
  labelOf?: (value: string) => string;
  onChange: (e: { target: { value: string } }) => void;
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <select className="select" value={props.value} onChange={props.onChange}>
        <option value="">{props.any}</option>
        {props.values.map((a) => (
          <option key={a} value={a} data-i18n={props.labelOf ? undefined : "data"}>
            {props.labelOf ? props.labelOf(a) : a}
          </option>
        ))}
      </select>
    </label>
  );
}

/** What a row touches in words: a step's number and its task, a task's instruction, a person's name and email; else a link to its history. */
function AuditSubjectText({ subject }: { subject: AuditSubject | null }) {
  const t = useT();
  // A record with no name a person would know (an export, a job): a link to its history, not its id.
  if (!subject) return <>{t("audit.thisRecord")}</>;
  if (subject.kind === "step")
    return (
      <>
        {t("audit.subject.step", { n: subject.stepNumber })} · <span data-i18n="data">{subject.instruction}</span>
      </>
    );
  if (subject.kind === "trajectory") return <span data-i18n="data">{subject.instruction}</span>;
  return (
    <span data-i18n="data">
      {subject.name} · {subject.email}
    </span>
  );
}
