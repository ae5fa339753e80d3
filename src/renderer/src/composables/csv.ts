/**
 * CSV as spreadsheets read it (RFC 4180: comma-separated, CRLF lines, quoted fields). A
 * field starting with = + - @ or a tab is defused with a leading apostrophe: spreadsheets
 * would run it as a formula (CSV injection), and a person's name or message is theirs to
 * choose. A field is quoted when it holds a comma, a quote or a line break, and also a
 * semicolon or a tab: where the locale's list separator is `;` (much of Europe) a
 * spreadsheet splits unquoted fields there, and `Ann;=HYPERLINK(…)` would become a cell
 * that starts with `=`.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",;\t\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/** A header and rows as one CSV text. */
export function toCsv(head: string[], rows: string[][]): string {
  return [head, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n'
}
