// A local S3-compatible server for tests (s3rver, from the npm registry): a bucket on a free port,
// its objects in a temporary folder, and the env that points a studio at it.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

type S3rverServer = { run(): Promise<{ port: number }>; close(): Promise<void> };
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverServer;

export type LocalS3 = {
  endpoint: string;
  bucket: string;
  directory: string;
  /** STUDIO_S3_* and AWS_* variables for a studio process using this bucket. */
  env: Record<string, string>;
  stop: () => Promise<void>;
};

export async function startS3(opts: { bucket?: string; port?: number; prefix?: string } = {}): Promise<LocalS3> {
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;
  const bucket = opts.bucket ?? "studio-test";
  const directory = mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: opts.port ?? 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    env: {
      STUDIO_S3_BUCKET: bucket,
      STUDIO_S3_ENDPOINT: endpoint,
      STUDIO_S3_REGION: "us-east-1",
      ...(opts.prefix ? { STUDIO_S3_PREFIX: opts.prefix } : {}),
      // s3rver's fixed credentials.
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
