// `studio eval ...`: evaluation endpoints and runs from the command line (lib/server/eval/index.ts), as the CLI
// actor. A run started here runs in this process (the same job kind the web page starts), prints its progress
// to stderr and its figures to stdout, and writes the predictions file `bridge score` reads.
import { copyFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { isPercentFigure, type EvalCompare, type EvalFigures, type EvalRunView } from "@/lib/domain/eval";
import type { AuditActor } from "@/lib/server/people";
import { CliUsage } from "./snapshots";

type Io = { out: (s: string) => void; err: (s: string) => void };
type Core = () => Promise<{ migrate: () => Promise<unknown>; CLI_ACTOR: AuditActor }>;

export const EVAL_HELP = `  npm run studio -- eval endpoint save --name <n> --url <base url> --model <served model name>
                             [--coords qwen25-abs|qwen3-rel1000] [--concurrency <n>] [--timeout-ms <ms>] [--key-env <VAR>]
      save (or replace) an evaluation endpoint: an OpenAI-compatible server (vLLM --served-model-name) and the
      frame its answers are in; --key-env names an environment variable holding its API key
  npm run studio -- eval endpoint list [--json]
  npm run studio -- eval run --set <name> [--version <v>] --endpoint <name> [--rule ui-s1|mobile-r1|studio-lenient]
                             [--predictions <file>] [--export <dir>] [--json]
      ask the endpoint every kept step of the set, teacher-forced; progress on stderr, figures on stdout;
      --predictions copies the predictions file there, --export writes the set as the export folder that
      \`bridge score <dir> --predictions <file> --rule <rule> --max-pixels <n>\` reads (the same figures)
  npm run studio -- eval list [--json] | eval show <run id> [--json] | eval compare <run a> <run b> [--json]
      compare: two runs on the same set version, each figure with its difference and the steps that changed,
      regressions first
`;

const pct = (x: number | null) => (x === null ? "n/a" : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));

