/**
 * A CSV cell: quoted when it holds a separator, a quote or a line break; a value that a spreadsheet would run as a
 * formula (starting with = + - @, or a tab or carriage return before one) gets a leading apostrophe, so it is text.
 */
export function csvCell(value: unknown): string {
  let text = value == null ? '' : typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows of cells as a CSV file: lines ending in CRLF (RFC 4180), the last one too. */
export function csvFile(rows: readonly (readonly unknown[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
