// NUL (U+0000) in what a caller sends: refused in one place for every route, before any schema or database sees it.
import { REFUSED_CHARACTER_MESSAGE } from "@/lib/domain/limits";
import { appError } from "../errors";

/** The path of the first string in `value` (a value or a key) holding a NUL, or undefined. */
function nulAt(value: unknown, at: string[] = []): string[] | undefined {
  if (typeof value === "string") return value.includes("\0") ? at : undefined;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = nulAt(v, [...at, String(i)]);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes("\0")) return [...at, k.replaceAll("\0", "\\0")];
      const found = nulAt(v, [...at, k]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Refuses a query or body holding a NUL anywhere (422 naming the field): PostgreSQL cannot store or
 * compare text with one, and no field of ours means one, so it is refused here, before any schema or
 * database sees it, on every route alike.
 */
export function refuseNul<T>(value: T): T {
  const at = nulAt(value);
  if (!at) return value;
  const field = at.join(".") || "input";
  throw appError("unprocessable", "error.nulCharacter", { field }, [{ path: field, message: REFUSED_CHARACTER_MESSAGE }]);
}
