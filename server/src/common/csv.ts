/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. A text
 * starting with =, +, -, @, tab or carriage return, also after spaces or line breaks (which spreadsheets
 * skip), gets a leading apostrophe, so it shows as text instead of running as a formula (OWASP CSV injection).
 */
const FORMULA_START = /^(\s*[=+\-@]|[\t\r])/;

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = value instanceof Date ? value.toISOString() : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
