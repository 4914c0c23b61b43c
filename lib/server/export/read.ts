// The export's step reads through the database driver (better-sqlite3 or pg), rows as plain arrays:
// Prisma's per-row work was most of the cost of reading an export's pages. Only text and integer
// columns are read here (no dates, whose encoding is Prisma's business), so both dialects give the
// same values.
import Database from "better-sqlite3";
import { dialectOf, sqlitePath } from "../env";
import { urlOf, type Db } from "../db";
import type { Step } from "../generated/sqlite/client";

/** A stored step as the export reads it: the Step row's stored columns and its screenshot's size and type. */
export type ExportStepRow = Pick<
  Step,
  | "id"
  | "index"
  | "screenshotSha"
  | "originalJson"
  | "thoughtState"
  | "thoughtNext"
  | "thoughtPurpose"
  | "thought"
  | "clearAction"
  | "toolCallJson"
  | "boxJson"
  | "candidateBoxJson"
  | "verdict"
  | "version"
  | "provenanceJson"
> & { screenshot: { sha256: string; width: number; height: number; mime: string } };

export interface StepReader {
  /** The steps of these trajectories, by trajectory id, each in step order. */
  stepsOf(trajectoryIds: readonly string[]): Promise<Map<string, ExportStepRow[]>>;
  close(): Promise<void>;
}

const COLUMNS = `s."trajectoryId", s."id", s."index", s."screenshotSha", s."originalJson", s."thoughtState", s."thoughtNext",
  s."thoughtPurpose", s."thought", s."clearAction", s."toolCallJson", s."boxJson", s."candidateBoxJson", s."verdict", s."version",
  s."provenanceJson", sc."width", sc."height", sc."mime"`;
const FROM = `FROM "Step" s JOIN "Screenshot" sc ON sc."sha256" = s."screenshotSha"`;
const ORDER = `ORDER BY s."trajectoryId", s."index"`;

type Row = [
  string,
  string,
  number,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string | null,
  string,
  string,
  number,
  string | null,
  number,
  number,
  string,
];

function byTrajectory(rows: Row[]): Map<string, ExportStepRow[]> {
  const out = new Map<string, ExportStepRow[]>();
  let list: ExportStepRow[] | undefined;
  let current: string | undefined;
  for (const r of rows) {
    if (r[0] !== current) {
      current = r[0];
      out.set(current, (list = []));
    }
    list!.push({
      id: r[1],
      index: Number(r[2]),
      screenshotSha: r[3],
      originalJson: r[4],
      thoughtState: r[5],
      thoughtNext: r[6],
      thoughtPurpose: r[7],
      thought: r[8],
      clearAction: r[9],
      toolCallJson: r[10],
      boxJson: r[11],
      candidateBoxJson: r[12],
      verdict: r[13],
      version: Number(r[14]),
      provenanceJson: r[15],
      screenshot: { sha256: r[3], width: Number(r[16]), height: Number(r[17]), mime: r[18] },
    });
  }
  return out;
}

/** A reader on a connection of its own to `db`'s database; close() it when done. */
export async function openStepReader(db: Db): Promise<StepReader> {
  const url = urlOf(db);
  if (dialectOf(url) === "sqlite") {
    // Plain reads in autocommit, as the studio's own reader connection makes them (see db-sqlite.ts).
    // Opened for reading and writing (a read-only connection cannot always join a WAL database), then barred from writing.
    const conn = new Database(sqlitePath(url), { timeout: 5_000 });
    conn.pragma("query_only = ON");
    const select = conn.prepare(`SELECT ${COLUMNS} ${FROM} WHERE s."trajectoryId" IN (SELECT value FROM json_each(?)) ${ORDER}`).raw(true);
    return {
      async stepsOf(ids) {
        return ids.length === 0 ? new Map() : byTrajectory(select.all(JSON.stringify(ids)) as Row[]);
      },
      async close() {
        conn.close();
      },
    };
  }
  // The driver is loaded only for a PostgreSQL studio (a SQLite studio's export never parses it).
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const text = `SELECT ${COLUMNS} ${FROM} WHERE s."trajectoryId" = ANY($1::text[]) ${ORDER}`;
  return {
    async stepsOf(ids) {
      if (ids.length === 0) return new Map();
      const r = await client.query<Row>({ name: "export-steps", text, values: [ids], rowMode: "array" });
      return byTrajectory(r.rows);
    },
    async close() {
      await client.end();
    },
  };
}
