import { z } from "zod";

const errorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), detail: z.string().optional(), issues: z.unknown().optional() }),
});

/**
 * An error answer from the studio's API: { error: { code, message, detail?, issues? } }. `detail`:
 * words from elsewhere (a model endpoint, an English-only check), shown on a line of their own.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: unknown,
    readonly detail?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Turn a non-2xx answer into an ApiError, keeping the server's message. */
export function apiErrorFrom(status: number, body: unknown): ApiError {
  const parsed = errorBodySchema.safeParse(body);
  if (parsed.success)
    return new ApiError(status, parsed.data.error.code, parsed.data.error.message, parsed.data.error.issues, parsed.data.error.detail);
  return new ApiError(status, "http_error", `The server answered ${status}.`);
}

/** GET a JSON resource and parse it: a response that drifts from the schema fails loudly. */
export async function getJson<T>(url: string, schema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { signal, headers: { Accept: "application/json" } });
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) throw apiErrorFrom(res.status, body);
  return schema.parse(body);
}

/**
 * Filters from a page's URL, read with the API's own schema field by field: a value the schema
 * refuses (a typo, an old link) is dropped (or falls back to its default) instead of breaking the page.
 */
export function filtersFromUrl<S extends z.ZodObject>(schema: S, params: Record<string, string | string[] | undefined>): z.output<S> {
  const kept: Record<string, string> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const raw = params[key];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (value && (field as z.ZodType).safeParse(value).success) kept[key] = value;
  }
  return schema.parse(kept);
}

/** Query string from defined, non-empty values. */
export function searchString(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** Send a JSON body (or none) and parse the answer; a non-2xx answer becomes an ApiError. */
export async function sendJson<T>(
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  body: unknown,
  schema: z.ZodType<T>,
): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { Accept: "application/json", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer: unknown = await res.json().catch(() => undefined);
  if (!res.ok) throw apiErrorFrom(res.status, answer);
  return schema.parse(answer);
}
