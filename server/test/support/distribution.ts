import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Response as AgentResponse } from 'superagent';
import { bearer, TestApp } from './test-app';

/** Helpers for the versions, distribution-files and downloads suites. */

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Random bytes, so two files never share a hash by accident. */
export const someBytes = (size: number) => randomBytes(size);

export interface UploadedVersion {
  id: number;
  version: string;
  is_latest: boolean;
  [key: string]: unknown;
}

/** POST /api/admin/upload as the admin; fields go as multipart form fields. */
export function postVersion(t: TestApp, token: string, fields: Record<string, string | boolean>, file?: { bytes: Buffer; name: string }) {
  let request = t.api().post('/api/admin/upload').set(bearer(token));
  for (const [name, value] of Object.entries(fields)) request = request.field(name, String(value));
  if (file) request = request.attach('file', file.bytes, file.name);
  return request;
}

export async function createVersion(t: TestApp, version: string, fields: Record<string, string | boolean> = {}): Promise<UploadedVersion> {
  const response = await postVersion(t, await t.adminToken(), { version, release_date: '2025-06-01', ...fields });
  if (response.status !== 201) throw new Error(`version ${version}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

export interface FileUpload {
  version_id?: number | string;
  os_type?: string;
  architecture?: string;
  file_name?: string;
  bytes?: Buffer;
  /** The name the multipart part carries. */
  name?: string;
}

/** POST /api/admin/distribution-files; a field set to undefined is left out. */
export function postFile(t: TestApp, token: string, upload: FileUpload) {
  let request = t.api().post('/api/admin/distribution-files').set(bearer(token));
  for (const field of ['version_id', 'os_type', 'architecture', 'file_name'] as const) {
    if (upload[field] !== undefined) request = request.field(field, String(upload[field]));
  }
  if (upload.bytes) request = request.attach('file', upload.bytes, upload.name ?? 'streamhub.deb');
  return request;
}

export interface UploadedFile {
  id: number;
  file_name: string;
  file_hash: string;
  file_size: number;
  download_count: number;
  version_id: number;
  [key: string]: unknown;
}

export async function uploadFile(t: TestApp, upload: FileUpload & { version_id: number }): Promise<UploadedFile> {
  const response = await postFile(t, await t.adminToken(), { os_type: 'linux', architecture: 'x64', bytes: someBytes(1000), ...upload });
  if (response.status !== 201) throw new Error(`file upload: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** Every file under the storage root (temporary uploads included), as paths relative to it. */
export function storedFiles(t: TestApp): string[] {
  const root = t.config.storage.dir;
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(relative(root, path));
    }
  };
  walk(root);
  return found.sort();
}

/** Rows of a table, straight from the database. */
export async function countRows(t: TestApp, table: 'versions' | 'distribution_files' | 'download_logs'): Promise<number> {
  const [row] = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row.n);
}

/** A supertest parser that collects a binary body as a Buffer: `.buffer(true).parse(asBuffer)`. */
export function asBuffer(response: AgentResponse, callback: (error: Error | null, body: Buffer) => void): void {
  const stream = response as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
  stream.on('error', (error: Error) => callback(error, Buffer.alloc(0)));
}

/** Waits until `check` holds (polling), or fails after `timeoutMs`. Not a timing assertion: only a bound on waiting. */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
