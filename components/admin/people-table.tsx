"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmButton, SecretReveal } from "@/components/account/copy";
import { EmptyState, ErrorBox, QueryBody } from "@/components/ui/states";
import { ROLES, roleSchema } from "@/lib/domain/permissions";
import { useFormat, useT } from "@/lib/i18n/react";
import type { Person } from "@/lib/domain/people";
import { peopleQuery, useResetPassword, useUpdatePerson } from "@/lib/queries/people";

/** Everyone with an account: change role, disable or enable, reset a password (shown once). */
export function PeopleTable({ currentUserId }: { currentUserId: string }) {
  const t = useT();
  const formatDate = useFormat().dateTime;
  const query = useQuery(peopleQuery());
  const update = useUpdatePerson();
  const reset = useResetPassword();
  const [resetFor, setResetFor] = useState<Person | null>(null);
  const busyId = update.isPending ? update.variables?.id : reset.isPending ? reset.variables : undefined;

  return (
    <section className="panel admin-section" aria-labelledby="people-title">
      <div className="panel-pad">
        <h2 id="people-title">{t("people.title")}</h2>
        {update.error && <ErrorBox error={update.error} />}
        {reset.error && <ErrorBox error={reset.error} />}
        {reset.data && resetFor && (
          <SecretReveal
            label={t("people.newPasswordFor", { email: resetFor.email })}
            value={reset.data.password}
            note={t("people.resetOnce")}
            onDismiss={() => reset.reset()}
          />
        )}
      </div>
      <QueryBody
        query={query}
        loading={t("admin.loading")}
        isEmpty={(data) => data.people.length === 0}
        empty={<EmptyState title={t("people.none")} />}
      >
        {(data) => (
          <table className="table" aria-label={t("people.title")}>
            <thead>
              <tr>
                <th>{t("people.email")}</th>
                <th>{t("people.name")}</th>
                <th>{t("people.role")}</th>
                <th>{t("people.status")}</th>
                <th>{t("people.created")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {data.people.map((p) => {
                const isSelf = p.id === currentUserId;
                return (
                  <tr key={p.id} className={p.isDisabled ? "row-disabled" : undefined}>
                    <td className="nowrap">
                      <span data-i18n="data">{p.email}</span>
                      {isSelf && <span className="muted"> {t("people.you")}</span>}
                    </td>
                    <td data-i18n="data">{p.name}</td>
                    <td className="nowrap">
                      <select
                        className="select select-compact"
                        aria-label={t("people.roleOf", { email: p.email })}
                        value={update.isPending && update.variables?.id === p.id ? (update.variables.role ?? p.role) : p.role}
                        disabled={busyId === p.id}
                        onChange={(e) => update.mutate({ id: p.id, role: roleSchema.parse(e.target.value) })}
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {t(`role.${r}`)}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td className="nowrap">
                      {p.isDisabled ? (
                        <span className="badge badge-rejected">{t("people.disabled")}</span>
                      ) : (
                        <span className="badge badge-approved">{t("people.active")}</span>
                      )}
                    </td>
                    <td className="nowrap muted">{formatDate(p.createdAt)}</td>
                    <td className="nowrap actions">
                      <button
                        type="button"
                        className="btn"
                        disabled={busyId === p.id || isSelf}
                        title={isSelf ? t("people.notYourself") : undefined}
                        aria-label={t(p.isDisabled ? "people.enableWho" : "people.disableWho", { email: p.email })}
                        onClick={() => update.mutate({ id: p.id, isDisabled: !p.isDisabled })}
                      >
                        {p.isDisabled ? t("people.enable") : t("people.disable")}
                      </button>
                      <ConfirmButton
                        label={t("people.resetPassword")}
                        confirmLabel={t("people.confirmReset", { email: p.email })}
                        disabled={busyId === p.id}
                        onConfirm={() => {
                          setResetFor(p);
                          reset.mutate(p.id);
                        }}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </QueryBody>
    </section>
  );
}
