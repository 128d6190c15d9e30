// Uploads in an S3-compatible object store (ADR 030): the same Storage interface as the local
// directory, so nothing above this file knows which one it has. Objects keep their storage key
// (`covers/{user}/{book}/{name}-400.webp`); their public address stays `/uploads/{key}`, which
// the app serves from the store (a CDN in front caches them: names never repeat).
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { keeps, type Storage, StoredFileMissing, safeStorageKey, UPLOADS_PREFIX } from "./storage.ts";

export type S3Config = {
  endpoint?: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
};

export function s3Storage(config: S3Config): Storage {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Checksums only where S3 requires them: S3-compatible stores differ in what they accept.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = config.bucket;

  async function listAll(prefix: string, delimiter?: string) {
    const out: { key: string; modified: Date }[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket,
          Prefix: `${prefix}/`,
          ContinuationToken: token,
          ...(delimiter ? { Delimiter: delimiter } : {}),
        }),
      );
      for (const o of page.Contents ?? []) if (o.Key) out.push({ key: o.Key, modified: o.LastModified ?? new Date(0) });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async function remove(keys: string[]) {
    for (let i = 0; i < keys.length; i += 1000) {
      await client.send(
        new DeleteObjectsCommand({
          Bucket,
          Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
        }),
      );
    }
  }

  return {
    async put(key, body, contentType) {
      const safe = safeStorageKey(key);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: safe,
          Body: body,
          ContentType: contentType,
          CacheControl: "public, max-age=31536000, immutable",
        }),
      );
      return `${UPLOADS_PREFIX}${safe}`;
    },
    async prune(prefix, keep, graceMs) {
      const kept = keeps(keep);
      const now = Date.now();
      // Only the files directly in the folder, like the local directory's prune.
      const stale = (await listAll(safeStorageKey(prefix), "/"))
        .filter((o) => !kept(`${UPLOADS_PREFIX}${o.key}`) && now - o.modified.getTime() >= graceMs)
        .map((o) => o.key);
      await remove(stale);
      return stale.length;
    },
    async list(prefix) {
      return (await listAll(safeStorageKey(prefix))).map((o) => o.key).sort();
    },
    async read(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: safeStorageKey(key) }));
        if (!res.Body) throw new StoredFileMissing(key);
        return await res.Body.transformToByteArray();
      } catch (err) {
        if (err instanceof NoSuchKey || (err as { name?: string }).name === "NoSuchKey")
          throw new StoredFileMissing(key);
        throw err;
      }
    },
    async removeAll(prefix) {
      const base = safeStorageKey(prefix);
      if (!base || base === ".") throw new Error("Refusing to remove the whole storage");
      await remove((await listAll(base)).map((o) => o.key));
    },
  };
}
