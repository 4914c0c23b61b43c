import type { NextConfig } from "next";
import { SECURITY_HEADERS } from "./lib/domain/security-headers";

const nextConfig: NextConfig = {
  // `npm run bench` builds into its own folder (STUDIO_DIST_DIR=.next-bench), so it never waits on,
  // or fails behind, another build's .next/lock.
  distDir: process.env.STUDIO_DIST_DIR || ".next",
  // Database drivers and native modules stay outside the bundle.
  serverExternalPackages: ["@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "better-sqlite3", "pg", "sharp", "yauzl", "esbuild"],
  poweredByHeader: false,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [...SECURITY_HEADERS],
      },
    ];
  },
  typedRoutes: false,
};

export default nextConfig;
