// One interface for where screenshots (originals and display variants) live: a folder on local disk
// (the default) or a bucket in an S3-compatible object store (AWS S3, MinIO, Ceph RGW ...), chosen by
// env (see objectStoreConfig in ../config). Keys are relative paths such as screenshots/ab/<sha>.png.
import {
  ConfigError,
  databaseUrl,
  dialectOf,
  env as studioEnv,
  objectStoreConfig,
  processEnv,
  type Env,
  type ObjectStoreConfig,
} from "../env";
import { localStore } from "./local";
import { s3Store } from "./s3";

export type StoredObject = {
  /** The object's bytes, streamed. */
  body: ReadableStream<Uint8Array>;
  size: number;
};

export interface ObjectStore {
  /** For logs and errors: "local folder /srv/data" or "S3 bucket studio (prefix shots/) at http://minio:9000". */
  readonly description: string;
  exists(key: string): Promise<boolean>;
  /** Store a file's bytes under key (the last writer of the same key wins; keys are content-addressed). */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  putBytes(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** A stored object, streamed; null when there is none. */
  open(key: string): Promise<StoredObject | null>;
  /** A stored object's bytes; null when there is none. */
  read(key: string): Promise<Buffer | null>;
  /**
   * Put a stored object at `dest` on local disk (a hard link where possible); false when there is none.
   * Never replaces a file already at `dest`: that throws the file system's EEXIST error.
   */
  copyToFile(key: string, dest: string): Promise<boolean>;
  /**
   * The file holding `key` when the store is a folder on this machine (whether it exists is not
   * checked); absent for a bucket. An export hard-links from it directly, without a call per file.
   */
  localFile?(key: string): string;
  /** Reach the store once (start-up): throws an error naming the setting that is wrong. */
  check(): Promise<void>;
}

function storeFor(config: ObjectStoreConfig): ObjectStore {
  return config.kind === "s3" ? s3Store(config) : localStore(config.root);
}

const globalForStore = globalThis as unknown as { studioObjectStore?: { key: string; store: ObjectStore } };

/** The store this process uses (rebuilt when its configuration changes, e.g. between tests). */
export function objectStore(): ObjectStore {
  const config = objectStoreConfig();
  const key = JSON.stringify(config);
  if (globalForStore.studioObjectStore?.key !== key) {
    globalForStore.studioObjectStore = { key, store: storeFor(config) };
  }
  return globalForStore.studioObjectStore.store;
}

/**
 * What a starting server checks before it serves anything: the store's settings parse, the store
 * answers, and an S3 layout (many instances, each with its own data dir) has a shared BETTER_AUTH_SECRET.
 * Throws an error naming the variable that is wrong.
 */
export async function checkObjectStoreAtStart(env: Env = processEnv()): Promise<string> {
  const config = objectStoreConfig(env);
  if (config.kind === "s3" && !env.BETTER_AUTH_SECRET)
    throw new ConfigError(
      "BETTER_AUTH_SECRET",
      "must be set when screenshots are in an S3 bucket (STUDIO_S3_BUCKET): every instance must sign sessions with the same secret, and a generated one stays in one instance's data dir (make one with `openssl rand -base64 32`)",
    );
  const store = env === processEnv() ? objectStore() : storeFor(config);
  await store.check();
  return store.description;
}

/** checkObjectStoreAtStart for a starting server: logs where screenshots live, or why it cannot start, and exits. */
export async function requireObjectStoreAtStart(): Promise<void> {
  try {
    console.log(`studio: screenshots in ${await checkObjectStoreAtStart()}`);
    if (!studioEnv().BETTER_AUTH_SECRET && dialectOf(databaseUrl()) === "postgresql")
      console.warn(
        "studio: BETTER_AUTH_SECRET is not set: sessions are signed with a secret generated into this instance's data dir; set the same BETTER_AUTH_SECRET on every instance sharing the database",
      );
  } catch (e) {
    console.error(`studio: cannot start: ${(e as Error).message}`);
    process.exit(1);
  }
}
