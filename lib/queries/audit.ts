import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { auditPageSchema, auditFacetsSchema, auditFiltersSchema, AUDIT_PAGE_SIZE, type AuditFilters } from "@/lib/domain/audit-log";
import { filtersFromUrl, getJson, searchString } from "./fetcher";

const FILTER_KEYS = ["action", "entityType", "entityId", "actor", "from", "to"] as const;

export function parseAuditFilters(params: Record<string, string | string[] | undefined>): AuditFilters {
  return filtersFromUrl(auditFiltersSchema, params);
}

export function auditFiltersToSearch(f: AuditFilters): string {
  return searchString({ ...Object.fromEntries(FILTER_KEYS.map((k) => [k, f[k]])), page: f.page > 1 ? f.page : undefined });
}

/** Local calendar days to the API's instants: from the start of `from` up to the end of `to`. */
function dayRange(from?: string, to?: string): { from?: string; to?: string } {
  const start = (d: string) => new Date(`${d}T00:00:00`);
  const end = to ? start(to) : undefined;
  end?.setDate(end.getDate() + 1);
  return { from: from ? start(from).toISOString() : undefined, to: end?.toISOString() };
}

export const auditKeys = {
  all: ["audit"] as const,
  list: (f: AuditFilters) => [...auditKeys.all, "list", f] as const,
  facets: () => [...auditKeys.all, "facets"] as const,
};

export const auditListQuery = (f: AuditFilters) =>
  queryOptions({
    queryKey: auditKeys.list(f),
    queryFn: ({ signal }) => {
      const { from, to, page, ...rest } = f;
      return getJson(
        `/api/audit${searchString({ ...rest, ...dayRange(from, to), page, pageSize: AUDIT_PAGE_SIZE })}`,
        auditPageSchema,
        signal,
      );
    },
    placeholderData: keepPreviousData,
  });

export const auditFacetsQuery = () =>
  queryOptions({ queryKey: auditKeys.facets(), queryFn: ({ signal }) => getJson("/api/audit/facets", auditFacetsSchema, signal) });

/** One changed field: `set` had no value before, `removed` has none after. */
export type FieldChange = { field: string; kind: "set" | "changed" | "removed"; before: string; after: string };

/** Text of a recorded value, for display only (always text, never markup). */
export function auditText(v: unknown): string {
  if (v === undefined || v === null) return "—";
  return typeof v === "string" ? v : JSON.stringify(v);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** How a value is written for a person: `(field, value) => text` (lib/i18n/audit-words.ts), by default as recorded. */
export type ShowValue = (field: string, value: unknown) => string;

function change(field: string, before: unknown, after: unknown, show: ShowValue): FieldChange {
  const kind = before === undefined || before === null ? "set" : after === undefined || after === null ? "removed" : "changed";
  return { field, kind, before: show(field, before), after: show(field, after) };
}

/**
 * A field-level diff of an audit row: one entry per field whose value changed (objects), or one
 * entry for the whole value (anything else).
 */
export function fieldChanges(before: unknown, after: unknown, show: ShowValue = (_f, v) => auditText(v)): FieldChange[] {
  if (before == null && after == null) return [];
  if ((before == null || isRecord(before)) && (after == null || isRecord(after))) {
    const b = before ?? {};
    const a = after ?? {};
    const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    return fields.filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k])).map((k) => change(k, b[k], a[k], show));
  }
  return [change("", before, after, show)];
}
