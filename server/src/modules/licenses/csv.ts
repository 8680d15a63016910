/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. A text
 * starting with =, +, -, @, tab or carriage return gets a leading apostrophe, so a spreadsheet shows it
 * as text instead of running it as a formula (OWASP CSV injection).
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = value instanceof Date ? value.toISOString() : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
