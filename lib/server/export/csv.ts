// CSV out: csv-stringify writes the quoting, and its `escape_formulas` puts a ' before any text cell a
// spreadsheet would run as a formula (=, +, -, @, tab, carriage return): imported instructions and
// people's e-mails reach these files. This is the one place the studio writes CSV.
import { stringify } from "csv-stringify/sync";

/**
 * Cells csv-stringify must quote beyond its own rule: it quotes a delimiter, a quote and the record delimiter
 * (LF), but not a carriage return, which spreadsheets and RFC 4180 readers take as a line break too.
 */
const NEEDS_QUOTES = /[\r\n",]/;

/**
 * A table as CSV text: a byte-order mark (so a spreadsheet reads UTF-8, and Chinese text is not
 * mangled), the header row, then the rows; numbers as JavaScript writes them, null as an empty cell. A cell holding
 * CR, LF, a quote or a comma is quoted, so every reader gets the same rows back.
 */
export function toCsv(columns: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  return stringify([columns, ...rows] as (string | number | null)[][], {
    bom: true,
    escape_formulas: true,
    record_delimiter: "unix",
    quoted_match: NEEDS_QUOTES,
  });
}
