"use client";

import { useState, type FormEvent } from "react";
import { useT } from "@/lib/i18n/react";

type Outcome = { ok: true } | { ok: false; message: string } | null;

/** Change your own password through better-auth; other sessions are signed out. */
export function PasswordForm() {
  const t = useT();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    const currentPassword = String(form.get("currentPassword") ?? "");
    const newPassword = String(form.get("newPassword") ?? "");
    if (newPassword !== String(form.get("repeatPassword") ?? "")) return setOutcome({ ok: false, message: t("account.passwordMismatch") });
    if (newPassword.length < 8) return setOutcome({ ok: false, message: t("account.passwordTooShort") });
    setIsBusy(true);
    setOutcome(null);
    try {
      const res = await fetch("/api/auth/change-password", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ currentPassword, newPassword, revokeOtherSessions: true }),
      });
      if (res.ok) {
        formEl.reset();
        setOutcome({ ok: true });
      } else {
        const body = (await res.json().catch(() => null)) as { message?: string } | null;
        const isWrong = res.status === 400 || res.status === 401;
        setOutcome({
          ok: false,
          message: isWrong ? t("account.passwordWrong") : (body?.message ?? t("account.passwordFailed", { status: res.status })),
        });
      }
    } catch {
      setOutcome({ ok: false, message: t("signIn.unreachable") });
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <section className="panel panel-pad account-section" aria-labelledby="password-title">
      <h2 id="password-title">{t("account.password")}</h2>
      <p className="hint">{t("account.passwordHint")}</p>
      <form className="form-row" onSubmit={submit}>
        <label className="field">
          <span>{t("account.currentPassword")}</span>
          <input className="input" name="currentPassword" type="password" autoComplete="current-password" required />
        </label>
        <label className="field">
          <span>{t("account.newPassword")}</span>
          <input className="input" name="newPassword" type="password" autoComplete="new-password" required minLength={8} />
        </label>
        <label className="field">
          <span>{t("account.repeatPassword")}</span>
          <input className="input" name="repeatPassword" type="password" autoComplete="new-password" required minLength={8} />
        </label>
        <button className="btn btn-primary" type="submit" disabled={isBusy}>
          {t("account.changePassword")}
        </button>
      </form>
      {outcome?.ok && (
        <p className="note-ok" role="status">
          {t("account.passwordChanged")}
        </p>
      )}
      {outcome && !outcome.ok && (
        <div className="error-box" role="alert">
          {outcome.message}
        </div>
      )}
    </section>
  );
}
