const STUDIO = "http://studio.invalid";

/**
 * Where to send a person after signing in: only a path on this studio, judged AFTER the URL is
 * normalised. The candidate is resolved against a placeholder origin exactly as a browser would
 * (dot segments, `%2e`, backslashes, tabs and new lines all processed), and the result must stay on
 * that origin and be a plain path: one leading slash, never `//` or `/\` (which a browser reads as
 * another host). "/.//evil.example" resolves to the path "//evil.example" and is refused. What is
 * returned is the resolved path itself, so what was checked is what the browser is sent to.
 */
export function safeNextPath(next: string | string[] | undefined, fallback = "/trajectories"): string {
  const n = Array.isArray(next) ? next[0] : next;
  // Control characters (and backslashes) in a redirect target are refused outright, never interpreted.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point of this test
  if (!n || n.length > 2_000 || !n.startsWith("/") || /[\\\u0000-\u001f\u007f]/.test(n)) return fallback;
  let url: URL;
  try {
    url = new URL(n, STUDIO);
  } catch {
    return fallback;
  }
  if (url.origin !== STUDIO || url.username || url.password) return fallback;
  const out = `${url.pathname}${url.search}${url.hash}`;
  if (!isPlainPath(out)) return fallback;
  return out;
}

/** One leading slash followed by something that is not a slash or backslash, and nothing a browser could read as a host. */
export function isPlainPath(p: string): boolean {
  if (!p.startsWith("/") || p.startsWith("//") || p.startsWith("/\\")) return false;
  // Resolving it again must give the same path on the same origin (no second round of dot segments).
  const again = new URL(p, STUDIO);
  return again.origin === STUDIO && `${again.pathname}${again.search}${again.hash}` === p;
}

/**
 * The client's last check before navigating: `next` resolved against the page's own origin must
 * stay on it; anything else goes to `fallback`.
 */
export function sameOriginTarget(next: string, origin: string, fallback = "/trajectories"): string {
  if (!isPlainPath(next)) return fallback;
  try {
    const url = new URL(next, origin);
    return url.origin === new URL(origin).origin ? `${url.pathname}${url.search}${url.hash}` : fallback;
  } catch {
    return fallback;
  }
}
