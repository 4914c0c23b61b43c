// Redaction of text that came back from a model endpoint before it leaves the server: an endpoint may
// quote the request's Authorization header, a URL with credentials, or some other secret in its error
// messages, and those messages reach annotators' browsers, admin pages, audit rows and job rows.

/** What a removed secret is replaced with. */
export const REDACTED = "[redacted]";

// Shapes of secrets that never need to be seen, whoever configured them: a bearer or basic
// credential, an OpenAI-style key (sk-..., sk-proj-...), credentials inside a URL (scheme://user:pass@).
const SHAPES: [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [/\bsk-[A-Za-z0-9_-]{6,}/g, REDACTED],
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, `$1${REDACTED}@`],
  [/\b(api[_-]?key|access[_-]?token|token|password|secret)(["']?\s*[:=]\s*["']?)[^\s"',}&]+/gi, `$1$2${REDACTED}`],
];

/**
 * `text` with every configured secret (exact occurrences of each non-empty entry of `secrets`,
 * e.g. the model key in use) and everything shaped like a credential replaced by "[redacted]".
 * Secrets shorter than 4 characters are not searched for (they would blank ordinary words).
 */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join(REDACTED);
  for (const [re, by] of SHAPES) out = out.replace(re, by);
  return out;
}

/**
 * Why a model base URL cannot be used, or null when it can: it must be http(s), and may carry no
 * credentials (user:password@: they would travel to whoever the host is) and no fragment (a `#`
 * would make every path the studio appends part of the fragment, so the request reaches the bare host).
 */
export function modelUrlProblem(raw: string): string | null {
  if (!URL.canParse(raw)) return "must be an http:// or https:// URL (e.g. http://gpu-host:8000/v1)";
  const u = new URL(raw);
  if (u.protocol !== "http:" && u.protocol !== "https:") return "must be an http:// or https:// URL (e.g. http://gpu-host:8000/v1)";
  if (u.username || u.password) return "must not contain a user name or password; enter the key in the API key field";
  if (raw.includes("#")) return "must not contain a fragment (#)";
  if (u.search) return "must not contain a query string (?)";
  return null;
}
