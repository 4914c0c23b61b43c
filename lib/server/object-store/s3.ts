// Screenshots in an S3-compatible object store (AWS S3, MinIO, Ceph RGW ...) through the official AWS SDK.
// Credentials come from the SDK's standard chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, AWS_PROFILE,
// an instance or task role ...); the bucket, endpoint, region and key prefix from STUDIO_S3_* (../config).
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { link, readFile, unlink } from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type * as S3Sdk from "@aws-sdk/client-s3";
import type { S3StoreConfig } from "../env";
import { appError } from "../errors";
import type { ObjectStore } from "./store";

type SdkError = Error & { $metadata?: { httpStatusCode?: number }; code?: string; Code?: string };
const statusOf = (e: unknown) => (e as SdkError).$metadata?.httpStatusCode;
const isMissing = (e: unknown) => statusOf(e) === 404 || (e as SdkError).name === "NoSuchKey" || (e as SdkError).name === "NotFound";

const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"]);

/** True when the store did not answer at all (refused, no such host, timed out, cut off): down, not wrong. */
export function isUnreachable(e: unknown): boolean {
  const err = e as SdkError;
  const code = err.code ?? (err.cause as { code?: string } | undefined)?.code;
  return (code !== undefined && UNREACHABLE.has(code)) || err.name === "TimeoutError";
}

/** Why the bucket cannot be used, naming the setting to look at. */
export function explainS3Error(e: unknown, config: S3StoreConfig): string {
  const err = e as SdkError;
  const where = config.endpoint ?? `AWS region ${config.region}`;
  const status = statusOf(e);
  if (err.name === "CredentialsProviderError")
    return `no credentials for the S3 store: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE, or give the machine a role) (${err.message})`;
  if (status === 404) return `STUDIO_S3_BUCKET: bucket "${config.bucket}" does not exist at ${where}`;
  if (status === 403)
    return `STUDIO_S3_BUCKET: access to bucket "${config.bucket}" at ${where} is denied: check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY and the bucket's policy`;
  if (status === 301 || status === 400)
    return `STUDIO_S3_REGION: bucket "${config.bucket}" answered ${status}; is it in region ${config.region}? (or set STUDIO_S3_FORCE_PATH_STYLE=true for MinIO/Ceph)`;
  const code = err.code ?? (err.cause as { code?: string } | undefined)?.code;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ETIMEDOUT" || err.name === "TimeoutError")
    return `${config.endpoint ? "STUDIO_S3_ENDPOINT" : "STUDIO_S3_REGION"}: cannot reach the S3 store at ${where} (${code ?? err.name})`;
  return `S3 store (STUDIO_S3_BUCKET "${config.bucket}" at ${where}): ${err.name}: ${err.message}`;
}

export function s3Store(config: S3StoreConfig): ObjectStore {
  // The SDK (about half a second to load) is loaded by the first call, not with this module: everything that
  // may use a bucket imports it, including every command line command, most of which never touch one.
  let sdk: Promise<{ client: S3Sdk.S3Client; commands: typeof S3Sdk }> | undefined;
  const connect = () => (sdk ??= import("@aws-sdk/client-s3").then((commands) => ({ client: newClient(commands.S3Client), commands })));
  const newClient = (S3: typeof S3Sdk.S3Client) =>
    new S3({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      ...(config.credentials ? { credentials: config.credentials } : {}),
      // Checksums only where the API requires them: MinIO, Ceph RGW and older S3-compatible servers
      // refuse or mishandle the SDK's default CRC32 trailers.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
      maxAttempts: 3,
    });
  const Bucket = config.bucket;
  const Key = (key: string) => `${config.prefix}${key}`;
  const description = `S3 bucket ${Bucket}${config.prefix ? ` (prefix ${config.prefix})` : ""} at ${config.endpoint ?? `AWS region ${config.region}`}`;
  /** `work` against the bucket; a bucket that cannot be reached is said in words (503), naming it, for the person and the job's error. */
  const reach = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (e) {
      if (!isUnreachable(e)) throw e;
      console.error(`studio: the screenshot store (${description}) cannot be reached`, e);
      throw appError("unavailable", "error.storeUnreachable", { store: description });
    }
  };
  const get = (key: string) =>
    reach(async () => {
      const { client, commands } = await connect();
      try {
        return await client.send(new commands.GetObjectCommand({ Bucket, Key: Key(key) }));
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
    });
  return {
    description,
    exists: (key) =>
      reach(async () => {
        const { client, commands } = await connect();
        try {
          await client.send(new commands.HeadObjectCommand({ Bucket, Key: Key(key) }));
          return true;
        } catch (e) {
          if (isMissing(e)) return false;
          throw e;
        }
      }),
    async putFile(key, file, contentType) {
      // Screenshots are small (a few MB at most): one buffered PUT, so the length is known up front.
      await this.putBytes(key, await readFile(file), contentType);
    },
    putBytes: (key, bytes, contentType) =>
      reach(async () => {
        const { client, commands } = await connect();
        await client.send(
          new commands.PutObjectCommand({ Bucket, Key: Key(key), Body: bytes, ContentType: contentType, ContentLength: bytes.byteLength }),
        );
      }),
    async open(key) {
      const out = await get(key);
      if (!out?.Body) return null;
      return { body: out.Body.transformToWebStream() as ReadableStream<Uint8Array>, size: out.ContentLength ?? 0 };
    },
    async read(key) {
      const out = await get(key);
      if (!out?.Body) return null;
      return Buffer.from(await out.Body.transformToByteArray());
    },
    async copyToFile(key, dest) {
      const out = await get(key);
      if (!out?.Body) return false;
      const tmp = `${dest}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await reach(() => pipeline(out.Body as Readable, createWriteStream(tmp, { flags: "wx" })));
        // link, not rename: never over a file already at `dest` (EEXIST, as the local store says it).
        await link(tmp, dest);
      } finally {
        await unlink(tmp).catch(() => {});
      }
      return true;
    },
    async check() {
      const { client, commands } = await connect();
      try {
        await client.send(new commands.HeadBucketCommand({ Bucket }));
      } catch (e) {
        throw new Error(explainS3Error(e, config), { cause: e });
      }
    },
  };
}
