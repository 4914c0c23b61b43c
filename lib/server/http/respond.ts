import { ZodError } from "zod";
import { isLocale, translator, type Locale } from "@/lib/i18n";
import type { Actor } from "@/lib/domain/permissions";
import { readBoundedText } from "./body";
import { AppError, appError, diskFullOr, HTTP_STATUS } from "../errors";
import { BEARER } from "../people";

/**
 * The one mapping from thrown errors to HTTP answers: { error: { code, message, issues? } }, the
 * message in the person's language where the catalogue has it (`locale`: the signed-in person's,
 * else the request's Accept-Language).
 */
export function errorResponse(thrown: unknown, locale: Locale = "en"): Response {
  const t = translator(locale);
  // A full disk is the operator's to fix, not a bug: 507 in words (the full error still goes to the log).
  const e = diskFullOr(thrown);
  if (e !== thrown) console.error(thrown);
  if (e instanceof ZodError) {
    const issues = e.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    const first = issues[0];
    const detail = first ? `${first.path || "input"}: ${first.message}` : "—";
    // zod words its problems in English: another language gets the studio's sentence, and zod's on a line of its own.
    const message = locale === "en" ? detail : t("error.invalidInputShort");
    return json({ error: { code: "unprocessable", message, ...(locale === "en" ? {} : { detail }), issues } }, 422);
  }
  if (e instanceof AppError) {
    // An error not worded from the catalogue yet is English: another language gets the words for its
    // kind, and the English sentence as the separate detail line.
    const untranslated = !e.ref && locale !== "en";
    const message = untranslated ? t(`error.code.${e.code}`) : e.messageFor(locale);
    const detail = untranslated ? e.message : e.upstream;
    return json(
      {
        error: {
          code: e.code,
          message,
          ...(detail ? { detail } : {}),
          ...(e.details !== undefined ? { issues: e.details } : {}),
        },
      },
      HTTP_STATUS[e.code],
    );
  }
  console.error(e);
  return json({ error: { code: "internal", message: t("error.internal") } }, 500);
}

/** The language of a request without a signed-in person: Chinese when the browser prefers it. */
export function requestLocale(req: unknown): Locale {
  if (!(req instanceof Request)) return "en";
  const first = (req.headers.get("accept-language") ?? "").split(",")[0]?.trim().toLowerCase() ?? "";
  return first.startsWith("zh") ? "zh" : "en";
}

/** The person's stored language, when it is one the studio speaks. */
export function actorLocale(actor: Pick<Actor, "locale">): Locale {
  return isLocale(actor.locale) ? actor.locale : "en";
}

/**
 * The request body as JSON, read no further than LIMITS.jsonBodyBytes (413 past it); a body that is
 * not JSON is the caller's mistake (400), not ours. `optional`: an empty body reads as null.
 */
export async function readJson(req: Request, opts: { optional?: boolean } = {}): Promise<unknown> {
  const text = await readBoundedText(req);
  if (opts.optional && text.trim() === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw appError("bad_request", "error.invalidJson");
  }
}

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  return Response.json(body, { status, headers });
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cookie-authenticated mutations must come from this site: the browser's Origin (or, failing that,
 * Sec-Fetch-Site) must match. Token-authenticated calls carry no ambient credentials, so they pass.
 */
export function assertSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method) || BEARER.test(req.headers.get("authorization") ?? "")) return;
  const origin = req.headers.get("origin");
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (origin) {
    if (host && URL.canParse(origin) && new URL(origin).host === host) return;
    throw appError("forbidden", "error.crossSite");
  }
  const site = req.headers.get("sec-fetch-site");
  if (site === "same-origin" || site === "none") return;
  throw appError("forbidden", "error.crossSite");
}
