import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The demo screenshots are SVG rasterised by sharp (librsvg + Pango + fontconfig). A machine
 * without CJK fonts would draw every Chinese character as an empty box, so the demo brings its
 * own: lib/demo/fonts/studio-demo-sans-{400,700}.ttf, the glyphs the demo uses cut from Noto Sans
 * SC (SIL OFL 1.1; see lib/demo/fonts/README.md). Fontconfig is pointed at that folder, on top of
 * the system's own configuration, before the first text is drawn.
 */
export const DEMO_FONT_DIR = fileURLToPath(new URL("./fonts/", import.meta.url));
export const DEMO_FONT_FAMILY = "Studio Demo Sans";

let isReady = false;

/** Make the vendored font visible to fontconfig (idempotent; must run before sharp draws any text). */
export function loadDemoFont(): void {
  if (isReady) return;
  isReady = true;
  const dir = path.join(os.tmpdir(), "studio-demo-fonts");
  mkdirSync(dir, { recursive: true });
  const system = process.env.FONTCONFIG_FILE ?? "/etc/fonts/fonts.conf";
  const conf = path.join(dir, `fonts-${process.pid}.conf`);
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  writeFileSync(
    conf,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig>\n` +
      `  <include ignore_missing="yes">${esc(system)}</include>\n  <dir>${esc(DEMO_FONT_DIR)}</dir>\n  <cachedir>${esc(path.join(dir, "cache"))}</cachedir>\n</fontconfig>\n`,
  );
  process.env.FONTCONFIG_FILE = conf;
}
