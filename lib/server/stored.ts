import type { z } from "zod";

/**
 * Parse data the studio itself stored (database rows, files it wrote). A failure here is our bug,
 * not the caller's: it becomes a plain Error, which the error mapping logs and answers with 500,
 * instead of a ZodError that would read as "your input is invalid" (422).
 */
export function fromStore<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new Error(`stored ${what} failed validation: ${r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return r.data;
}
