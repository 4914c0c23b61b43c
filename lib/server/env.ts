// The environment, read here and nowhere else in lib/server (lib/server/env.test.ts keeps it so): where the data
// and the database are, the screenshot store, and the one table of every variable with its schema.
import path from "node:path";
import { z } from "zod";

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

function flagValue(name: string, value: string | undefined, fallback: boolean): boolean {
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
  const forcePathStyle = flagValue("STUDIO_S3_FORCE_PATH_STYLE", env.STUDIO_S3_FORCE_PATH_STYLE, endpoint !== undefined);
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

/**
 * Every environment variable the studio reads (server, command line and the instrumentation hook), with its
 * schema, default and one line of documentation: the one place a variable is declared. `parseEnv` reads them
 * all at once and refuses a bad value naming the variable (`STUDIO_JOB_STALE_MS=abc` stops start-up instead of
 * becoming NaN); `.env.example` is generated from this table (`npm run env:example`) and a test keeps it so.
 */
type Var = { schema: z.ZodType; doc: string; example?: string; group: string };

const whole = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
const flag = z
  .string()
  .trim()
  .regex(/^(1|0|true|false|yes|no)$/i, "must be 1 or 0 (true or false)")
  .transform((v) => /^(1|true|yes)$/i.test(v));
const httpUrl = z
  .string()
  .trim()
  .refine((s) => {
    try {
      return ["http:", "https:"].includes(new URL(s).protocol);
    } catch {
      return false;
    }
  }, "must be an http:// or https:// URL");
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

export const ENV_VARS = {
  DATABASE_URL: {
    group: "Database and files",
    schema: z
      .string()
      .trim()
      .regex(/^(file:|postgres(ql)?:\/\/)/, "must start with file: (SQLite) or postgresql:// (PostgreSQL)"),
    doc: "The database: file:<path> for SQLite (default: studio.db in the data folder) or postgresql://user:pass@host/db.",
    example: "file:./data/studio.db",
  },
  STUDIO_DATA_DIR: {
    group: "Database and files",
    schema: text(4_000),
    doc: "Screenshots, exports and the default SQLite file (default ./data).",
    example: "./data",
  },
  STUDIO_IMPORT_DISK_RESERVE_MB: {
    group: "Database and files",
    schema: whole(0, 10_000_000),
    doc: "Space (MB) a zip import must leave free on the data folder's disk once extracted; a zip needing more is refused, naming it (default 512).",
  },
  STUDIO_S3_BUCKET: {
    group: "Screenshot store (S3-compatible)",
    schema: text(63),
    doc: "Keep screenshots in this bucket instead of the data folder.",
  },
  STUDIO_S3_ENDPOINT: {
    group: "Screenshot store (S3-compatible)",
    schema: httpUrl,
    doc: "URL of an S3-compatible server (MinIO, Ceph RGW); unset for AWS.",
  },
  STUDIO_S3_REGION: { group: "Screenshot store (S3-compatible)", schema: text(40), doc: "Region (default AWS_REGION, then us-east-1)." },
  STUDIO_S3_PREFIX: {
    group: "Screenshot store (S3-compatible)",
    schema: text(512),
    doc: "Key prefix inside the bucket, e.g. studio/prod.",
  },
  STUDIO_S3_FORCE_PATH_STYLE: {
    group: "Screenshot store (S3-compatible)",
    schema: flag,
    doc: "Path-style URLs (default: on when an endpoint is set).",
  },
  BETTER_AUTH_SECRET: {
    group: "Server",
    schema: z.string(),
    doc: "Signs sessions and encrypts the model key; the same on every instance (required with PostgreSQL or S3).",
  },
  BETTER_AUTH_URL: { group: "Server", schema: httpUrl, doc: "The studio's public URL (default http://127.0.0.1:<PORT>)." },
  PORT: { group: "Server", schema: whole(1, 65_535), doc: "Port to listen on (default 3000).", example: "3000" },
  STUDIO_HOST: { group: "Server", schema: text(255), doc: "Address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)." },
  STUDIO_WORKERS: { group: "Server", schema: whole(1, 64), doc: "Server processes sharing the port (default 1)." },
  STUDIO_API_LANE: {
    group: "Server",
    schema: z.enum(["studio", "next"], { message: 'must be "studio" or "next"' }),
    doc: "Which code answers the API: the studio's lane (default) or Next's handlers.",
  },
  STUDIO_SERVER_TIMING: { group: "Server", schema: flag, doc: "Add a Server-Timing header to every API answer." },
  STUDIO_SIGN_IN_PER_MINUTE: { group: "Server", schema: whole(1, 100_000), doc: "Sign-in attempts per address per minute (default 10)." },
  STUDIO_JOB_STALE_MS: {
    group: "Server",
    schema: whole(1_000, 3_600_000),
    doc: "A job silent this long (ms) was interrupted: failed or taken over (default 30000).",
  },
  STUDIO_DEMO_TRAJECTORIES: {
    group: "Server",
    schema: whole(0, 100_000),
    doc: "Demo trajectories seeded into an empty studio (default 60).",
  },
  STUDIO_DIST_DIR: { group: "Server", schema: text(4_000), doc: "Next's build folder (default .next)." },
  STUDIO_MODEL_URL: {
    group: "Model endpoint",
    schema: httpUrl,
    doc: "OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1 (the admin page overrides it).",
  },
  STUDIO_MODEL_NAME: { group: "Model endpoint", schema: text(200), doc: "Model name sent with each request." },
  STUDIO_MODEL_KEY: { group: "Model endpoint", schema: text(4_000), doc: "API key, sent only to STUDIO_MODEL_URL." },
  STUDIO_MODEL_CONCURRENCY: { group: "Model endpoint", schema: whole(1, 64), doc: "Requests in flight at once (default 4)." },
  STUDIO_MODEL_TIMEOUT_MS: {
    group: "Model endpoint",
    schema: whole(1_000, 600_000),
    doc: "One deadline per request, headers and body (ms, default 60000).",
  },
  STUDIO_MODEL_MAX_PIXELS: {
    group: "Model endpoint",
    schema: whole(3_136, 100_000_000),
    doc: "smart_resize max_pixels of the served model (default Qwen2.5-VL's).",
  },
  STUDIO_MODEL_PERSON_PER_MINUTE: {
    group: "Model endpoint",
    schema: whole(1, 100_000),
    doc: "Model requests one person may start per minute (default 30).",
  },
  STUDIO_MODEL_PERSON_QUEUE: {
    group: "Model endpoint",
    schema: whole(1, 1_000),
    doc: "One person's requests admitted at once (default 2).",
  },
  STUDIO_MODEL_ENDPOINT_PER_MINUTE: {
    group: "Model endpoint",
    schema: whole(1, 1_000_000),
    doc: "People's requests per minute to one endpoint (default 240).",
  },
  STUDIO_MODEL_ENDPOINT_QUEUE: {
    group: "Model endpoint",
    schema: whole(1, 10_000),
    doc: "Requests waiting for a slot on one endpoint (default 32).",
  },
  STUDIO_JUDGE_MAX_IMAGES: {
    group: "Model endpoint",
    schema: whole(0, 64),
    doc: "Screenshots sent with a judge request, the last ones (default 8).",
  },
  STUDIO_OLD_SECRET: {
    group: "Model endpoint",
    schema: z.string(),
    doc: "Only for `studio model rekey`: the previous BETTER_AUTH_SECRET.",
  },
} satisfies Record<string, Var>;

export type EnvName = keyof typeof ENV_VARS;
export type StudioEnv = { [K in EnvName]?: z.output<(typeof ENV_VARS)[K]["schema"]> };

const NAMES = Object.keys(ENV_VARS) as EnvName[];

/**
 * Read every variable from `env` (unset or empty: absent, so each reader's default applies). The first bad
 * value throws a ConfigError naming the variable and what it must be; the S3 settings are also checked together.
 */
export function parseEnv(env: Env = process.env): StudioEnv {
  const out: Record<string, unknown> = {};
  for (const name of NAMES) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const r = (ENV_VARS[name].schema as z.ZodType).safeParse(raw);
    if (!r.success) {
      const shown = /SECRET|KEY/.test(name) ? "" : ` (got "${raw.slice(0, 60)}")`;
      throw new ConfigError(name, `${r.error.issues[0]?.message ?? "is not valid"}${shown}`);
    }
    out[name] = r.data;
  }
  objectStoreConfig(env);
  return out as StudioEnv;
}

