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

/**
 * The four states of a query, the same way everywhere: its error, loading, an empty state, or the
 * content for its data.
 */
export function QueryBody<T>({
  query,
  isEmpty,
  empty,
  loading,
  children,
}: {
  query: { error: unknown; data: T | undefined };
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  loading?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.error) {
    return (
      <div className="panel-pad">
        <ErrorBox error={query.error} />
      </div>
    );
  }
  if (query.data === undefined) return <Loading>{loading}</Loading>;
  return isEmpty(query.data) ? empty : children(query.data);
}
