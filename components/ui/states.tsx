"use client";

import type { ReactNode } from "react";
import { useT } from "@/lib/i18n/react";

export function Spinner({ label }: { label?: string }) {
  const t = useT();
  return <span className="spinner" role="progressbar" aria-label={label ?? t("ui.spinner")} />;
}

export function Loading({ children }: { children?: ReactNode }) {
  const t = useT();
  return (
    <div className="loading">
      <Spinner /> {children ?? t("ui.loading")}
    </div>
  );
}

export function ErrorBox({ error }: { error: unknown }) {
  const t = useT();
  const message = error instanceof Error ? error.message : t("ui.error");
  return (
    <div className="error-box" role="alert">
      {message}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <strong>{title}</strong>
      {children}
    </div>
  );
}
