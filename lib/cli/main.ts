// The studio's command line: `npm run studio -- <command> [options]`.
// DATABASE_URL and STUDIO_DATA_DIR choose the database and the screenshot store.
import { parseArgs } from "node:util";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import type { ImportFormat } from "@/lib/domain/import-formats";
import type { OtherProjectChoice } from "@/lib/domain/imports";
import type { Role } from "@/lib/domain/permissions";
import type { ImportProgress } from "@/lib/server/import";
import type { ExportStatus } from "@/lib/server/export";
import { env, parseEnv } from "@/lib/server/env";
import { SNAPSHOT_HELP } from "./snapshots";
import { EVAL_HELP } from "./eval";

// Each command imports the modules it needs when it runs, never at the top of this file: `studio --help`
// then loads nothing more than this file, `studio bridge ...` never loads Prisma, the database drivers
// or the AWS SDK, and the compiled entry (scripts/studio.mjs) keeps them in chunks of their own.
let databaseOpened = false;

// Prisma's query compiler is a 3.3 MB WebAssembly module. By default V8 compiles it twice: quickly
// (Liftoff), then again optimised (TurboFan) on background threads, and node's exit waits for those
// threads. That second compile was 0.8 s of CPU and up to 1.5 s of waiting at the end of every command
// that opens the database. A command line runs each distinct query through the compiler once (Prisma
// caches the plans), so the baseline code is all it needs. Set before any WebAssembly is compiled.
setFlagsFromString("--liftoff-only");
/** The server modules every database command uses; marks the database client for closing at the end. */
async function serverCore() {
  databaseOpened = true;
  const [{ migrate }, { CLI_ACTOR }] = await Promise.all([import("@/lib/server/db/migrate"), import("@/lib/server/people/audit")]);
  return { migrate, CLI_ACTOR };
}

/**
 * The studio's counts for `studio stats`. On SQLite straight from the file (stats-direct.ts): no Prisma client
 * is loaded, which was most of the command's start. On PostgreSQL through getStats, as the dashboard reads them.
 */
async function readStats() {
  const [{ migrate }, { databaseUrl, dialectOf, sqlitePath }] = await Promise.all([
    import("@/lib/server/db/migrate"),
    import("@/lib/server/env"),
  ]);
  await migrate();
  const url = databaseUrl();
  if (dialectOf(url) === "sqlite") return (await import("@/lib/server/fast/stats-direct")).sqliteStats(sqlitePath(url));
  const { CLI_ACTOR } = await serverCore();
  const { getStats } = await import("@/lib/server/annotate/trajectory-list");
  return getStats({ actor: CLI_ACTOR });
}

const HELP = `Trajectory Studio command line

  npm run studio -- migrate
      apply pending database migrations
  npm run studio -- import <file.jsonl> --format mobile-r1|ui-s1|studio
                           [--screenshots <dir>] [--project <name>] [--frame original|resized[:<max_pixels>]|rel1000]
                           [--on-duplicate ask|import|skip]
      import trajectories as one all-or-nothing batch; screenshots are found by file name in <dir>
      (default: images/ beside the file); --frame says which pixels the file's coordinates are in
      (rel1000: 0..1000 relative to the screenshot, as Qwen3-VL and GUI-Owl 1.5 write them);
      --on-duplicate: what to do with trajectories already in ANOTHER project (same app, instruction,
      screenshots and model output): ask (default; in a terminal it asks, otherwise it imports nothing
      and says how many are where), import them as copies, or skip them. The same data in the
      project itself is always skipped.
  npm run studio -- export --out <dir> [--status approved|submitted|all] [--app <name>]... [--project <name>]
                           [--split random:<seed>:<ratios>|by-app:<held-out apps>]
      write a versioned dataset folder (manifest, canonical JSONL, screenshots, Mobile-R1 data.jsonl)
  npm run studio -- users add --email <e> --role admin|reviewer|annotator [--password <p>] [--name <n>]
  npm run studio -- users list | users disable <email> | users enable <email> | users reset-password <email>
      people and roles (a generated password is printed once)
  npm run studio -- tokens create --user <email> [--name <n>] | tokens list [--user <email>] | tokens revoke <id>
      API tokens for automation, sent as "Authorization: Bearer <token>" (printed once, stored hashed)
  STUDIO_OLD_SECRET=<previous BETTER_AUTH_SECRET> npm run studio -- model rekey
      after changing BETTER_AUTH_SECRET: encrypt the saved model API key again under the new secret
  npm run studio -- setup-demo
      migrate, and load the demo data into an empty database
  npm run studio -- stats [--json]
      counts of trajectories, steps, apps and statuses
  npm run studio -- demo-data <out-dir> [--trajectories <n>] [--seed <n>]
      write a synthetic Mobile-R1-format dataset (data.jsonl + images/)
${SNAPSHOT_HELP}${EVAL_HELP}  npm run studio -- bridge <command> <export-dir> --out <dir> [options]
      trainer formats, rewards and evaluation (see: npm run studio -- bridge --help)
`;