let memo: { key: string; value: StudioEnv } | null = null;

/**
 * The parsed environment of this process. Parsed again only when a value changed (tests set variables
 * between calls), so a reader may call it on every use.
 */
export function env(): StudioEnv {
  const key = NAMES.map((n) => process.env[n] ?? "\u0001").join("\u0000");
  if (memo?.key !== key) memo = { key, value: parseEnv(process.env) };
  return memo.value;
}

/** `.env.example`: every variable, grouped, with its documentation; generated, never edited by hand. */
export function envExample(): string {
  const lines = [
    "# Trajectory Studio: every environment variable it reads (generated from lib/server/env.ts by `npm run env:example`).",
    "# All are optional on one machine; unset, each has the default named.",
  ];
  let group = "";
  for (const name of NAMES) {
    const v: Var = ENV_VARS[name];
    if (v.group !== group) {
      group = v.group;
      lines.push("", `# ── ${group}`);
    }
    lines.push(`# ${v.doc}`, `# ${name}=${v.example ?? ""}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * This process's environment as a whole: the default of the readers above that also take a given set (tests).
 * A reader of one variable uses env() instead, which is typed and checked.
 */
export function processEnv(): Env {
  return process.env;
}

/**
 * Whether this code runs as Next's server build: Next's bundler replaces process.env.NEXT_RUNTIME with a
 * constant ("nodejs" in server code); Next never sets it at run time, so elsewhere (tsx, the API lane) it is unset.
 */
export const BUILT_BY_NEXT = process.env.NEXT_RUNTIME === "nodejs";
