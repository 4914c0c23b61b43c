import { z } from "zod";

/**
 * A sentence kept in the database (a failed job's error) as a catalogue key with its parameters,
 * so each reader gets it in their own language when it is read, not in the language of the
 * process that failed. `detail` holds words from elsewhere (a library, a model endpoint) in their
 * own language: shown on a separate "details" line, never inside the sentence. A parameter whose
 * name ends in `At` is an ISO 8601 instant, written by the reader's date formatter.
 */
export const storedMessageSchema = z.object({
  key: z.string().min(1),
  vars: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  detail: z.string().optional(),
});
export type StoredMessage = z.infer<typeof storedMessageSchema>;

/** The text kept in a column for `message` (JSON, read back by `decodeStoredMessage`). */
export function encodeStoredMessage(message: StoredMessage): string {
  return JSON.stringify(message);
}

/** The message a column holds, or null when it holds plain words (stored before messages had keys). */
export function decodeStoredMessage(text: string): StoredMessage | null {
  if (!text.startsWith("{")) return null;
  try {
    const parsed = storedMessageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
