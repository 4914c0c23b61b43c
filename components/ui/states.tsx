"use client";

import type { ReactNode } from "react";
import type { Translate } from "@/lib/i18n";
import { useT } from "@/lib/i18n/react";
import { ApiError } from "@/lib/queries/fetcher";

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
  const message = errorMessage(error, t);
  return (
    <div className="error-box" role="alert">
      {message}
      <ErrorDetail error={error} />
    </div>
  );
}

/** The words of an error that come from elsewhere (a model endpoint, an English-only check), on their own line after the studio's sentence. */
export function ErrorDetail({ error }: { error: unknown }) {
  const t = useT();
  if (!(error instanceof ApiError) || !error.detail) return null;
  return (
    <span className="error-detail">
      {t("error.details")} <span data-i18n="data">{error.detail}</span>
    </span>
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

/**
 * What a person reads for a failed request: the server's message (already in their language), or
 * words for what the browser reports in English (no connection, an answer without a message).
 */
export function errorMessage(error: unknown, t: Translate): string {
  if (error instanceof ApiError) return error.code === "http_error" ? t("error.httpStatus", { status: error.status }) : error.message;
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) return t("error.network");
  // A response that drifted from its schema says nothing a person can act on.
  if (!(error instanceof Error) || error.name === "ZodError" || !error.message) return t("ui.error");
  return error.message;
}
