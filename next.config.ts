import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Database drivers and native modules stay outside the bundle.
  serverExternalPackages: ["@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "better-sqlite3", "pg", "sharp", "yauzl"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
