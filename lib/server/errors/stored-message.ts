import { decodeStoredMessage, encodeStoredMessage, type StoredMessage } from "@/lib/domain/stored-message";
import { isMessageKey, localize, type MessageKey } from "@/lib/i18n";
import { AppError } from "./errors";

/**
 * What a failure is kept as (a job's `error` column): an AppError worded from the catalogue keeps
 * its key and parameters (and a model endpoint's words as the detail); one not worded yet keeps its
 * kind's sentence with its English words as the detail; anything else (a bug, logged) is `fallback`.
 */
export function storedMessageOf(e: unknown, fallback: MessageKey): StoredMessage {
  if (!(e instanceof AppError)) return { key: fallback };
  const vars = e.ref?.vars ?? {};
  const flat = Object.values(vars).every((v) => typeof v === "string" || typeof v === "number");
  if (e.ref && flat)
    return {
      key: e.ref.key,
      ...(Object.keys(vars).length > 0 ? { vars: vars as Record<string, string | number> } : {}),
      ...(e.upstream ? { detail: e.upstream } : {}),
    };
  return { key: `error.code.${e.code}`, detail: e.message };
}

/** Longest detail kept, in characters (a library's message can be long; the JSON must stay whole). */
const MAX_DETAIL = 2_000;

/** The column's text for `message`. */
export function storeMessage(message: StoredMessage): string {
  const { detail } = message;
  return encodeStoredMessage(detail && detail.length > MAX_DETAIL ? { ...message, detail: `${detail.slice(0, MAX_DETAIL)}…` } : message);
}

/** `message` in English (scripts, the CLI, logs): the sentence, then its detail. */
export function englishOf(message: StoredMessage): string {
  const sentence = isMessageKey(message.key) ? localize({ key: message.key, vars: message.vars }, "en") : message.key;
  return message.detail ? `${sentence} ${message.detail}` : sentence;
}

// Rows failed before errors were stored as messages: the one sentence the studio itself wrote is read back as its key.
const LEGACY_STOPPED = /^The studio process running this (export|import) stopped \(last heard from ([^)]+)\)/;

/**
 * A stored error as the API answers it: `error` in English (scripts, the CLI) and `errorMessage`,
 * which the page words in its reader's language. Plain words stored by an older studio are the
 * detail of a generic sentence.
 */
export function readStoredError(text: string | null): { error: string | null; errorMessage: StoredMessage | null } {
  if (text === null) return { error: null, errorMessage: null };
  const decoded = decodeStoredMessage(text);
  if (decoded) return { error: englishOf(decoded), errorMessage: decoded };
  const stopped = LEGACY_STOPPED.exec(text);
  const message: StoredMessage = stopped
    ? { key: stopped[1] === "export" ? "job.exportStopped" : "job.importStopped", vars: { heardAt: stopped[2]! } }
    : { key: "job.failed", detail: text };
  return { error: text, errorMessage: message };
}
