import { openExport } from "./export-reader";
import { RunLog, type BridgeIo } from "./output";
import { estimateTextTokens, imageTokens as imageTokensOf, promptTokens, TEMPLATE_TOKENS } from "@/lib/domain/trainer-hints";
import { assistantTarget, exportActionSpace, promptMessages, walkSamples, type FrameOptions } from "./samples";

type Dist = { values: number[] };
function describe(d: Dist) {
  const v = [...d.values].sort((a, b) => a - b);
  const at = (q: number) => v[Math.min(v.length - 1, Math.floor(q * v.length))] ?? 0;
  const sum = v.reduce((a, b) => a + b, 0);
  return { samples: v.length, mean: v.length ? Math.round(sum / v.length) : 0, p50: at(0.5), p95: at(0.95), max: v[v.length - 1] ?? 0 };
}

export type StatsSummary = {
  command: "stats";
  maxPixels: number;
  minPixels: number;
  maxTokens: number | null;
  trajectories: number;
  samples: number;
  /** Total tokens per sample (image + estimated text). */
  tokens: ReturnType<typeof describe>;
  imageTokens: ReturnType<typeof describe>;
  textChars: ReturnType<typeof describe>;
  perApp: Record<string, ReturnType<typeof describe>>;
  perAction: Record<string, ReturnType<typeof describe>>;
  /** Samples over --max-tokens (first 50 listed). */
  overBudget: { count: number; first: { trajectory: string; step: number; tokens: number }[] };
  problems: number;
};

/**
 * Size statistics of the SFT samples an export would give at `opts.maxPixels`: image tokens
 * (resized pixels / 784), text length and an estimated token count, distributions per app and per
 * action, and the samples over a token budget. Reads the export as a stream.
 */
export async function exportStats(exportDir: string, opts: FrameOptions & { maxTokens?: number }, io: BridgeIo): Promise<StatsSummary> {
  const exp = await openExport(exportDir);
  const log = new RunLog(io, "bridge stats");
  const all: Dist = { values: [] };
  const image: Dist = { values: [] };
  const chars: Dist = { values: [] };
  const perApp = new Map<string, Dist>();
  const perAction = new Map<string, Dist>();
  const over: StatsSummary["overBudget"] = { count: 0, first: [] };
  const push = (m: Map<string, Dist>, k: string, v: number) => {
    if (!m.has(k)) m.set(k, { values: [] });
    m.get(k)!.values.push(v);
  };
  const actionSpace = await exportActionSpace(exp);
  const counts = await walkSamples(
    exp,
    { ...opts, actionSpace },
    {
      onProblem: (p) => log.problem(p),
      onProgress: (c) => log.reading(c.trajectories, exp, `${all.values.length} samples`),
      onSample: (sample) => {
        if (!sample.isTarget) return;
        const target = assistantTarget(sample);
        const text = sample.system + sample.userText + (target.ok ? target.text : "");
        const imageTokens = imageTokensOf(sample.frames.resized);
        // The whole sample as the chat template expands it: prompt (image included) plus the target turn.
        const tokens =
          promptTokens(promptMessages(sample), [sample.frames.resized]) +
          (target.ok ? estimateTextTokens(target.text) + TEMPLATE_TOKENS.perMessage : 0);
        all.values.push(tokens);
        image.values.push(imageTokens);
        chars.values.push(text.length);
        push(perApp, sample.trajectory.app, tokens);
        push(perAction, sample.step.toolCall.action, tokens);
        if (opts.maxTokens !== undefined && tokens > opts.maxTokens) {
          over.count += 1;
          if (over.first.length < 50) over.first.push({ trajectory: sample.where.trajectory, step: sample.step.index, tokens });
        }
      },
    },
  );
  const byKey = (m: Map<string, Dist>) =>
    Object.fromEntries([...m.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, d]) => [k, describe(d)]));
  return {
    command: "stats",
    maxPixels: opts.maxPixels,
    minPixels: opts.minPixels,
    maxTokens: opts.maxTokens ?? null,
    trajectories: counts.trajectories,
    samples: all.values.length,
    tokens: describe(all),
    imageTokens: describe(image),
    textChars: describe(chars),
    perApp: byKey(perApp),
    perAction: byKey(perAction),
    overBudget: over,
    problems: log.problems,
  };
}

/** Terminal columns of a string: East Asian wide characters (CJK, Hangul, fullwidth forms) take two. */
function columns(s: string): number {
  return [...s].reduce(
    (n, c) =>
      n +
      (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u.test(c) ? 2 : 1),
    0,
  );
}
const padColumns = (s: string, width: number) => s + " ".repeat(Math.max(0, width - columns(s)));

/** The statistics as a human-readable table (steps named from 1, as the editor shows them). */
export function formatStats(s: StatsSummary): string {
  const row = (name: string, d: ReturnType<typeof describe>) =>
    `  ${padColumns(name, 16)} ${String(d.samples).padStart(7)} ${String(d.mean).padStart(7)} ${String(d.p50).padStart(7)} ${String(d.p95).padStart(7)} ${String(d.max).padStart(7)}`;
  const head = `  ${"".padEnd(16)} ${"samples".padStart(7)} ${"mean".padStart(7)} ${"p50".padStart(7)} ${"p95".padStart(7)} ${"max".padStart(7)}`;
  const lines = [
    `${s.samples} SFT samples from ${s.trajectories} trajectories at max_pixels=${s.maxPixels} (tokens = image pixels/784 + estimated text and chat-template tokens)`,
    head,
    row("total tokens", s.tokens),
    row("image tokens", s.imageTokens),
    row("text chars", s.textChars),
    `per app (total tokens):`,
    ...Object.entries(s.perApp).map(([k, d]) => row(k, d)),
    `per action (total tokens):`,
    ...Object.entries(s.perAction).map(([k, d]) => row(k, d)),
  ];
  if (s.maxTokens !== null) {
    lines.push(`over ${s.maxTokens} tokens: ${s.overBudget.count} samples`);
    for (const o of s.overBudget.first.slice(0, 20))
      lines.push(`  trajectory ${o.trajectory} step ${o.step + 1}: ${Math.round(o.tokens)} tokens`);
  }
  if (s.problems > 0) lines.push(`problems: ${s.problems} (see stderr)`);
  return `${lines.join("\n")}\n`;
}