/** A run's figures as people read them (the same figures the run page shows). */
export function formatFigures(r: EvalRunView): string {
  const head = `run ${r.id}: ${r.endpoint.name} (${r.endpoint.model}, ${r.endpoint.coords}) on ${r.set.name} v${r.set.version}, rule ${r.rule}, ${r.state}, ${r.progress.done}/${r.progress.total} steps, tokens ${r.tokens.prompt} prompt + ${r.tokens.completion} completion\n`;
  const f: EvalFigures | null = r.figures;
  if (!f) return `${head}${r.error ? `error: ${r.error}\n` : ""}`;
  const rate = (name: string, x: EvalFigures["accuracy"]) =>
    `  ${name.padEnd(16)} n=${String(x.steps).padEnd(5)} type ${pct(x.typeAccuracy)}  step ${pct(x.stepAccuracy)}  grounding ${pct(x.groundingAccuracy)} of ${x.groundingSteps}`;
  const sop = (s: EvalFigures["sop"]) =>
    `SOP ${s.successRate === null ? "n/a" : `${s.successRate.toFixed(1)}%`} progress ${num(s.progress)} over ${s.trajectories}`;
  const lines = [
    head.trimEnd(),
    `accuracy (${f.accuracy.steps} non-harmful steps): type ${pct(f.accuracy.typeAccuracy)}  step ${pct(f.accuracy.stepAccuracy)}  grounding ${pct(f.accuracy.groundingAccuracy)} of ${f.accuracy.groundingSteps}`,
    `${sop(f.sop)} trajectories (${f.sop.definition === "eval_qwenvl" ? "UI-S1 eval_qwenvl.py" : "studio, training-target steps"})`,
    `per action (ground truth):`,
    ...Object.entries(f.perAction).map(([a, x]) => rate(a, x)),
    `per app:`,
    ...Object.entries(f.perApp).map(([a, x]) => `${rate(a, x)}  ${sop(x.sop)}`),
    `failures: ${Object.entries(f.failures)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
    `harmful steps: ${f.harmful.steps}, repeated by the model: ${f.harmful.repeated}`,
  ];
  return `${lines.join("\n")}\n`;
}

/** A comparison as people read it: each figure a -> b (difference), then the changed steps, regressions first. */
export function formatCompare(c: EvalCompare): string {
  const show = (figure: string, x: number | null) => (x === null ? "n/a" : isPercentFigure(figure) ? `${x.toFixed(1)}%` : pct(x));
  const delta = (points: number | null) => (points === null ? "" : ` (${points >= 0 ? "+" : ""}${points.toFixed(1)} points)`);
  const lines = [
    `a: run ${c.a.id} ${c.a.endpoint.name}   b: run ${c.b.id} ${c.b.endpoint.name}   on ${c.a.set.name} v${c.a.set.version}`,
    ...c.figures.map((f) => `  ${f.figure.padEnd(32)} ${show(f.figure, f.a)} -> ${show(f.figure, f.b)}${delta(f.points)}`),
    `steps b gets wrong that a got right: ${c.steps.filter((s) => s.regression).length}; right that a got wrong: ${c.steps.filter((s) => !s.regression).length}`,
    ...c.steps.map((s) => `  ${s.regression ? "regression " : "fixed      "} ${s.trajectoryId} step ${s.step + 1} ${s.app} ${s.action}`),
  ];
  return `${lines.join("\n")}\n`;
}

function positiveNumber(what: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new CliUsage(`${what} must be a positive whole number, got "${value ?? ""}"`);
  return n;
}

/** `studio eval <sub> ...` */
export async function runEval(args: string[], io: Io, core: Core): Promise<number> {
  const [sub, ...more] = args;
  const endpointSub = sub === "endpoint" ? more[0] : undefined;
  const rest = sub === "endpoint" ? more.slice(1) : more;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      url: { type: "string" },
      model: { type: "string" },
      coords: { type: "string" },
      concurrency: { type: "string" },
      "timeout-ms": { type: "string" },
      "key-env": { type: "string" },
      set: { type: "string" },
      version: { type: "string" },
      endpoint: { type: "string" },
      rule: { type: "string", default: "ui-s1" },
      predictions: { type: "string" },
      export: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const { migrate, CLI_ACTOR } = await core();
  await migrate();
  const evals = await import("@/lib/server/eval");
  const caller = CLI_ACTOR;
  if (sub === "endpoint") {
    if (endpointSub === "list") {
      const list = await evals.listEvalEndpoints({ caller });
      io.out(
        values.json
          ? `${JSON.stringify(list)}\n`
          : list
              .map((e) => `${e.name}: ${e.model} at ${e.baseUrl} (${e.coords}, concurrency ${e.concurrency}${e.hasKey ? ", key" : ""})\n`)
              .join("") || "no evaluation endpoints\n",
      );
      return 0;
    }
    if (endpointSub !== "save") throw new CliUsage(`unknown eval endpoint command "${endpointSub ?? ""}"`);
    if (!values.name || !values.url || !values.model) throw new CliUsage("eval endpoint save needs --name, --url and --model");
    const key = values["key-env"] ? process.env[values["key-env"]] : undefined;
    if (values["key-env"] && !key) throw new CliUsage(`the environment variable ${values["key-env"]} is not set`);
    const e = await evals.saveEvalEndpoint({
      caller,
      name: values.name,
      baseUrl: values.url,
      model: values.model,
      ...(key ? { apiKey: key } : {}),
      ...(values.coords ? { coords: values.coords as "qwen25-abs" } : {}),
      ...(values.concurrency ? { concurrency: positiveNumber("--concurrency", values.concurrency) } : {}),
      ...(values["timeout-ms"] ? { timeoutMs: positiveNumber("--timeout-ms", values["timeout-ms"]) } : {}),
    });
    io.out(values.json ? `${JSON.stringify(e)}\n` : `saved endpoint ${e.name}: ${e.model} at ${e.baseUrl} (${e.coords})\n`);
    return 0;
  }
  switch (sub) {
    case "run": {
      if (!values.set || !values.endpoint) throw new CliUsage("eval run needs --set <name> and --endpoint <name>");
      const started = await evals.startEvalRun({
        caller,
        set: values.set,
        ...(values.version ? { version: positiveNumber("--version", values.version) } : {}),
        endpoint: values.endpoint,
        rule: values.rule as "ui-s1",
      });
      io.err(
        `run ${started.id}: ${started.progress.total} steps of ${started.set.name} v${started.set.version} to ${started.endpoint.name}\n`,
      );
      const timer = setInterval(() => {
        void evals
          .getEvalRun({ caller, id: started.id })
          .then((r) => io.err(`\r${r.progress.done}/${r.progress.total} steps answered`))
          .catch(() => undefined);
      }, 1_000);
      try {
        await evals.waitForEvalRun(started.id);
      } finally {
        clearInterval(timer);
      }
      const run = await evals.getEvalRun({ caller, id: started.id });
      io.err(`\r${run.progress.done}/${run.progress.total} steps answered\n`);
      if (run.state === "succeeded") {
        const file = evals.predictionsPath(run.id);
        if (values.predictions) await copyFile(file, path.resolve(values.predictions));
        const predictions = values.predictions ? path.resolve(values.predictions) : file;
        if (values.export) {
          const { exportEvalSet } = await import("@/lib/server/export/release");
          const out = await exportEvalSet({ caller, name: run.set.name, version: run.set.version, outDir: path.resolve(values.export) });
          io.err(`wrote the set's export folder ${out.outDir}\n`);
        }
        io.err(
          `predictions: ${predictions}\nthe same figures: npm run bridge -- score ${values.export ? path.resolve(values.export) : "<the set's export folder>"} --predictions ${predictions} --rule ${run.rule} --max-pixels ${run.maxPixels}${run.endpoint.coords === "qwen25-abs" ? "" : ` --coords ${run.endpoint.coords}`}\n`,
        );
      }
      io.out(values.json ? `${JSON.stringify(run)}\n` : formatFigures(run));
      return run.state === "succeeded" ? 0 : 1;
    }
    case "list": {
      const list = await evals.listEvalRuns({ caller });
      io.out(
        values.json
          ? `${JSON.stringify(list)}\n`
          : list
              .map(
                (r) =>
                  `${r.id} ${r.endpoint.name} on ${r.set.name} v${r.set.version} (${r.rule}) ${r.state}${r.figures ? `: step ${pct(r.figures.accuracy.stepAccuracy)}, SOP ${r.figures.sop.successRate?.toFixed(1) ?? "n/a"}%` : ""}\n`,
              )
              .join("") || "no evaluation runs\n",
      );
      return 0;
    }
    case "show": {
      const id = positionals[0];
      if (!id) throw new CliUsage("eval show needs a run id");
      const run = await evals.getEvalRun({ caller, id });
      io.out(values.json ? `${JSON.stringify(run)}\n` : formatFigures(run));
      return 0;
    }
    case "compare": {
      const [a, b] = positionals;
      if (!a || !b) throw new CliUsage("eval compare needs two run ids");
      const c = await evals.compareEvalRuns({ caller, a, b });
      io.out(values.json ? `${JSON.stringify(c)}\n` : formatCompare(c));
      return 0;
    }
    default:
      throw new CliUsage(`unknown eval command "${sub ?? ""}"`);
  }
}
