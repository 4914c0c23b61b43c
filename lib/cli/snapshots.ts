// `studio eval-set ...` and `studio release ...`: frozen evaluation sets and dataset releases from the
// command line (lib/server/export/snapshots.ts, release-diff.ts), as the CLI actor. Loaded only when one of them runs.
import { parseArgs } from "node:util";
import path from "node:path";
import type { CutAccount, ReleaseDiff, SnapshotItem } from "@/lib/domain/snapshots";
import type { AuditActor } from "@/lib/server/people";

type Io = { out: (s: string) => void; err: (s: string) => void };
type Core = () => Promise<{ migrate: () => Promise<unknown>; CLI_ACTOR: AuditActor }>;

export const SNAPSHOT_HELP = `  npm run studio -- eval-set freeze --name <n> [--status approved|submitted|all] [--app <a>]... [--project <p>]
                             [--id <trajectory id>]... [--held-out]
      freeze the matching trajectories (approved by default) as the next version of evaluation set <n>;
      later edits do not change a frozen version (freeze again for a new one)
  npm run studio -- eval-set list [--json] | eval-set show <n> [--version <v>] [--json]
  npm run studio -- eval-set held-out <n> --version <v> on|off
      a held-out set's trajectories are marked in exports; the bridge's training commands refuse them
  npm run studio -- release cut --name <n> [--status approved|submitted|all] [--app <a>]... [--lane full|fast|fast-then-full]...
                             [--project <p>] [--include-held-out] [--drop-near-duplicates] [--license <spdx>]
      an immutable, numbered snapshot of the matching work (held-out evaluation sets left out unless asked);
      --lane keeps only work last handed in through that lane; --drop-near-duplicates keeps only the keeper
      of each group of near-duplicate trajectories (same instruction, actions and screens); --license names the
      data's licence (an SPDX id such as CC-BY-4.0) for the dataset card the bridge's --shards writes
  npm run studio -- release list [--json] | release export <number> --out <dir> | release diff <a> <b> [--json]
      export writes the same bytes every time; diff lists trajectories added, removed and changed per step and field
`;

const filterOptions = {
  name: { type: "string" },
  status: { type: "string", default: "approved" },
  app: { type: "string", multiple: true },
  project: { type: "string" },
  json: { type: "boolean", default: false },
} as const;

/** What a cut left out and why, before and after, one reason a line (only the reasons that left something out). */
export function leftOutLines(a: CutAccount): string {
  const reasons = [
    [a.status, "of another status"],
    [a.app, "of another app"],
    [a.lane, "handed in through another lane"],
    [a.heldOut, `held out for evaluation sets (${a.heldOutSets.join(", ")})`],
    [a.nearDuplicate, "near-duplicates dropped (one kept per group)"],
  ] as const;
  const left = reasons.filter(([n]) => n > 0).map(([n, why]) => `  left out: ${n} ${why}\n`);
  return `  before: ${a.before} trajectories in scope; after: ${a.after} in the release\n${left.join("") || "  left out: nothing\n"}`;
}

function line(s: SnapshotItem): string {
  const label = s.kind === "release" ? `release ${s.number} ${s.name}` : `${s.name} v${s.number}`;
  const held = s.heldOut ? " held-out" : "";
  return `${label}${held}: ${s.trajectories} trajectories, ${s.steps} steps, cut by ${s.createdBy} at ${s.createdAt}, sha256 ${s.contentSha256}\n`;
}

function positiveNumber(what: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new CliUsage(`${what} must be a positive whole number, got "${value ?? ""}"`);
  return n;
}

/** A mistake in the command line: printed with the help, exit 2. */
export class CliUsage extends Error {}

