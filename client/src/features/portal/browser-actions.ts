/** Saves content as a file through the browser's download (a Blob behind an object URL). */
export function saveFile(content: BlobPart, fileName: string, type = 'text/plain;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked a moment later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Copies text to the clipboard; rejects with the browser's reason when it cannot (no fake 'Copied'). */
export async function copyText(text: string): Promise<void> {
  if (!navigator.clipboard?.writeText) throw new Error('The clipboard is not available in this browser');
  await navigator.clipboard.writeText(text);
}
