// Lint: typescript-eslint + react-hooks, and the layer rules of ARCHITECTURE.md as resolved module boundaries.
// A folder says what it may import: domain <- server | bridge | canvas <- queries | components <- app.
// (The config files at the root, next.config.ts and the like, belong to no layer.)
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import boundaries from "eslint-plugin-boundaries";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import { readdirSync } from "node:fs";
import tseslint from "typescript-eslint";

/**
 * The layers (ARCHITECTURE.md), each a folder, and what each may import: the other layers by allow list, and the
 * packages it may use ("core" is Node's built-ins). eslint-plugin-boundaries resolves every import (by `@/`, a
 * relative path or a dynamic `import()`) to the layer of the file it names, so no spelling walks around a rule.
 * Tests sit above every layer and may import anything.
 */
const CORE = { origin: "core" };
const pkg = (...names) => names.map((n) => ({ origin: "external", source: n }));
const TOOL_PACKAGES = [CORE, { origin: "external" }];
const LAYERS = {
  domain: { pattern: "lib/domain/**", uses: [], packages: pkg("zod") },
  i18n: { pattern: "lib/i18n/**", uses: ["domain"], packages: pkg("zod", "react", "intl-messageformat") },
  canvas: { pattern: "lib/canvas/**", uses: ["domain"], packages: pkg("zod") },
  bridge: {
    pattern: "lib/bridge/**",
    uses: ["domain", "fixtures"],
    packages: [CORE, ...pkg("zod", "hyparquet", "hyparquet-writer", "sharp", "tar-stream")],
  },
  queries: { pattern: "lib/queries/**", uses: ["domain", "canvas", "i18n"], packages: pkg("zod", "react", "@tanstack/react-query") },
  demo: { pattern: "lib/demo/**", uses: ["domain"], packages: [CORE, ...pkg("sharp", "p-queue")] },
  server: {
    pattern: "lib/server/**",
    uses: ["domain", "i18n", "demo", "fixtures"],
    packages: [
      CORE,
      ...pkg(
        "zod",
        "next",
        "@prisma/*",
        "better-auth",
        "better-sqlite3",
        "pg",
        "sharp",
        "yauzl",
        "yazl",
        "busboy",
        "p-limit",
        "p-queue",
        "csv-stringify",
      ),
      ...pkg("openai", "@aws-sdk/*", "esbuild"),
    ],
  },
  cli: { pattern: "lib/cli/**", uses: ["domain", "i18n", "server", "bridge", "demo"], packages: [CORE, ...pkg("zod")] },
  components: {
    pattern: "components/**",
    uses: ["domain", "i18n", "canvas", "queries"],
    packages: pkg("zod", "react", "react-dom", "react-konva", "konva", "next", "@tanstack/react-query", "diff", "recharts"),
  },
  app: {
    pattern: "app/**",
    uses: ["domain", "i18n", "queries", "components", "server"],
    packages: pkg("zod", "react", "react-dom", "next"),
  },
  host: { pattern: "server/**", uses: ["domain", "server", "app"], packages: [CORE, ...pkg("next")] },
  fixtures: { pattern: "fixtures/**", uses: [], packages: [CORE] },
  scripts: { pattern: "scripts/**", uses: ["domain", "i18n", "server", "bridge", "demo", "fixtures"], packages: TOOL_PACKAGES },
  e2e: { pattern: "e2e/**", uses: ["domain", "i18n", "server", "demo", "fixtures"], packages: TOOL_PACKAGES },
  // The fast-lane timing (bench/lane-timing.spec.ts) drives the editor with the browser specs' sign-in, seeds and page objects.
  bench: { pattern: "bench/**", uses: ["domain", "i18n", "server", "bridge", "demo", "fixtures", "e2e"], packages: TOOL_PACKAGES },
};

/**
 * lib/server is split by capability (ARCHITECTURE.md, "The layers"): each folder is an element of its own, entered
 * only through its index.ts from anywhere outside it (a relative path, `@/`, `import()` or a re-export alike), and
 * lib/server/testing only from tests. A capability may use what the server layer may use. Prisma's generated
 * clients are no capability: lib/server/db holds them.
 */