type Io = { out: (s: string) => void; err: (s: string) => void };
const io: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // Every variable is checked before any command runs: a bad value stops here, naming the variable.
  if (command && !["help", "--help", "-h"].includes(command)) {
    try {
      parseEnv();
    } catch (e) {
      io.err(`${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
  }
  switch (command) {
    case "migrate": {
      const { migrate } = await serverCore();
      const r = await migrate();
      io.out(r.applied.length ? `applied ${r.applied.join(", ")}\n` : `database is up to date (${r.alreadyApplied} migrations)\n`);
      return 0;
    }
    case "import":
      return runImport(rest);
    case "export":
      return runExport(rest);
    case "users":
      return runUsers(rest);
    case "tokens":
      return runTokens(rest);
    case "model": {
      if (rest[0] !== "rekey") return usage(`unknown model command "${rest[0] ?? ""}"`);
      // The old secret comes from the environment, never the command line (it would show in the process list).
      const old = process.env.STUDIO_OLD_SECRET;
      if (!old) return usage("model rekey needs STUDIO_OLD_SECRET (the previous BETTER_AUTH_SECRET) in the environment");
      const { migrate } = await serverCore();
      await migrate();
      const { rekeyModelSettings } = await import("@/lib/server/model");
      const r = await rekeyModelSettings(old);
      const said = {
        rekeyed: "the saved model key is now encrypted under the current secret",
        current: "the saved model key already opens with the current secret; nothing to do",
        "no-key": "no model key is saved; nothing to do",
        unreadable: "the saved model key opens with neither secret: enter it again on the Model page",
      }[r];
      (r === "unreadable" ? io.err : io.out)(`${said}\n`);
      return r === "unreadable" ? 1 : 0;
    }
    case "setup-demo": {
      const { migrate, CLI_ACTOR } = await serverCore();
      const r = await migrate();
      if (r.applied.length) io.out(`applied migrations: ${r.applied.join(", ")}\n`);
      const { seedDemo, DEMO_ACCOUNTS } = await import("@/lib/server/startup/seed");
      await seedDemo({ log: (s) => progress(s), trajectories: env().STUDIO_DEMO_TRAJECTORIES ?? 60 });
      io.err("\n");
      const { getStats } = await import("@/lib/server/annotate/trajectory-list");
      const stats = await getStats({ actor: CLI_ACTOR });
      io.out(`studio holds ${stats.trajectories} trajectories, ${stats.steps} steps over ${stats.apps} apps\n`);
      io.out(
        `demo accounts (email / password):\n${DEMO_ACCOUNTS.map((a) => `  ${a.role.padEnd(10)} ${a.email} / ${a.password}`).join("\n")}\n`,
      );
      return 0;
    }
    case "stats": {
      const { values } = parseArgs({ args: rest, options: { json: { type: "boolean", default: false } } });
      const stats = await readStats();
      if (values.json) io.out(`${JSON.stringify(stats)}\n`);
      else {
        io.out(`${stats.trajectories} trajectories, ${stats.steps} steps, ${stats.apps} apps, ${stats.screenshots} screenshots\n`);
        io.out(
          `${Object.entries(stats.byStatus)
            .map(([s, n]) => `${s}: ${n}`)
            .join(", ")}\n`,
        );
      }
      return 0;
    }
    case "demo-data": {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { trajectories: { type: "string", default: "60" }, seed: { type: "string", default: "7" } },
      });
      const out = positionals[0];
      if (!out) return usage("demo-data needs an output folder");
      const { generateDemoDataset } = await import("@/lib/demo/generate");
      const r = await generateDemoDataset({
        outDir: path.resolve(out),
        trajectories: Number(values.trajectories),
        seed: Number(values.seed),
        onProgress: (done, total) => progress(`rendering demo trajectories ${done}/${total}`),
      });
      io.err("\n");
      io.out(`wrote ${r.trajectories} trajectories, ${r.steps} steps to ${out}\n`);
      return 0;
    }
    case "bridge": {
      const { runBridge } = await import("@/lib/bridge/cli");
      return runBridge(rest);
    }
    case "eval": {
      const [{ runEval }, { CliUsage }] = await Promise.all([import("./eval"), import("./snapshots")]);
      try {
        return await runEval(rest, io, serverCore);
      } catch (e) {
        if (e instanceof CliUsage) return usage(e.message);
        throw e;
      }
    }
    case "eval-set":
    case "release": {
      const { runEvalSet, runRelease, CliUsage } = await import("./snapshots");
      try {
        return await (command === "eval-set" ? runEvalSet : runRelease)(rest, io, serverCore);
      } catch (e) {
        if (e instanceof CliUsage) return usage(e.message);
        throw e;
      }
    }
    case undefined:
    case "help":
    case "--help":
    case "-h":
      io.out(HELP);
      return 0;
    default:
      return usage(`unknown command "${command}"`);
  }
}

async function runImport(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      format: { type: "string" },
      screenshots: { type: "string" },
      project: { type: "string" },
      frame: { type: "string" },
      "on-duplicate": { type: "string", default: "ask" },
    },
  });
  const file = positionals[0];
  if (!file) return usage("import needs a file");
  const { OTHER_PROJECT_CHOICES } = await import("@/lib/domain/imports");
  const onDuplicate = values["on-duplicate"] as OtherProjectChoice;
  if (!OTHER_PROJECT_CHOICES.includes(onDuplicate)) return usage(`--on-duplicate must be one of ${OTHER_PROJECT_CHOICES.join(", ")}`);
  const { IMPORT_FORMATS, parseFrameOption } = await import("@/lib/domain/import-formats");
  const format = values.format as ImportFormat | undefined;
  if (!format || !IMPORT_FORMATS.includes(format)) return usage(`--format must be one of ${IMPORT_FORMATS.join(", ")}`);
  const frame = parseFrameOption(values.frame);
  const { migrate, CLI_ACTOR } = await serverCore();
  await migrate();
  const [{ runImportJob }, { formatProblem }] = await Promise.all([import("@/lib/server/import/jobs"), import("@/lib/domain/problems")]);
  const started = Date.now();
  // A job row like the web's, so the import page lists command-line imports too (and their failures).
  const importWith = (onOtherProjects: OtherProjectChoice) =>
    runImportJob({
      actor: CLI_ACTOR,
      file: path.resolve(file),
      format,
      screenshotsDir: values.screenshots ? path.resolve(values.screenshots) : undefined,
      project: values.project,
      frame,
      onOtherProjects,
      onProgress: (p: ImportProgress) => progress(`${p.phase} ${p.lines} lines: ${p.trajectories} trajectories, ${p.steps} steps`),
    });
  let result = await importWith(onDuplicate);
  io.err("\n");
  if (!result.ok && result.asked && result.problemCount === 0) {
    const where = result.asked.map((c) => `${c.count} in project "${c.project}"`).join(", ");
    const total = result.asked.reduce((n, c) => n + c.count, 0);
    io.err(`${total} trajectories of ${path.basename(file)} are already in other projects (${where}).\n`);
    const answer = process.stdin.isTTY && process.stderr.isTTY ? await askCopies() : null;
    if (answer === null) {
      io.err(
        process.stdin.isTTY
          ? "nothing was imported\n"
          : "nothing was imported: run again with --on-duplicate import to import them as copies, or --on-duplicate skip to leave them out\n",
      );
      return 1;
    }
    result = await importWith(answer);
    io.err("\n");
  }
  if (!result.ok) {
    const SHOWN = 200;
    for (const p of result.problems.slice(0, SHOWN)) io.err(`${formatProblem(p)}\n`);
    if (result.problemCount > SHOWN) io.err(`... and ${result.problemCount - SHOWN} more problems\n`);
    io.err(`import failed: ${result.problemCount} problem(s); nothing was imported\n`);
    return 1;
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  io.out(
    `imported ${result.trajectories} trajectories, ${result.steps} steps into project "${result.project}" ` +
      `(${result.duplicates} already present, ${result.screenshots} distinct screenshots) in ${secs}s\n`,
  );
  const copies = result.otherProjects.reduce((n, c) => n + c.count, 0);
  if (copies > 0) io.out(`${copies} already in other projects: ${result.onOtherProjects === "skip" ? "skipped" : "imported as copies"}\n`);
  return 0;
}

/** In a terminal: import the copies anyway, skip them, or (anything else) cancel. */
async function askCopies(): Promise<OtherProjectChoice | null> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const a = (await rl.question("[i]mport them anyway, [s]kip those, or [c]ancel? ")).trim().toLowerCase();
    return a === "i" || a === "import" ? "import" : a === "s" || a === "skip" ? "skip" : null;
  } finally {
    rl.close();
  }
}

async function runExport(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      out: { type: "string" },
      status: { type: "string", default: "approved" },
      app: { type: "string", multiple: true },
      project: { type: "string" },
      split: { type: "string" },
    },
  });
  if (!values.out) return usage("export needs --out <dir>");
  const [{ EXPORT_STATUSES }, { parseSplit }] = await Promise.all([import("@/lib/server/export"), import("@/lib/server/export/split")]);
  const status = values.status as ExportStatus;
  if (!EXPORT_STATUSES.includes(status)) return usage(`--status must be one of ${EXPORT_STATUSES.join(", ")}`);
  const split = parseSplit(values.split);
  const { migrate } = await serverCore();
  await migrate();
  const { runCliExport } = await import("@/lib/server/export/jobs");
  const started = Date.now();
  // Recorded as a job (the export page shows it; a killed run is marked failed) after sweeping leftover partial folders.
  const r = await runCliExport({
    outDir: values.out,
    status,
    apps: values.app,
    project: values.project,
    split,
    onProgress: (p) => progress(`exporting ${p.trajectories}/${p.total} trajectories`),
  });
  io.err("\n");
  const splits = Object.entries(r.bySplit)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  io.out(
    `exported ${r.trajectories} trajectories, ${r.steps} steps (${r.trainingSteps} training targets, ${r.harmfulSteps} harmful), ` +
      `${r.screenshots} screenshots${splits ? `; splits: ${splits}` : ""} to ${r.outDir} in ${((Date.now() - started) / 1000).toFixed(1)}s\n`,
  );
  if (r.trajectories === 0)
    io.err(`nothing matched --status ${status}${status === "approved" ? " (nothing approved yet? try --status all)" : ""}\n`);
  return 0;
}

async function runUsers(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { migrate, CLI_ACTOR } = await serverCore();
  await migrate();
  const { createUser, listUsers, resetPassword, updateUser } = await import("@/lib/server/people");
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { email: { type: "string" }, role: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
  });
  switch (sub) {
    case "add": {
      const { person: user, password } = await createUser({
        actor: CLI_ACTOR,
        email: values.email ?? "",
        role: values.role as Role,
        password: values.password,
        name: values.name,
      });
      io.out(`created ${user.email} (${user.role})${values.password ? "" : ` with password ${password}`}\n`);
      return 0;
    }
    case "list":
      for (const u of await listUsers({ actor: CLI_ACTOR }))
        io.out(`${u.email.padEnd(32)} ${u.role.padEnd(10)} ${u.isDisabled ? "disabled" : "active"}\n`);
      return 0;
    case "disable":
    case "enable": {
      const who = positionals[0] ?? values.email;
      if (!who) return usage(`users ${sub} needs an email`);
      const u = await updateUser({ actor: CLI_ACTOR, id: who, isDisabled: sub === "disable" });
      io.out(`${u.email} is ${u.isDisabled ? "disabled (signed out, tokens revoked)" : "active"}\n`);
      return 0;
    }
    case "reset-password": {
      const who = positionals[0] ?? values.email;
      if (!who) return usage("users reset-password needs an email");
      const password = await resetPassword({ actor: CLI_ACTOR, id: who, password: values.password });
      io.out(`new password for ${who}: ${password}\n`);
      return 0;
    }
    default:
      return usage(`unknown users command "${sub ?? ""}"`);
  }
}

async function runTokens(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { migrate, CLI_ACTOR } = await serverCore();
  await migrate();
  const [{ listUsers }, { createToken, listTokens, revokeToken }] = await Promise.all([
    import("@/lib/server/people"),
    import("@/lib/server/people/tokens"),
  ]);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { user: { type: "string" }, name: { type: "string" } },
  });
  switch (sub) {
    case "create": {
      if (!values.user) return usage("tokens create needs --user <email>");
      const t = await createToken({ actor: CLI_ACTOR, user: values.user, name: values.name ?? "cli" });
      io.err(`token "${t.name}" for ${t.userEmail} (id ${t.id}); it is shown only now:\n`);
      io.out(`${t.token}\n`);
      return 0;
    }
    case "list": {
      const user = values.user ? (await listUsers({ actor: CLI_ACTOR })).find((u) => u.email === values.user!.toLowerCase()) : undefined;
      for (const t of await listTokens({ actor: CLI_ACTOR, ...(user ? { userId: user.id } : {}) })) {
        io.out(`${t.id}  ${t.prefix}…  ${t.userEmail.padEnd(28)} ${t.name.padEnd(16)} ${t.revokedAt ? "revoked" : "active"}\n`);
      }
      return 0;
    }
    case "revoke": {
      if (!positionals[0]) return usage("tokens revoke needs a token id");
      await revokeToken({ actor: CLI_ACTOR, id: positionals[0] });
      io.out(`revoked ${positionals[0]}\n`);
      return 0;
    }
    default:
      return usage(`unknown tokens command "${sub ?? ""}"`);
  }
}

let lastProgress = 0;
function progress(line: string) {
  const now = Date.now();
  if (now - lastProgress < 200) return;
  lastProgress = now;
  io.err(`\r${line}`.padEnd(80));
}

function usage(message: string): number {
  io.err(`${message}\n\n${HELP}`);
  return 2;
}

main(process.argv.slice(2))
  .then(async (code) => {
    if (databaseOpened) await (await import("@/lib/server/db")).db().$disconnect();
    process.exit(code);
  })
  .catch(async (e: unknown) => {
    const { ZodError } = await import("zod");
    if (e instanceof ZodError) io.err(`${e.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("\n")}\n`);
    else io.err(`\n${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
