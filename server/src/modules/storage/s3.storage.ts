import { Logger } from '@nestjs/common';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable, Writable } from 'node:stream';
import type { S3Config } from '../../config/app-config';
import { prematureClose } from './file-reads';
import { ByteRange, FileStorage, MeasuringStream, OpenedObject, ReceivedUpload, StorageUnavailableError } from './file-storage';
import { contentDisposition } from './http-range';
import { STORAGE_KEY } from './local-disk.storage';
import { isLeftover, TEMP_NAME, tempName } from './temp-uploads';

/** Uploads stream to `tmp/<host>-<pid>-<uuid>.part` and are copied under their key on commit, as the local disk renames. */
const TEMP_PREFIX = 'tmp/';
/** Each multipart part is held in memory while it is sent: 8 MiB × 2 in flight bounds an upload's memory. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

export function makeS3Client(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint ?? undefined,
    forcePathStyle: config.forcePathStyle,
    // Compatible stores (MinIO, s3rver, ...) do not all understand the SDK's default trailing checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** Files in an S3-compatible bucket (STORAGE_DRIVER=s3), shared by every instance of the portal. */
export class S3Storage extends FileStorage {
  private readonly logger = new Logger('Storage');
  private readonly bucket: string;

  constructor(
    private readonly config: S3Config,
    readonly client: S3Client = makeS3Client(config),
  ) {
    super();
    this.bucket = config.bucket;
  }

