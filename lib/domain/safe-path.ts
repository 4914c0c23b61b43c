/**
 * Where to send a person after signing in: only a path on this studio. Parsed as a URL against a
 * placeholder origin, so strings browsers read as another host ("//evil", "/\evil", "/\t/evil") fall
 * back to `fallback`.
 */
export function safeNextPath(next: string | string[] | undefined, fallback = "/trajectories"): string {
  const n = Array.isArray(next) ? next[0] : next;
  if (!n || !n.startsWith("/") || /[\\\u0000-\u001f]/.test(n)) return fallback;
  const url = new URL(n, "http://studio.invalid");
  return url.origin === "http://studio.invalid" ? `${url.pathname}${url.search}${url.hash}` : fallback;
}