const CAPABILITIES = readdirSync(new URL("./lib/server", import.meta.url), { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== "generated")
  .map((e) => e.name);
LAYERS.capability = {
  pattern: `lib/server/{${CAPABILITIES.join(",")}}`,
  uses: ["server", ...LAYERS.server.uses],
  packages: LAYERS.server.packages,
};
for (const l of Object.values(LAYERS)) if (l.uses.includes("server")) l.uses.push("capability");

const boundaryPolicies = [
  ...Object.entries(LAYERS).flatMap(([type, l]) => [
    { from: { element: { type } }, allow: { to: { element: { types: { anyOf: [type, ...l.uses] } } } } },
    ...l.packages.map((module) => ({ from: { element: { type } }, allow: { to: { module } } })),
  ]),
  // The doors: another capability's inner file, and the test helpers, are refused (the last matching policy decides).
  {
    disallow: { to: { element: { type: "capability", fileInternalPath: "!index.ts" } } },
    message: "Import lib/server/{{to.captured.capability}} through its index.ts (its public face), not {{to.fileInternalPath}}.",
  },
  {
    disallow: { to: { element: { type: "capability", captured: { capability: "testing" } } } },
    message: "lib/server/testing holds test helpers: production code may not import it.",
  },
  // Tests (and their helpers) stand above every layer: they may reach any layer, any file of it and any package; so
  // may the browser specs and the benchmarks, which drive the studio from outside.
  { from: { file: { categories: "test" } }, allow: { to: { element: { types: { anyOf: Object.keys(LAYERS) } } } } },
  { from: { file: { categories: "test" } }, allow: { to: { module: { origin: ["core", "external"] } } } },
  { from: { element: { types: { anyOf: ["e2e", "bench"] } } }, allow: { to: { element: { type: "capability" } } } },
  // The command line loads what a command needs when it runs (its start is measured, docs/LOAD.md): its import()
  // calls may name a capability's inner file; its static imports go through the face like everyone's.
  {
    from: { element: { type: "cli" } },
    allow: { to: { element: { type: "capability", captured: { capability: "!testing" } } }, dependency: { nodeKind: "dynamic-import" } },
  },
];

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      ".next-bench/**",
      "bench/out-*/**",
      "node_modules/**",
      "lib/server/generated/**",
      ".tmp/**",
      "bench/out/**",
      "data/**",
      "next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  {
    // Type-aware rules: a promise nobody awaits loses its error (an unhandled rejection, or a save that failed
    // silently), and a promise handed to something that expects a plain callback (onClick, a listener) is the same.
    name: "promises",
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // One formatter for dates, times and numbers (lib/i18n/format.ts): a page that formats its own
    // writes a sixth date style, or US AM/PM inside the Chinese UI.
    name: "i18n/one-formatter",
    files: ["components/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}"],
    ignores: ["lib/i18n/format.ts", "lib/server/**", "lib/bridge/**", "lib/domain/**", "lib/cli/**", "**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-properties": [
        "error",
        ...["toLocaleString", "toLocaleDateString", "toLocaleTimeString", "toDateString", "toTimeString", "toUTCString"].map(
          (property) => ({ property, message: "Format dates and numbers with useFormat() / lib/i18n/format.ts." }),
        ),
        ...["DateTimeFormat", "NumberFormat", "RelativeTimeFormat", "DurationFormat"].map((property) => ({
          object: "Intl",
          property,
          message: "Format dates and numbers with useFormat() / lib/i18n/format.ts.",
        })),
      ],
    },
  },
  {
    // Next's own rules (links, images, scripts, fonts, head) on the pages and what they draw.
    name: "next",
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.tsx"],
    plugins: { "@next/next": nextPlugin },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
      // Screenshots and thumbnails come from the studio's own store at the size they are drawn (sized, cached, behind
      // the session); next/image would re-encode training data and route it through an optimiser with no session.
      "@next/next/no-img-element": "off",
    },
  },
  {
    files: ["components/**/*.tsx", "app/**/*.tsx", "lib/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    name: "layers",
    files: ["**/*.{ts,tsx,mjs}"],
    plugins: { boundaries },
    settings: {
      "boundaries/elements": [
        // First, so a file in a capability folder is that capability's (with the folder's name captured).
        { type: "capability", pattern: LAYERS.capability.pattern, capture: ["capability"], partialMatch: false },
        ...Object.entries(LAYERS)
          .filter(([type]) => type !== "capability")
          .map(([type, l]) => ({ type, pattern: l.pattern, partialMatch: false })),
      ],
      "boundaries/files": [
        {
          category: "test",
          // scripts/team-services.ts starts the test suite's private PostgreSQL and bucket.
          pattern: ["**/*.test.{ts,tsx}", "**/testing/**", "lib/bridge/test-fixtures.ts", "scripts/team-services.ts"],
        },
      ],
      "boundaries/dependency-nodes": ["import", "dynamic-import", "export", "require"],
      "import/resolver": { typescript: { project: "./tsconfig.json" }, node: true },
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        { default: "disallow", checkAllOrigins: true, checkUnknownLocals: true, policies: boundaryPolicies },
      ],
    },
  },
);
