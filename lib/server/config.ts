import path from "node:path";

/**
 * Where screenshots and the default SQLite database live (env STUDIO_DATA_DIR, default ./data).
 * A folder the server reads at run time, never part of the build: the ignore comment keeps the
 * bundler from tracing it (and, through the dynamic path, the whole project) into the output.
 */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.STUDIO_DATA_DIR ?? path.join(process.cwd(), "data"));
}

/** The database: env DATABASE_URL (file:... for SQLite, postgresql://... for PostgreSQL), default a SQLite file in the data dir. */
export function databaseUrl(): string {
  return process.env.DATABASE_URL ?? `file:${path.join(dataDir(), "studio.db")}`;
}

export type Dialect = "sqlite" | "postgresql";

export function dialectOf(url: string): Dialect {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL), got "${url.split(":")[0]}:..."`);
}

export function sqlitePath(url: string): string {
  return path.resolve(url.slice("file:".length));
}

/** Folder of committed SQL migrations for a dialect. */
export function migrationsDir(dialect: Dialect): string {
  return path.join(process.cwd(), "prisma", "migrations", dialect);
}
