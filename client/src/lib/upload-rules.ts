import { useGetSupportedVersions } from '../api/generated/endpoints/versions/versions';

/** What the server takes for distribution files (admin spec section 5), used until its own list has loaded. */
export const DISTRIBUTION_EXTENSIONS = ['.exe', '.dmg', '.pkg', '.tar.gz', '.zip', '.deb', '.rpm'] as const;

/** Above this an upload only earns a console warning (admin spec sections 5 and 9); the server's own limit decides. */
export const LARGE_UPLOAD_BYTES = 104_857_600;

/** The allowed extension a file name ends with, or null (case-insensitive; a bare extension is no name). */
export function allowedExtension(name: string, allowed: readonly string[]): string | null {
  const lower = name.toLowerCase();
  const match = [...allowed].sort((a, b) => b.length - a.length).find((ext) => lower.endsWith(ext));
  return match && lower.length > match.length ? match : null;
}

/** The spec's console warning for an upload over 100 MB. */
export function warnIfLargeUpload(file: Pick<File, 'name' | 'size'> | null | undefined): void {
  if (file && file.size > LARGE_UPLOAD_BYTES) console.warn(`Large upload: ${file.name} (${file.size} bytes)`);
}

/** What the server takes for an upload (its `kind` of extensions, its maximum size); `fallback`, the spec's list, until that has loaded or when it fails. */
export function useUploadRules(kind: 'file_extensions' | 'version_extensions', fallback: readonly string[], query?: { staleTime: number }) {
  const supported = useGetSupportedVersions(query && { query });
  return { extensions: supported.data?.data[kind] ?? [...fallback], maxBytes: supported.data?.data.max_upload_bytes };
}
