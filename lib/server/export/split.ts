import { createHash } from "node:crypto";
import type { SplitSpec } from "@/lib/domain/export-manifest";

/** How an export divides trajectories: the manifest records it (lib/domain/export-manifest.ts). */
export type { SplitSpec };

/**
 * A --split the parser refuses, worded for the command line; `problem` and `got` let the web's answer
 * say the same from the catalogue (lib/server/export/jobs.ts).
 */
export class SplitError extends Error {
  constructor(
    message: string,
    readonly problem: "ratios" | "form",
    readonly got: string,
  ) {
    super(message);
    this.name = "SplitError";
  }
}

const NAMES: Record<number, string[]> = { 1: ["train"], 2: ["train", "test"], 3: ["train", "val", "test"] };

export function parseSplit(s: string | undefined): SplitSpec {
  if (!s) return { kind: "none" };
  const random = s.match(/^random:([^:]+):([\d.,]+)$/);
  if (random) {
    const ratios = random[2]!.split(",").map(Number);
    const sum = ratios.reduce((a, b) => a + b, 0);
    const names = NAMES[ratios.length];
    if (!names || ratios.some((r) => !(r > 0)) || Math.abs(sum - 1) > 1e-6) {
      const message = `--split random:<seed>:<ratios> needs 1 to 3 positive ratios that add up to 1, got "${random[2]}"`;
      throw new SplitError(message, "ratios", random[2]!);
    }
    return { kind: "random", seed: random[1]!, ratios, names };
  }
  const byApp = s.match(/^by-app:(.+)$/);
  if (byApp)
    return {
      kind: "by-app",
      heldOut: byApp[1]!
        .split(",")
        .map((a) => a.trim())
        .filter(Boolean),
    };
  throw new SplitError(`--split must be random:<seed>:<ratios> or by-app:<apps>, got "${s}"`, "form", s);
}

/**
 * The split a trajectory falls in. Random splits hash the seed with the trajectory's content
 * fingerprint, so the assignment is stable across runs and databases and needs no global pass.
 */
export function splitOf(spec: SplitSpec, t: { fingerprint: string; app: string }): string | undefined {
  switch (spec.kind) {
    case "none":
      return undefined;
    case "by-app":
      return spec.heldOut.includes(t.app) ? "test" : "train";
    case "random": {
      const h = createHash("sha256").update(`${spec.seed}:${t.fingerprint}`).digest();
      const u = h.readUInt32BE(0) / 2 ** 32;
      let acc = 0;
      for (let i = 0; i < spec.ratios.length; i++) {
        acc += spec.ratios[i]!;
        if (u < acc) return spec.names[i];
      }
      return spec.names[spec.names.length - 1];
    }
  }
}