/** `studio eval-set <sub> ...` */
export async function runEvalSet(args: string[], io: Io, core: Core): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      ...filterOptions,
      id: { type: "string", multiple: true },
      "held-out": { type: "boolean", default: false },
      version: { type: "string" },
    },
  });
  const { migrate, CLI_ACTOR } = await core();
  await migrate();
  const snapshots = await import("@/lib/server/export/snapshots");
  const { db } = await import("@/lib/server/db");
  switch (sub) {
    case "freeze": {
      if (!values.name) throw new CliUsage("eval-set freeze needs --name <n>");
      const s = await snapshots.freezeEvalSet({
        caller: CLI_ACTOR,
        name: values.name,
        status: values.status as "approved",
        apps: values.app ?? [],
        project: values.project,
        ids: values.id,
        heldOut: values["held-out"],
      });
      io.out(values.json ? `${JSON.stringify(s)}\n` : line(s) + (s.leftOut ? leftOutLines(s.leftOut) : ""));
      return 0;
    }
    case "list": {
      const list = await snapshots.listSnapshots({ caller: CLI_ACTOR, kind: "eval-set" });
      io.out(values.json ? `${JSON.stringify(list)}\n` : list.map(line).join("") || "no evaluation sets\n");
      return 0;
    }
    case "show": {
      const name = positionals[0];
      if (!name) throw new CliUsage("eval-set show needs a set name");
      const row = await snapshots.findEvalSet(db(), name, values.version ? positiveNumber("--version", values.version) : undefined);
      const shown = await snapshots.showSnapshot({ caller: CLI_ACTOR, id: row.id });
      if (values.json) io.out(`${JSON.stringify(shown)}\n`);
      else {
        io.out(line(shown.snapshot));
        for (const m of shown.members) io.out(`  ${m.trajectoryId} v${m.version} ${m.app}: ${m.instruction} (${m.steps} steps)\n`);
      }
      return 0;
    }
    case "held-out": {
      const name = positionals[0];
      const onOff = positionals[1];
      if (!name || (onOff !== "on" && onOff !== "off")) throw new CliUsage("eval-set held-out needs <name> --version <v> on|off");
      const row = await snapshots.findEvalSet(db(), name, positiveNumber("--version", values.version));
      io.out(line(await snapshots.setHeldOut({ caller: CLI_ACTOR, id: row.id, heldOut: onOff === "on" })));
      return 0;
    }
    default:
      throw new CliUsage(`unknown eval-set command "${sub ?? ""}"`);
  }
}

/** `studio release <sub> ...` */
export async function runRelease(args: string[], io: Io, core: Core): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      ...filterOptions,
      out: { type: "string" },
      lane: { type: "string", multiple: true },
      "include-held-out": { type: "boolean", default: false },
      "drop-near-duplicates": { type: "boolean", default: false },
      license: { type: "string" },
    },
  });
  const { migrate, CLI_ACTOR } = await core();
  await migrate();
  const snapshots = await import("@/lib/server/export/snapshots");
  switch (sub) {
    case "cut": {
      if (!values.name) throw new CliUsage("release cut needs --name <n>");
      const s = await snapshots.cutRelease({
        caller: CLI_ACTOR,
        name: values.name,
        status: values.status as "approved",
        apps: values.app ?? [],
        lanes: (values.lane ?? []) as "full"[],
        project: values.project,
        includeHeldOut: values["include-held-out"],
        dropNearDuplicates: values["drop-near-duplicates"],
        license: values.license,
      });
      io.out(values.json ? `${JSON.stringify(s)}\n` : line(s) + (s.leftOut ? leftOutLines(s.leftOut) : ""));
      return 0;
    }
    case "list": {
      const list = await snapshots.listSnapshots({ caller: CLI_ACTOR, kind: "release" });
      io.out(values.json ? `${JSON.stringify(list)}\n` : list.map(line).join("") || "no releases\n");
      return 0;
    }
    case "export": {
      const number = positiveNumber("the release number", positionals[0]);
      if (!values.out) throw new CliUsage("release export needs --out <dir>");
      const { exportRelease } = await import("@/lib/server/export/release");
      const r = await exportRelease({ caller: CLI_ACTOR, number, outDir: path.resolve(values.out) });
      io.out(
        `exported release ${r.release} (${r.name}): ${r.trajectories} trajectories, ${r.steps} steps, ${r.screenshots} screenshots to ${r.outDir}\n`,
      );
      return 0;
    }
    case "diff": {
      const from = positiveNumber("the first release number", positionals[0]);
      const to = positiveNumber("the second release number", positionals[1]);
      const { diffReleases } = await import("@/lib/server/export/release-diff");
      const diff = await diffReleases({ caller: CLI_ACTOR, from, to });
      io.out(values.json ? `${JSON.stringify(diff)}\n` : formatDiff(diff));
      return 0;
    }
    default:
      throw new CliUsage(`unknown release command "${sub ?? ""}"`);
  }
}

/** The diff as people read it: one line per trajectory, one indented line per changed field with who changed it. */
export function formatDiff(d: ReleaseDiff): string {
  const v = (x: unknown) => (typeof x === "string" ? JSON.stringify(x) : JSON.stringify(x ?? null));
  let s = `release ${d.from} -> ${d.to}: ${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} changed, ${d.unchanged} unchanged\n`;
  for (const t of d.added) s += `+ ${t.id} ${t.app}: ${t.instruction}\n`;
  for (const t of d.removed) s += `- ${t.id} ${t.app}: ${t.instruction}\n`;
  for (const t of d.changed) {
    s += `~ ${t.id} ${t.app}: ${t.instruction} (version ${t.fromVersion} -> ${t.toVersion})\n`;
    for (const f of t.fields) {
      const where = f.step === null ? "trajectory" : `step ${f.step + 1}`;
      const who = f.changedBy.map((c) => `${c.by} at ${c.at}`).join(", ");
      s += `    ${where} ${f.field}: ${v(f.before)} -> ${v(f.after)}${who ? ` (${who})` : ""}\n`;
    }
  }
  return s;
}
