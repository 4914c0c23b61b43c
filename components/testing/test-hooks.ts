/**
 * Whether this build exposes test hooks on `window` (window.__studio*): only a build made with
 * NEXT_PUBLIC_STUDIO_TEST_HOOKS=1, as the browser tests' build is (scripts/test-all.mjs and
 * playwright.config.ts set it). The value is inlined at build time, so a production build carries
 * neither the flag nor the hooks' code paths.
 */
export const TEST_HOOKS = process.env.NEXT_PUBLIC_STUDIO_TEST_HOOKS === "1";
