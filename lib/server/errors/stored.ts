import type { z } from "zod";

/**
 * The values fromStore produced, each with the schema that produced it. A zod schema's output
 * parses to itself, so the route's output check (route.ts) need not parse again what the same
 * schema has just produced: `producedBy` says whether it did. A WeakMap: it keeps nothing alive.
 */
const producedBy = new WeakMap<object, z.ZodType>();

/**
 * Parse data the studio itself stored (database rows, files it wrote). A failure here is our bug,
 * not the caller's: it becomes a plain Error, which the error mapping logs and answers with 500,
 * instead of a ZodError that would read as "your input is invalid" (422).
 */
export function fromStore<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new Error(`stored ${what} failed validation: ${r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  if (typeof r.data === "object" && r.data !== null) producedBy.set(r.data, schema);
  return r.data;
}

/**
 * Whether `value` is what `schema` produced in fromStore (the very object, not a copy). Nothing changes
 * such a value afterwards: code that needs another shape builds a new object, which is checked again.
 */
export function isFromStore(value: unknown, schema: z.ZodType): boolean {
  return typeof value === "object" && value !== null && producedBy.get(value) === schema;
}
