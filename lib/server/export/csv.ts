// CSV out: csv-stringify writes the quoting, and its `escape_formulas` puts a ' before any text cell a
// spreadsheet would run as a formula (=, +, -, @, tab, carriage return): imported instructions and
// people's e-mails reach these files.
import { stringify } from "csv-stringify/sync";

/**
 * A table as CSV text: a byte-order mark (so a spreadsheet reads UTF-8, and Chinese text is not
 * mangled), the header row, then the rows; numbers as JavaScript writes them, null as an empty cell.
 */
export function toCsv(columns: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  return stringify([columns, ...rows] as (string | number | null)[][], { bom: true, escape_formulas: true, record_delimiter: "unix" });
}
