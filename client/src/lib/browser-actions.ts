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

/**
 * Lets the browser download a URL itself, streamed to disk and never buffered in JavaScript (a link click; the
 * server's Content-Disposition names the file when the URL is on another origin).
 */
export function startDownload(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/**
 * Copies text that is still being fetched. Where the browser can, the clipboard write starts inside the click, so
 * browsers that demand the user's gesture (Safari) accept it; elsewhere the text is copied when it arrives.
 * Rejects with the fetch's error when the text never comes, else with the browser's reason.
 */
export async function copyTextWhenReady(text: Promise<string>): Promise<void> {
  if (typeof ClipboardItem === 'undefined' || !navigator.clipboard?.write) return copyText(await text);
  const written = navigator.clipboard.write([
    new ClipboardItem({ 'text/plain': text.then((value) => new Blob([value], { type: 'text/plain' })) }),
  ]);
  try {
    await text;
  } catch (error) {
    written.catch(() => undefined);
    throw error;
  }
  await written;
}
