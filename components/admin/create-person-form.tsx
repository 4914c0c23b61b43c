"use client";

import { useState, type FormEvent } from "react";
import { SecretReveal } from "@/components/account/copy";
import { ErrorBox } from "@/components/ui/states";
import { ROLES, roleSchema, type Role } from "@/lib/domain/permissions";
import { useT } from "@/lib/i18n/react";
import { useCreatePerson } from "@/lib/queries/people";

/** Create a person; the password (typed or generated) is shown once, to hand over. */
export function CreatePersonForm() {
  const t = useT();
  const create = useCreatePerson();
  const [role, setRole] = useState<Role>("annotator");

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    const text = (k: string) => String(form.get(k) ?? "").trim() || undefined;
    create.mutate(
      { email: text("email") ?? "", name: text("name"), role, password: text("password") },
      { onSuccess: () => formEl.reset() },
    );
  }

  return (
    <section className="panel panel-pad admin-section" aria-labelledby="create-person-title">
      <h2 id="create-person-title">{t("people.create")}</h2>
      <form className="form-row" onSubmit={submit}>
        <label className="field">
          <span>{t("people.email")}</span>
          <input className="input" name="email" type="email" required autoComplete="off" placeholder="name@example.com" />
        </label>
        <label className="field">
          <span>{t("people.name")}</span>
          <input className="input" name="name" maxLength={100} autoComplete="off" placeholder={t("people.namePlaceholder")} />
        </label>
        <label className="field">
          <span>{t("people.role")}</span>
          <select className="select" value={role} onChange={(e) => setRole(roleSchema.parse(e.target.value))}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`role.${r}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t("people.passwordOptional")}</span>
          <input
            className="input"
            name="password"
            type="password"
            minLength={8}
            autoComplete="new-password"
            placeholder={t("people.passwordPlaceholder")}
          />
        </label>
        <button className="btn btn-primary" type="submit" disabled={create.isPending}>
          {t("people.createButton")}
        </button>
      </form>
      {create.error && <ErrorBox error={create.error} />}
      {create.data && (
        <SecretReveal
          label={t("people.passwordFor", { email: create.data.person.email })}
          value={create.data.password}
          note={t("people.passwordOnce")}
          onDismiss={() => create.reset()}
        />
      )}
    </section>
  );
}
