// CSV lines as spreadsheets and the ad platforms read them.

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. A field that
 * a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) gets a leading `'`. */
export function csvLine(fields: unknown[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
