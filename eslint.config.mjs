// Lint: typescript-eslint + react-hooks, and the layer rules of ARCHITECTURE.md as import restrictions.
// A folder says what it may import: domain <- server | bridge | canvas <- queries | components <- app.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const layer = (name, patterns) => ({
  name: `layers/${name}`,
  files: [`${name}/**/*.{ts,tsx}`],
  ignores: ["**/*.test.ts", "**/*.test.tsx"],
  rules: { "no-restricted-imports": ["error", { patterns }] },
});
const deny = (group, message) => ({ group, message });

const UI_AND_APP = ["@/components/*", "@/app/*", "react", "react-dom", "react-konva", "konva", "next", "next/*", "@tanstack/*"];

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
    files: ["components/**/*.tsx", "app/**/*.tsx", "lib/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  layer("lib/domain", [
    deny(["@/*", "!@/lib", "@/lib/*", "!@/lib/domain", "!@/lib/domain/*"], "lib/domain imports only zod and itself."),
    deny(["node:*", "fs", "path", "crypto", "os", "child_process"], "lib/domain does no I/O: no Node built-ins."),
    deny(["../*"], "lib/domain imports only zod and itself."),
    deny(["@prisma/*", "better-sqlite3", "pg", "sharp", ...UI_AND_APP], "lib/domain imports only zod and itself."),
  ]),
  layer("lib/bridge", [
    deny(
      ["@/*", "!@/lib", "@/lib/*", "!@/lib/domain", "!@/lib/domain/*", "!@/lib/bridge", "!@/lib/bridge/*", "!@/fixtures"],
      "lib/bridge imports only lib/domain.",
    ),
    deny(["@prisma/*", "better-sqlite3", "pg", ...UI_AND_APP], "lib/bridge runs without the web app or the database."),
    deny(["../*"], "lib/bridge imports only lib/domain (by @/lib/domain/...)."),
  ]),
  layer("lib/canvas", [
    deny(["@/lib/server", "@/lib/server/*"], "lib/canvas never touches the server."),
    deny(["@/lib/bridge", "@/lib/bridge/*"], "lib/canvas may not import lib/bridge: shared rules live in lib/domain."),
    deny(
      ["@/lib/queries", "@/lib/queries/*", "@/components/*", "@/app/*", "react", "react-dom", "react-konva", "next", "next/*"],
      "lib/canvas is an engine without React.",
    ),
    deny(["../*"], "lib/canvas imports lib/domain by @/lib/domain/..."),
  ]),
  layer("lib/server", [
    deny(
      [
        "@/lib/bridge",
        "@/lib/bridge/*",
        "@/lib/canvas",
        "@/lib/canvas/*",
        "@/lib/queries",
        "@/lib/queries/*",
        ...UI_AND_APP.filter((p) => !p.startsWith("next")),
      ],
      "lib/server depends on lib/domain only (plus its own storage).",
    ),
  ]),
  layer("lib/queries", [
    deny(
      ["@/lib/server", "@/lib/server/*", "@/lib/bridge", "@/lib/bridge/*"],
      "client code never imports lib/server or lib/bridge: use the HTTP API.",
    ),
    deny(["@/components/*", "@/app/*"], "lib/queries sits below components and app."),
  ]),
  layer("components", [
    deny(
      ["@/lib/server", "@/lib/server/*", "@/lib/bridge", "@/lib/bridge/*"],
      "components never import lib/server or lib/bridge: use lib/queries and lib/domain.",
    ),
    deny(["@/app/*"], "components sit below app."),
  ]),
);
