// Staged import rows through `pg`: one INSERT ... SELECT FROM unnest(...) per table and chunk (one
// round trip per table, whatever the number of rows), the chunk in one transaction on a connection
// of the import's own.
import pg from "pg";
import { columnNames, STAGED_SCREENSHOT, STAGED_STEP, STAGED_TRAJECTORY, type BulkWriter, type ColumnType, type Table } from "./rows";

const PG_TYPE: Record<ColumnType, string> = { text: "text[]", int: "int4[]", bool: "bool[]" };

function insertSql<R>(t: Table<R>, onConflictNothing = false): string {
  const cols = columnNames(t);
  return (
    `INSERT INTO "${t.name}" (${cols.map((c) => `"${c}"`).join(", ")}) ` +
    `SELECT * FROM unnest(${cols.map((c, i) => `$${i + 1}::${PG_TYPE[t.columns[c]]}`).join(", ")})` +
    (onConflictNothing ? " ON CONFLICT DO NOTHING" : "")
  );
}

/** The rows as one array per column (unnest's arguments). */
function columnsOf<R>(t: Table<R>, rows: R[]): unknown[][] {
  return columnNames(t).map((c) => rows.map((r) => (r[c] as unknown) ?? null));
}

export async function openPostgresBulkWriter(url: string): Promise<BulkWriter> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const statements = [
    { table: STAGED_SCREENSHOT, sql: insertSql(STAGED_SCREENSHOT, true), name: "staged-screenshots" },
    { table: STAGED_TRAJECTORY, sql: insertSql(STAGED_TRAJECTORY), name: "staged-trajectories" },
    { table: STAGED_STEP, sql: insertSql(STAGED_STEP), name: "staged-steps" },
  ] as const;
  return {
    async write(chunk) {
      const rows = [chunk.screenshots, chunk.trajectories, chunk.steps];
      await client.query("BEGIN");
      try {
        for (const [i, s] of statements.entries()) {
          if (rows[i]!.length === 0) continue;
          await client.query({ name: s.name, text: s.sql, values: columnsOf(s.table as Table<unknown>, rows[i] as unknown[]) });
        }
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK").catch(() => {});
        throw e;
      }
    },
    async close() {
      await client.end();
    },
  };
}
