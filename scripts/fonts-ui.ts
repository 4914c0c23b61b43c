/**
 * Cuts the UI's Chinese font: a WOFF2 subset of Noto Sans SC holding every character of the zh
 * message catalogue (plus printable ASCII and CJK punctuation), weights 400 and 700, into
 * public/fonts/. Without it a machine with no CJK font shows every Chinese UI string as tofu.
 *
 *   npm run fonts:ui            (fetches the two pinned packages into .tmp/fonts-ui with npm)
 *   npm run fonts:ui -- <dir>   (a folder where they are installed already: <dir>/node_modules/...)
 *
 * Source: the full TrueType files of @expo-google-fonts/noto-sans-sc (Google Fonts' Noto Sans SC,
 * SIL OFL 1.1), cut with subset-font (HarfBuzz's subsetter, WOFF2 by wawoff2). Re-run when the
 * catalogue gains characters; lib/i18n/ui-font.test.ts fails until then.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CATALOGUE, LOCALE_NAMES } from "../lib/i18n";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = path.join(ROOT, "public", "fonts");
const PACKAGES = ["subset-font@2.9.0", "@expo-google-fonts/noto-sans-sc@0.4.3"];
const WEIGHTS = { 400: "400Regular/NotoSansSC_400Regular.ttf", 700: "700Bold/NotoSansSC_700Bold.ttf" } as const;

/** CJK and full-width punctuation a Chinese sentence may use even where the catalogue does not yet. */
const PUNCTUATION = "，。、；：？！“”‘’（）《》〈〉【】「」『』—…·～￥％＋－×÷＝";

/**
 * The 6,763 hanzi of GB 2312 (levels 1 and 2, rows 0xB0-0xF7 of the EUC-CN table): the characters of ordinary
 * simplified Chinese text, so imported instructions, app names and thoughts show on a machine with no CJK font
 * too, not only the catalogue's own words. The browser fetches the file only for pages that use these code points.
 */
export function gb2312Hanzi(): string {
  const decoder = new TextDecoder("gbk");
  let out = "";
  for (let row = 0xb0; row <= 0xf7; row++)
    for (let cell = 0xa1; cell <= 0xfe; cell++) {
      const ch = decoder.decode(new Uint8Array([row, cell]));
      if (ch.length === 1 && ch.codePointAt(0)! >= 0x4e00 && ch.codePointAt(0)! <= 0x9fff) out += ch;
    }
  return out;
}

/** Every character the Chinese UI writes from the catalogue and the formatter (年, 月, 秒…), plus printable ASCII and punctuation. */
export function uiCharacters(): string {
  const chars = new Set<string>(gb2312Hanzi());
  for (let c = 0x20; c < 0x7f; c++) chars.add(String.fromCharCode(c));
  const formatter = [...readFileSync(path.join(ROOT, "lib", "i18n", "format.ts"), "utf8")].filter((ch) => ch.codePointAt(0)! >= 0x3000);
  for (const text of [...Object.values(CATALOGUE.zh), ...Object.values(LOCALE_NAMES), PUNCTUATION, formatter.join("")])
    for (const ch of text) if (ch.trim()) chars.add(ch);
  return [...chars].sort().join("");
}

function packagesDir(): string {
  const given = process.argv[2];
  if (given) return path.resolve(given);
  const dir = path.join(ROOT, ".tmp", "fonts-ui");
  if (!existsSync(path.join(dir, "node_modules", "subset-font"))) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(path.join(dir, "package.json"))) writeFileSync(path.join(dir, "package.json"), '{ "private": true }\n');
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...PACKAGES], { cwd: dir, stdio: "inherit" });
  }
  return dir;
}

type SubsetFont = (font: Buffer, text: string, options: { targetFormat: "woff2" }) => Promise<Buffer>;

async function main() {
  const dir = packagesDir();
  const modules = path.join(dir, "node_modules");
  const subset = ((await import(pathToFileURL(path.join(modules, "subset-font", "index.js")).href)) as { default: SubsetFont }).default;
  const text = uiCharacters();
  mkdirSync(OUT, { recursive: true });
  const pkg = path.join(modules, "@expo-google-fonts", "noto-sans-sc");
  for (const [weight, file] of Object.entries(WEIGHTS)) {
    const woff2 = await subset(readFileSync(path.join(pkg, file)), text, { targetFormat: "woff2" });
    const dest = path.join(OUT, `studio-ui-sc-${weight}.woff2`);
    writeFileSync(dest, woff2);
    console.log(`${path.relative(ROOT, dest)}: ${woff2.length} bytes, ${[...text].length} characters`);
  }
  writeFileSync(path.join(OUT, "OFL.txt"), readFileSync(path.join(pkg, "LICENSE_FONT")));
}

await main();
