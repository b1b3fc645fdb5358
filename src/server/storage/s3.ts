/**
 * An S3-compatible object store through @aws-sdk/client-s3 (path-style addressing, so MinIO, Ceph,
 * s3rver and the provider's own object storage all work). Every key lives in one S3 bucket
 * (S3_BUCKET), made at open when it does not exist.
 */
import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { assertKey, type ObjectBody, type Storage, type StoredObject } from './index';

export interface S3Options {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const notFound = (e: any) => e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;

export class S3Storage implements Storage {
  readonly kind = 's3' as const;

  private constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  static async open(o: S3Options): Promise<S3Storage> {
    const client = new S3Client({
      endpoint: o.endpoint,
      region: o.region,
      forcePathStyle: true,
      credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey },
      // only the checksums a call requires: simple S3-compatible servers refuse the streaming trailers
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    try {
      await client.send(new HeadBucketCommand({ Bucket: o.bucket }));
    } catch (e) {
      if (!notFound(e)) throw e;
      await client.send(new CreateBucketCommand({ Bucket: o.bucket }));
    }
    return new S3Storage(client, o.bucket);
  }

  async put(key: string, body: Buffer | Readable, opts: { contentType?: string; size?: number } = {}): Promise<StoredObject> {
    assertKey(key);
    let payload: Buffer | Readable = body;
    let size = Buffer.isBuffer(body) ? body.length : opts.size;
    if (size === undefined) {
      // a stream of unknown length: S3 needs the length first
      const chunks: Buffer[] = [];
      for await (const c of body as Readable) chunks.push(Buffer.from(c));
      payload = Buffer.concat(chunks);
      size = payload.length;
    }
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: payload, ContentLength: size, ContentType: opts.contentType }));
    return { key, size };
  }

  async head(key: string): Promise<StoredObject | null> {
    assertKey(key);
    try {
      const h = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: Number(h.ContentLength ?? 0) };
    } catch (e) {
      if (notFound(e)) return null;
      throw e;
    }
  }

  async get(key: string): Promise<ObjectBody | null> {
    assertKey(key);
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { body: r.Body as Readable, size: Number(r.ContentLength ?? 0), contentType: r.ContentType };
    } catch (e) {
      if (notFound(e)) return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async list(prefix: string): Promise<StoredObject[]> {
    const out: StoredObject[] = [];
    let token: string | undefined;
    do {
      const r = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken: token }));
      for (const o of r.Contents ?? []) if (o.Key) out.push({ key: o.Key, size: Number(o.Size ?? 0) });
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