  /** Checks that the bucket responds (a wrong bucket or credentials stop the start), then sweeps what crashed uploads left. */
  async init(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      throw new Error(
        `S3 bucket "${this.bucket}" is not reachable${this.config.endpoint ? ` at ${this.config.endpoint}` : ''}: ${(error as Error).name ?? ''} ${(error as Error).message ?? ''}`.trim(),
      );
    }
    await this.sweep().catch((error: unknown) => this.logger.warn(`Could not sweep temporary uploads: ${String(error)}`));
  }

  /**
   * Removes leftover temporary objects and aborts leftover multipart uploads under tmp/ (see isLeftover: a dead
   * process's on this host from before this start, e.g. one killed mid-upload, or anything older than `staleMs`).
   * Returns the keys it removed or aborted.
   */
  async sweep(staleMs?: number): Promise<string[]> {
    const removed: string[] = [];
    const leftover = (key: string | undefined, since: Date | undefined): key is string =>
      !!key?.startsWith(TEMP_PREFIX) && !!since && isLeftover(key.slice(TEMP_PREFIX.length), since.getTime(), staleMs);
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: TEMP_PREFIX, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        if (!leftover(object.Key, object.LastModified)) continue;
        await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: object.Key }));
        removed.push(object.Key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    // AWS and MinIO list multipart uploads; s3rver does not (NotImplemented), and then only the objects are swept.
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const list = { Bucket: this.bucket, Prefix: TEMP_PREFIX, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker };
      const page = await this.client.send(new ListMultipartUploadsCommand(list)).catch((error: unknown) => {
        this.logger.warn(`The store does not list multipart uploads, so unfinished ones are not aborted: ${String(error)}`);
        return null;
      });
      for (const upload of page?.Uploads ?? []) {
        if (!upload.UploadId || !leftover(upload.Key, upload.Initiated)) continue;
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }));
        removed.push(upload.Key);
      }
      const more = page?.IsTruncated && (page.NextKeyMarker || page.NextUploadIdMarker);
      keyMarker = more ? page.NextKeyMarker : undefined;
      uploadIdMarker = more ? page.NextUploadIdMarker : undefined;
    } while (keyMarker || uploadIdMarker);
    if (removed.length) this.logger.log(`Removed ${removed.length} temporary upload(s) a stopped process left behind`);
    return removed;
  }

  async receive(source: Readable, maxBytes: number): Promise<ReceivedUpload> {
    const tempId = `${TEMP_PREFIX}${tempName()}`;
    const measure = new MeasuringStream(maxBytes);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: tempId, Body: measure },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false, // a failed upload aborts its multipart upload
    });
    // As on the local disk, the source is not destroyed (its owner decides); it is unpiped and drained.
    let streamError: unknown = null;
    const onStreamError = (error: Error) => {
      streamError ??= error;
      measure.destroy(error);
    };
    source.once('error', onStreamError);
    measure.once('error', onStreamError);
    source.pipe(measure);
    try {
      await upload.done();
      return { tempId, size: measure.byteCount, sha256: measure.hash.digest('hex') };
    } catch (error) {
      source.unpipe(measure);
      source.resume();
      measure.destroy();
      await upload.abort().catch(() => undefined);
      // A single-part upload is one PutObject; should it have landed anyway, it is removed too.
      await this.discard(tempId).catch(() => undefined);
      // The client's doing (too large, gone away) over whatever the store said while the upload was aborted.
      throw streamError ?? new StorageUnavailableError(error);
    } finally {
      source.off('error', onStreamError);
    }
  }

  async commit(upload: ReceivedUpload, key: string): Promise<void> {
    this.check(key);
    this.checkTemp(upload.tempId);
    await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: key, CopySource: `${this.bucket}/${upload.tempId}` }));
    await this.discard(upload.tempId);
  }

  async discard(tempId: string): Promise<void> {
    this.checkTemp(tempId);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: tempId }));
  }

  async open(key: string): Promise<OpenedObject | null> {
    this.check(key);
    let size: number;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      size = head.ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    return {
      size,
      // Nothing is held open between the HEAD and the ranged GET.
      close: () => undefined,
      copyTo: (range, destination) => this.copyRange(key, range, destination),
      read: async (range) => Buffer.concat(await (await this.getRange(key, range)).toArray()),
    };
  }

  private async getRange(key: string, range: ByteRange, signal?: AbortSignal): Promise<Readable> {
    const object = await this.client.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${range.start}-${range.end}` }),
      { abortSignal: signal },
    );
    return object.Body as Readable;
  }

  /**
   * Streams a ranged GET into `destination` with backpressure: piped (the socket's chunks go straight to the
   * response, no per-chunk promise), the GET cut off when the client goes away.
   */
  private async copyRange(key: string, range: ByteRange, destination: Writable): Promise<void> {
    const abort = new AbortController();
    const body = await this.getRange(key, range, abort.signal);
    let settle: (() => void) | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        const onClose = () => reject(prematureClose());
        const onError = (error: Error) => reject(error);
        const onEnd = () => resolve();
        settle = () => {
          destination.off('close', onClose);
          body.off('error', onError);
          body.off('end', onEnd);
        };
        if (destination.destroyed) return onClose();
        destination.once('close', onClose);
        body.once('error', onError);
        body.once('end', onEnd);
        body.pipe(destination, { end: false });
      });
    } finally {
      settle?.();
      body.unpipe(destination);
      abort.abort();
      body.destroy();
    }
  }

  async remove(key: string): Promise<void> {
    this.check(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (!isNotFound(error)) this.logger.warn(`Could not remove ${key}: ${String(error)}`);
    }
  }

  async usedBytes(): Promise<number> {
    let total = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (!object.Key?.startsWith(TEMP_PREFIX)) total += object.Size ?? 0;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return total;
  }

  override async downloadUrl(key: string, fileName: string, contentType: string): Promise<string | null> {
    if (this.config.downloads !== 'redirect') return null;
    this.check(key);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: contentDisposition(fileName),
      ResponseContentType: contentType,
    });
    return getSignedUrl(this.client, command, { expiresIn: this.config.presignSeconds });
  }

  private check(key: string): void {
    if (!STORAGE_KEY.test(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }

  private checkTemp(tempId: string): void {
    if (!tempId.startsWith(TEMP_PREFIX) || !TEMP_NAME.test(tempId.slice(TEMP_PREFIX.length)))
      throw new Error(`Invalid temporary upload id: ${JSON.stringify(tempId)}`);
  }
}
