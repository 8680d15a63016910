import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  mixin,
  NestInterceptor,
  Type,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import multer, { MulterError, StorageEngine } from 'multer';
import { catchError, from, mergeMap, Observable, throwError } from 'rxjs';
import { ApiError } from '../../common/api-error';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { FileStorage, ReceivedUpload, StorageUnavailableError, UploadTooLargeError } from './file-storage';
import { extensionOf, fileTooLarge, fileTypeNotAllowed } from './file-names';

/** What a route's upload handler receives as `@UploadedFile()`: the bytes are in temporary storage, hashed and measured. */
export interface StoredUpload extends ReceivedUpload {
  fieldname: string;
  /** The name the browser sent (busboy keeps only its last path segment). */
  originalname: string;
  mimetype: string;
  /** The allowed extension the original name ends with, e.g. ".tar.gz". */
  extension: string;
}

/**
 * A multer storage engine that streams the file part straight into FileStorage.receive (temporary space,
 * SHA-256 and size computed on the way), so nothing is buffered in memory and nothing stays behind on refusal.
 */
class StreamingStorageEngine implements StorageEngine {
  constructor(
    private readonly storage: FileStorage,
    private readonly extensions: readonly string[],
    private readonly maxBytes: number,
  ) {}

  _handleFile(_req: Request, file: Express.Multer.File, callback: (error?: unknown, info?: Partial<StoredUpload>) => void): void {
    const extension = extensionOf(file.originalname ?? '', this.extensions);
    if (!extension) {
      file.stream.resume();
      return callback(fileTypeNotAllowed(this.extensions));
    }
    this.storage.receive(file.stream, this.maxBytes).then(
      (received) => callback(null, { ...received, extension, path: received.tempId } as Partial<StoredUpload>),
      (error: unknown) => {
        file.stream.resume();
        callback(error);
      },
    );
  }

  _removeFile(_req: Request, file: Express.Multer.File & Partial<StoredUpload>, callback: (error: Error | null) => void): void {
    if (!file.tempId) return callback(null);
    this.storage.discard(file.tempId).then(
      () => callback(null),
      (error: Error) => callback(error),
    );
  }
}

/** Multer's and busboy's failures in the API's words; the client's own abort gets a 400 nobody reads. */
function uploadError(error: unknown, maxBytes: number): unknown {
  if (error instanceof HttpException) return error;
  if (error instanceof UploadTooLargeError) return fileTooLarge(maxBytes);
  if (error instanceof StorageUnavailableError)
    return new ApiError(HttpStatus.SERVICE_UNAVAILABLE, 'The file store is not available; try the upload again later');
  if (error instanceof MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') return fileTooLarge(maxBytes);
    if (error.code === 'LIMIT_UNEXPECTED_FILE')
      return ApiError.badRequest(`Unexpected file field "${error.field}": send one file as "file"`);
    return ApiError.badRequest(`Invalid upload: ${error.message}${error.field ? ` (${error.field})` : ''}`);
  }
  const message = (error as Error)?.message ?? 'Invalid upload';
  return new ApiError(HttpStatus.BAD_REQUEST, `Invalid upload: ${message}`);
}

/**
 * Parses a multipart request with multer, streaming its one `file` part into FileStorage. Whatever happens
 * afterwards (validation error, conflict, crash of the handler), the temporary upload is discarded once the
 * response is done unless the handler committed it.
 */
export function UploadInterceptor(extensions: readonly string[]): Type<NestInterceptor> {
  @Injectable()
  class MixinUploadInterceptor implements NestInterceptor {
    private readonly maxBytes: number;
    private readonly middleware: ReturnType<ReturnType<typeof multer>['single']>;

    constructor(
      private readonly storage: FileStorage,
      @Inject(APP_CONFIG) config: AppConfig,
    ) {
      this.maxBytes = config.storage.maxUploadBytes;
      this.middleware = multer({
        storage: new StreamingStorageEngine(storage, extensions, this.maxBytes),
        limits: { fileSize: this.maxBytes, files: 1, fields: 30, parts: 40, fieldSize: 256 * 1024 },
        // Browsers and curl send a file name's UTF-8 bytes without naming a charset; busboy's default reads them as Latin-1.
        defParamCharset: 'utf8',
      }).single('file');
    }

    async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      const http = context.switchToHttp();
      const request = http.getRequest<Request & { file?: StoredUpload }>();
      const response = http.getResponse<Response>();
      await new Promise<void>((resolve, reject) =>
        this.middleware(request, response, (error?: unknown) => (error ? reject(uploadError(error, this.maxBytes)) : resolve())),
      );
      const tempId = request.file?.tempId;
      if (!tempId) return next.handle();
      const discard = () => this.storage.discard(tempId).catch(() => undefined);
      // Backstop for whatever ends the request without an error reaching us (a committed upload is no longer there).
      response.once('close', () => void discard());
      // A refused request (validation, conflict, ...) has its upload removed before the error response goes out.
      return next.handle().pipe(catchError((error: unknown) => from(discard()).pipe(mergeMap(() => throwError(() => error)))));
    }
  }
  return mixin(MixinUploadInterceptor);
}

/** A multipart route whose `file` part streams to storage (see UploadInterceptor), with its form as the documented body. */
export const MultipartUpload = (extensions: readonly string[], form: Type<unknown>) =>
  applyDecorators(UseInterceptors(UploadInterceptor(extensions)), ApiConsumes('multipart/form-data'), ApiBody({ type: form }));
