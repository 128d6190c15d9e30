// A local S3-compatible server for tests (s3rver, files in a temporary directory), with the
// environment that points the app at it.
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error s3rver ships no types; only the constructor, run and close are used.
import S3rver from "s3rver";

export type TestS3 = { env: Record<string, string>; bucket: string; endpoint: string; close(): Promise<void> };

export async function startS3(bucket = "bookplate-test"): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), "bookplate-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    bucket,
    endpoint,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      // s3rver's fixed credentials.
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
