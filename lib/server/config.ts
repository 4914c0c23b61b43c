import path from "node:path";

/** Environment variables (process.env, or a given set in tests). */
export type Env = Record<string, string | undefined>;

/**
 * Where screenshots and the default SQLite database live (env STUDIO_DATA_DIR, default ./data).
 * A folder the server reads at run time, never part of the build: the ignore comment keeps the
 * bundler from tracing it (and, through the dynamic path, the whole project) into the output.
 */
export function dataDir(env: Env = process.env): string {
  return path.resolve(/*turbopackIgnore: true*/ env.STUDIO_DATA_DIR ?? path.join(process.cwd(), "data"));
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

/** Where screenshots live: a folder (the default) or an S3-compatible bucket. */
export type S3StoreConfig = {
  kind: "s3";
  bucket: string;
  /** Full URL of an S3-compatible server (MinIO, Ceph RGW ...); unset for AWS itself. */
  endpoint?: string;
  region: string;
  /** Key prefix, "" or ending in "/". */
  prefix: string;
  forcePathStyle: boolean;
  /** From AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN when set; otherwise the SDK's own chain (profile, role ...). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
};
export type ObjectStoreConfig = { kind: "local"; root: string } | S3StoreConfig;

/** A setting that is wrong: the message names the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = "ConfigError";
  }
}

const S3_VARS = ["STUDIO_S3_BUCKET", "STUDIO_S3_ENDPOINT", "STUDIO_S3_REGION", "STUDIO_S3_PREFIX", "STUDIO_S3_FORCE_PATH_STYLE"] as const;

function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === "") return fallback;
  if (/^(1|true|yes)$/i.test(value)) return true;
  if (/^(0|false|no)$/i.test(value)) return false;
  throw new ConfigError(name, `must be true or false, got "${value}"`);
}

/**
 * The screenshot store from env: STUDIO_S3_BUCKET set means an S3-compatible bucket (STUDIO_S3_ENDPOINT
 * for MinIO/Ceph/other servers, STUDIO_S3_REGION, STUDIO_S3_PREFIX, STUDIO_S3_FORCE_PATH_STYLE, which
 * defaults to true when an endpoint is given; credentials from the standard AWS variables); unset, the
 * data dir. Throws a ConfigError naming the variable that is wrong.
 */
export function objectStoreConfig(env: Env = process.env): ObjectStoreConfig {
  const bucket = env.STUDIO_S3_BUCKET?.trim();
  if (!bucket) {
    const stray = S3_VARS.find((v) => v !== "STUDIO_S3_BUCKET" && env[v]);
    if (stray)
      throw new ConfigError("STUDIO_S3_BUCKET", `must be set when ${stray} is (or unset ${stray} to keep screenshots on local disk)`);
    return { kind: "local", root: dataDir(env) };
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes(".."))
    throw new ConfigError("STUDIO_S3_BUCKET", `"${bucket}" is not a bucket name (3-63 lowercase letters, digits, dots and hyphens)`);
  let endpoint: string | undefined;
  if (env.STUDIO_S3_ENDPOINT) {
    let url: URL;
    try {
      url = new URL(env.STUDIO_S3_ENDPOINT);
    } catch {
      throw new ConfigError("STUDIO_S3_ENDPOINT", `"${env.STUDIO_S3_ENDPOINT}" is not a URL (e.g. http://minio:9000)`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new ConfigError("STUDIO_S3_ENDPOINT", `must be an http:// or https:// URL, got "${url.protocol}"`);
    endpoint = url.toString().replace(/\/$/, "");
  }
  const regionVar = env.STUDIO_S3_REGION ? "STUDIO_S3_REGION" : env.AWS_REGION ? "AWS_REGION" : "AWS_DEFAULT_REGION";
  const region = (env.STUDIO_S3_REGION || env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1").trim();
  if (!/^[a-z0-9-]{2,40}$/.test(region)) throw new ConfigError(regionVar, `"${region}" is not a region name (e.g. us-east-1)`);
  let prefix = (env.STUDIO_S3_PREFIX ?? "").trim();
  if (prefix) {
    if (prefix.startsWith("/") || prefix.split("/").some((p) => p === "." || p === "..") || !/^[\w./-]+$/.test(prefix))
      throw new ConfigError(
        "STUDIO_S3_PREFIX",
        `"${prefix}" must be a relative key prefix of letters, digits, _ . - and / (e.g. studio/prod)`,
      );
    prefix = prefix.replace(/\/*$/, "/");
  }
  if (env.AWS_ACCESS_KEY_ID && !env.AWS_SECRET_ACCESS_KEY)
    throw new ConfigError("AWS_SECRET_ACCESS_KEY", "must be set when AWS_ACCESS_KEY_ID is");
  if (env.AWS_SECRET_ACCESS_KEY && !env.AWS_ACCESS_KEY_ID)
    throw new ConfigError("AWS_ACCESS_KEY_ID", "must be set when AWS_SECRET_ACCESS_KEY is");
  const forcePathStyle = flag("STUDIO_S3_FORCE_PATH_STYLE", env.STUDIO_S3_FORCE_PATH_STYLE, endpoint !== undefined);
  const credentials =
    env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? {
          accessKeyId: env.AWS_ACCESS_KEY_ID,
          secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
          ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
        }
      : undefined;
  return { kind: "s3", bucket, endpoint, region, prefix, forcePathStyle, ...(credentials ? { credentials } : {}) };
}
