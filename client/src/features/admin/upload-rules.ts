/** What the server takes for distribution files (admin spec section 5), used until its own list has loaded. */
export const DISTRIBUTION_EXTENSIONS = ['.exe', '.dmg', '.pkg', '.tar.gz', '.zip', '.deb', '.rpm'] as const;

/** The allowed extension a file name ends with, or null (case-insensitive; a bare extension is no name). */
export function allowedExtension(name: string, allowed: readonly string[]): string | null {
  const lower = name.toLowerCase();
  const match = [...allowed].sort((a, b) => b.length - a.length).find((ext) => lower.endsWith(ext));
  return match && lower.length > match.length ? match : null;
}
