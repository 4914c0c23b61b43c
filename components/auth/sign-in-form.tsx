"use client";

import { useState, type FormEvent } from "react";
import { LIMITS } from "@/lib/domain/limits";
import { sameOriginTarget } from "@/lib/domain/safe-path";
import { useT } from "@/lib/i18n/react";

/** Email and password sign-in against better-auth; shows the server's reason when it refuses. */
export function SignInForm({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const t = useT();

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setIsBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: String(form.get("email") ?? "").trim(), password: String(form.get("password") ?? "") }),
      });
      if (res.ok) {
        // The server already checked `next`; the browser checks again against its own origin.
        window.location.assign(sameOriginTarget(next, window.location.origin));
        return;
      }
      const body = (await res.json().catch(() => null)) as { message?: string } | null;
      setError(
        res.status === 429
          ? (body?.message ?? t("signIn.tooMany"))
          : res.status === 401
            ? t("signIn.wrong")
            : (body?.message ?? `Sign-in failed (${res.status}).`),
      );
    } catch {
      setError(t("signIn.unreachable"));
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <form className="auth-card" onSubmit={submit} aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">{t("signIn.title")}</h1>
      <label>
        {t("signIn.email")}
        <input name="email" type="email" autoComplete="username" required autoFocus maxLength={LIMITS.email} />
      </label>
      <label>
        {t("signIn.password")}
        <input name="password" type="password" autoComplete="current-password" required maxLength={LIMITS.passwordMax} />
      </label>
      {error && (
        <p role="alert" className="auth-error">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={isBusy}>
        {isBusy ? t("signIn.busy") : t("signIn.submit")}
      </button>
    </form>
  );
}
