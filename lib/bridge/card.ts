// The dataset card of a bridge output: README.md (YAML front matter as the Hugging Face hub reads it, then the
// statistics people look for) and croissant.json (Croissant 1.1 JSON-LD with its responsible-AI fields), both
// filled from the export's own records, never typed in by hand.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { cohensKappa, emptyConfusion } from "@/lib/domain/model";
import { imageTokens } from "@/lib/domain/trainer-hints";
import { smartResize } from "@/lib/domain/geometry";
import { fieldsWrittenByPeople, PERSON_SOURCES } from "@/lib/domain/provenance";
import { openExport, readTrajectories } from "./export-reader";
import { exportStats } from "./stats";
import type { HfFeature, HfFeatures, ShardSummary } from "./shards";
import { SHARD_SPLIT, SHARDS_DIR } from "./shards";

/** Croissant 1.1 conformance URL (spec §"Dataset-level Information", `dct:conformsTo`). */
export const CROISSANT_CONFORMS_TO = "http://mlcommons.org/croissant/1.1";

/** Distribution of a per-trajectory or per-step count. */
export type Spread = { min: number; p50: number; mean: number; p95: number; max: number };
function spread(values: number[]): Spread {
  const v = [...values].sort((a, b) => a - b);
  if (v.length === 0) return { min: 0, p50: 0, mean: 0, p95: 0, max: 0 };
  const at = (q: number) => v[Math.min(v.length - 1, Math.floor(q * v.length))] ?? 0;
  return {
    min: v[0] ?? 0,
    p50: at(0.5),
    mean: Math.round((v.reduce((a, b) => a + b, 0) / v.length) * 10) / 10,
    p95: at(0.95),
    max: v[v.length - 1] ?? 0,
  };
}

/** What the card states, all counted from the export's trajectories.jsonl and manifest. */
export type CardStats = {
  trajectories: number;
  steps: number;
  /** Steps kept for training (inside the cut, not harmful, trajectory not discarded). */
  discardedTrajectories: number;
  apps: Record<string, number>;
  actionTypes: Record<string, number>;
  verdicts: Record<string, number>;
  statuses: Record<string, number>;
  sources: Record<string, number>;
  outcomes: Record<string, number>;
  stepsPerTrajectory: Spread;
  /** `<width>x<height>` of the original screenshots, steps per size. */
  screenSizes: Record<string, number>;
  /**
   * Per step: the screenshot's tokens at the Qwen2-VL rule (smart-resized pixels / 28²) at `maxPixels`; per SFT
   * sample (what `bridge stats` measures): image plus estimated text and chat-template tokens.
   */
  tokens: {
    maxPixels: number;
    minPixels: number;
    imageTokensPerStep: Spread;
    sftSampleTokens: { samples: number; mean: number; p50: number; p95: number; max: number };
  };
  /** Languages of the instructions: `zh` when one holds CJK characters, `en` when one holds Latin letters. */
  languages: string[];
  /** The model judge beside the people's outcome, where trajectories were judged. */
  judge: { judged: number; agreeWithOutcome: number; kappa: number | null; models: string[] } | null;
  /** How the steps were annotated: per field source, and how many distinct people wrote fields (names are never published). */
  annotation: {
    people: number;
    stepsWrittenByPeople: number;
    stepsPrefilledOnly: number;
    stepsAsImported: number;
    fieldSources: Record<string, number>;
    suggestionModels: string[];
  };
  exportStatus: string | null;
  /** The whole filter that made the export or release, in words (filterDescription); null for hand-made folders. */
  filter: string | null;
  exportedAt: string | null;
  studioVersion: string | null;
  /** The release the export folder holds (its name and number), null for an ordinary export. */
  release: { name: string; number: number } | null;
};

/** A manifest's `release` stamp (name and number), or null when it has none. */
function releaseOf(v: unknown): CardStats["release"] {
  if (typeof v !== "object" || v === null) return null;
  const { name, number } = v as { name?: unknown; number?: unknown };
  return typeof name === "string" && typeof number === "number" ? { name, number } : null;
}

/** The card's title: the release's name and number when the folder holds one, else the name given (the output folder's). */
export function cardTitle(stats: Pick<CardStats, "release">, opts: Pick<CardOptions, "name">): string {
  return stats.release ? `${stats.release.name} (release ${stats.release.number})` : opts.name;
}

/** "Trajectory Studio 1.2.0", or the name alone when the manifest does not say which version wrote it. */
const studioName = (stats: Pick<CardStats, "studioVersion">) =>
  stats.studioVersion ? `Trajectory Studio ${stats.studioVersion}` : "Trajectory Studio (version not recorded)";

const listed = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/**
 * The manifest's `filters` in words, for the card: status, apps, lanes (releases), project, split and
 * held-out evaluation sets and near-duplicates dropped, each only where the manifest records it; e.g. `status "all"; apps Mail; lanes fast`.
 */
export function filterDescription(filters: { status: string } & Record<string, unknown>): string {
  const parts = [`status "${filters.status}"`];
  const apps = listed(filters.apps);
  parts.push(apps.length > 0 ? `apps ${apps.join(", ")}` : "every app");
  if ("lanes" in filters) {
    const lanes = listed(filters.lanes);
    parts.push(lanes.length > 0 ? `lanes ${lanes.join(", ")}` : "every lane");
  }
  if (typeof filters.project === "string") parts.push(`project ${filters.project}`);
  if (typeof filters.split === "string") parts.push(`split ${filters.split}`);
  if (filters.includeHeldOut === true) parts.push("held-out evaluation sets included");
  else if (typeof filters.heldOutLeftOut === "number" && filters.heldOutLeftOut > 0)
    parts.push(`${filters.heldOutLeftOut} trajectories of held-out evaluation sets left out`);
  if (filters.dropNearDuplicates === true) {
    const n = typeof filters.nearDuplicatesLeftOut === "number" ? filters.nearDuplicatesLeftOut : 0;
    parts.push(`near-duplicates dropped (${n} trajectories left out, one keeper per group kept)`);
  }
  return parts.join("; ");
}

const bump = (m: Record<string, number>, k: string, n = 1) => {
  m[k] = (m[k] ?? 0) + n;
};
const sorted = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).sort(([a], [b]) => a.localeCompare(b)));

/**
 * Count what the card states from an export folder (streamed, one trajectory at a time). Token counts use
 * the Qwen2-VL image rule (smart-resized pixels at `frame.maxPixels` / 784) and the bridge's text estimate.
 */
export async function cardStats(exportDir: string, frame: { maxPixels: number; minPixels: number }): Promise<CardStats> {
  const exp = await openExport(exportDir);
  const s: CardStats = {
    trajectories: 0,
    steps: 0,
    discardedTrajectories: 0,
    apps: {},
    actionTypes: {},
    verdicts: {},
    statuses: {},
    sources: {},
    outcomes: {},
    stepsPerTrajectory: spread([]),
    screenSizes: {},
    tokens: {
      maxPixels: frame.maxPixels,
      minPixels: frame.minPixels,
      imageTokensPerStep: spread([]),
      sftSampleTokens: { samples: 0, mean: 0, p50: 0, p95: 0, max: 0 },
    },
    languages: [],
    judge: null,
    annotation: { people: 0, stepsWrittenByPeople: 0, stepsPrefilledOnly: 0, stepsAsImported: 0, fieldSources: {}, suggestionModels: [] },
    exportStatus: exp.manifest.filters?.status ?? null,
    filter: exp.manifest.filters ? filterDescription(exp.manifest.filters) : null,
    exportedAt: typeof exp.manifest.createdAt === "string" ? exp.manifest.createdAt : null,
    studioVersion: typeof exp.manifest.studioVersion === "string" ? exp.manifest.studioVersion : null,
    release: releaseOf(exp.manifest.release),
  };
  const lengths: number[] = [];
  const imageT: number[] = [];
  let cjk = false;
  let latin = false;
  const people = new Set<string>();
  const models = new Set<string>();
  const judgeModels = new Set<string>();
  let judged = 0;
  let agree = 0;
  // The same confusion matrix and kappa `bridge judge` reports (lib/domain/model.ts).
  const confusion = emptyConfusion();
  for await (const rec of readTrajectories(exp)) {
    if (!rec.ok) continue;
    const t = rec.trajectory;
    s.trajectories += 1;
    if (t.isDiscarded) s.discardedTrajectories += 1;
    bump(s.apps, t.app);
    bump(s.statuses, t.status ?? "unknown");
    bump(s.sources, t.source);
    bump(s.outcomes, t.outcome ?? "none");
    lengths.push(t.steps.length);
    cjk ||= /[\u3400-\u9fff\uf900-\ufaff]/u.test(t.instruction);
    latin ||= /[A-Za-z]/.test(t.instruction);
    if (t.judge) {
      judged += 1;
      judgeModels.add(t.judge.model);
      if (t.outcome !== null && t.judge.outcome === t.outcome) agree += 1;
      if (t.outcome !== null) confusion[t.outcome][t.judge.outcome] += 1;
    }
    for (const step of t.steps) {
      s.steps += 1;
      bump(s.actionTypes, step.toolCall.action);
      bump(s.verdicts, step.verdict);
      bump(s.screenSizes, `${step.screenshot.width}x${step.screenshot.height}`);
      imageT.push(imageTokens(smartResize({ width: step.screenshot.width, height: step.screenshot.height }, frame)));
      const prov = step.provenance ?? {};
      const byPeople = fieldsWrittenByPeople(prov);
      const entries = Object.values(prov).filter((e) => e !== undefined);
      for (const e of entries) {
        bump(s.annotation.fieldSources, e.source);
        if ((PERSON_SOURCES as readonly string[]).includes(e.source) && e.by) people.add(e.by);
        if (e.model) models.add(e.model);
      }
      if (byPeople.length > 0) s.annotation.stepsWrittenByPeople += 1;
      else if (entries.length > 0) s.annotation.stepsPrefilledOnly += 1;
      else s.annotation.stepsAsImported += 1;
    }
  }
  s.stepsPerTrajectory = spread(lengths);
  s.tokens.imageTokensPerStep = spread(imageT);
  const silent = { stdout: { write: () => true }, stderr: { write: () => true } };
  s.tokens.sftSampleTokens = (await exportStats(exportDir, frame, silent)).tokens;
  s.languages = [...(latin ? ["en"] : []), ...(cjk ? ["zh"] : [])];
  s.annotation.people = people.size;
  s.annotation.suggestionModels = [...models].sort();
  s.apps = sorted(s.apps);
  s.actionTypes = sorted(s.actionTypes);
  s.verdicts = sorted(s.verdicts);
  s.statuses = sorted(s.statuses);
  s.sources = sorted(s.sources);
  s.outcomes = sorted(s.outcomes);
  s.screenSizes = sorted(s.screenSizes);
  s.judge = judged > 0 ? { judged, agreeWithOutcome: agree, kappa: cohensKappa(confusion), models: [...judgeModels].sort() } : null;
  return s;
}

/** The hub's `size_categories` bucket for a row count (the hub's fixed list). */
export function sizeCategory(n: number): string {
  const buckets: [number, string][] = [
    [1_000, "n<1K"],
    [10_000, "1K<n<10K"],
    [100_000, "10K<n<100K"],
    [1_000_000, "100K<n<1M"],
    [10_000_000, "1M<n<10M"],
    [100_000_000, "10M<n<100M"],
    [1_000_000_000, "100M<n<1B"],
  ];
  for (const [limit, name] of buckets) if (n < limit) return name;
  return "n>1T";
}

export type CardOptions = {
  /** Dataset name (the output folder's name when not given). */
  name: string;
  /** SPDX licence id of the data (`--license`, or the release's own); the bridge refuses shards without one. */
  license: string;
  /** Where the dataset will be published (Croissant `url`, required); a relative placeholder otherwise. */
  url?: string;
  /** Who publishes it (Croissant `creator`, required): the studio deployment when nothing else is known. */
  creator?: string;
  /** The command that made the rows (sft, grpo, …) and its target. */
  command: string;
  target?: string;
};

const yamlString = (s: string) => JSON.stringify(s);

/** `features:` of the hub's YAML from the `datasets` features (the layout `DatasetInfo._to_yaml_dict` writes). */
function yamlFeatures(features: HfFeatures, indent: string): string[] {
  const out: string[] = [];
  for (const [name, f] of Object.entries(features)) {
    out.push(`${indent}- name: ${yamlString(name)}`);
    out.push(...yamlFeatureBody(f, `${indent}  `));
  }
  return out;
}
function yamlFeatureBody(f: HfFeature, indent: string): string[] {
  if ("_type" in f && f._type === "Value") return [`${indent}dtype: ${f.dtype}`];
  if ("_type" in f && f._type === "Image") return [`${indent}dtype: image`];
  if ("_type" in f && f._type === "List") {
    const inner = f.feature as HfFeature;
    if ("_type" in inner && (inner._type === "Value" || inner._type === "Image"))
      return [`${indent}list: ${inner._type === "Image" ? "image" : inner.dtype}`];
    if ("_type" in inner && inner._type === "List") return [`${indent}list:`, ...yamlFeatureBody(inner, `${indent}  `)];
    return [`${indent}list:`, ...yamlFeatures(inner as HfFeatures, `${indent}  `)];
  }
  return [`${indent}struct:`, ...yamlFeatures(f as HfFeatures, `${indent}  `)];
}

const table = (m: Record<string, number>, head: string) => [
  `| ${head} | count |`,
  `|---|---|`,
  ...Object.entries(m)
    .sort(([, a], [, b]) => b - a)
    .map(([k, v]) => `| ${k.replace(/\|/g, "\\|")} | ${v} |`),
];
const spreadLine = (s: Spread) => `min ${s.min}, median ${s.p50}, mean ${s.mean}, p95 ${s.p95}, max ${s.max}`;

/** Known limitations stated from the data itself (each only when it applies). */
function limitations(stats: CardStats, shards: ShardSummary): string[] {
  const out: string[] = [];
  const unreviewed = stats.verdicts.unreviewed ?? 0;
  if (unreviewed > 0) out.push(`${unreviewed} of ${stats.steps} steps have no reviewer verdict (model output as imported).`);
  if (stats.exportStatus && stats.exportStatus !== "approved")
    out.push(`The export was made with status "${stats.exportStatus}": not every trajectory was approved by a second person.`);
  if (stats.annotation.stepsAsImported > 0)
    out.push(`${stats.annotation.stepsAsImported} steps hold the model's output exactly as imported (no field written in the studio).`);
  const apps = Object.keys(stats.apps).length;
  if (apps < 5) out.push(`Only ${apps} app${apps === 1 ? "" : "s"}: the data does not represent phone use in general.`);
  const sizes = Object.keys(stats.screenSizes).length;
  if (sizes < 3) out.push(`Screens of ${sizes} size${sizes === 1 ? "" : "s"} only (${Object.keys(stats.screenSizes).join(", ")}).`);
  if (stats.judge === null) out.push("No model judge ran over these trajectories.");
  out.push(
    "Token lengths are an estimate without the tokenizer (one token per CJK character, one per 3 other characters) plus the exact image-token count.",
  );
  out.push(
    `Rows: ${shards.rows}; each names screenshots that may show personal data the apps displayed (see croissant.json rai:personalSensitiveInformation).`,
  );
  return out;
}

/** README.md: hub YAML front matter (configs/data_files, dataset_info features, license, task_categories, size_categories) and the statistics. */
export function renderCard(stats: CardStats, shards: ShardSummary, opts: CardOptions): string {
  const glob = `${SHARDS_DIR}/${SHARD_SPLIT}-*.${shards.format === "parquet" ? "parquet" : "tar"}`;
  const front = [
    "---",
    `license: ${opts.license}`,
    "task_categories:",
    "- image-text-to-text",
    "language:",
    ...stats.languages.map((l) => `- ${l}`),
    "tags:",
    "- gui-agent",
    "- mobile",
    "- trajectories",
    `- ${opts.command}`,
    "size_categories:",
    `- ${sizeCategory(shards.rows)}`,
    "configs:",
    "- config_name: default",
    "  data_files:",
    `  - split: ${SHARD_SPLIT}`,
    `    path: ${glob}`,
  ];
  if (shards.features) {
    front.push(
      "dataset_info:",
      "  features:",
      ...yamlFeatures(shards.features, "  "),
      "  splits:",
      `  - name: ${SHARD_SPLIT}`,
      `    num_examples: ${shards.rows}`,
    );
  }
  front.push("---");
  const j = stats.judge;
  const a = stats.annotation;
  const body = [
    `# ${cardTitle(stats, opts)}`,
    "",
    `Phone-agent trajectories corrected by people in Trajectory Studio, as \`${opts.command}${opts.target ? ` --target ${opts.target}` : ""}\` rows (${shards.rows} rows, ${shards.images} embedded screenshots, ${shards.files.length} ${shards.format} shard${shards.files.length === 1 ? "" : "s"}).`,
    "",
    "## Statistics",
    "",
    `- Trajectories: ${stats.trajectories} (${stats.discardedTrajectories} discarded by reviewers)`,
    `- Steps: ${stats.steps}`,
    `- Apps: ${Object.keys(stats.apps).length}`,
    `- Steps per trajectory: ${spreadLine(stats.stepsPerTrajectory)}`,
    `- Image tokens per screenshot (Qwen2-VL rule, smart-resized pixels / 784 at max_pixels ${stats.tokens.maxPixels}): ${spreadLine(stats.tokens.imageTokensPerStep)}`,
    `- Tokens per SFT sample (image plus estimated text and chat template, as \`bridge stats\` measures): ${stats.tokens.sftSampleTokens.samples} samples, median ${stats.tokens.sftSampleTokens.p50}, mean ${stats.tokens.sftSampleTokens.mean}, p95 ${stats.tokens.sftSampleTokens.p95}, max ${stats.tokens.sftSampleTokens.max}`,
    "",
    ...table(stats.apps, "app"),
    "",
    ...table(stats.actionTypes, "action type"),
    "",
    ...table(stats.screenSizes, "screen size (px)"),
    "",
    ...table(stats.verdicts, "reviewer verdict"),
    "",
    "## Judge",
    "",
    j
      ? `${j.judged} trajectories were judged by a model (${j.models.join(", ")}); its outcome agrees with the people's outcome on ${j.agreeWithOutcome} (${Math.round((j.agreeWithOutcome / j.judged) * 100)} %), Cohen's kappa ${j.kappa === null ? "undefined (one class only)" : j.kappa.toFixed(2)}.`
      : "No trajectory was judged by a model.",
    "",
    "## Annotation",
    "",
    `The trajectories come from ${Object.entries(stats.sources)
      .map(([k, v]) => `${k} (${v})`)
      .join(
        ", ",
      )}. In the studio's editor a reviewer sets a verdict per step and may correct the thought, the clear action, the tool call and the target box; the step records who wrote each field and how.`,
    `${a.people} ${a.people === 1 ? "person" : "people"} wrote fields (names are not published); ${a.stepsWrittenByPeople} steps hold a person's work, ${a.stepsPrefilledOnly} only a pre-annotation model's, ${a.stepsAsImported} are as imported.`,
    a.suggestionModels.length > 0 ? `Suggestions came from: ${a.suggestionModels.join(", ")}.` : "No model suggestions were used.",
    `Field sources: ${
      Object.entries(a.fieldSources)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "none"
    }. Filter: ${stats.filter ?? "unknown"}; exported ${stats.exportedAt ?? "(date unknown)"} by ${studioName(stats)}.`,
    "",
    "## Known limitations",
    "",
    ...limitations(stats, shards).map((l) => `- ${l}`),
    "",
    "## Files",
    "",
    ...shards.files.map((f) => `- \`${f}\``),
    "- `croissant.json`: Croissant 1.1 metadata with responsible-AI fields",
    "",
  ];
  return `${front.join("\n")}\n\n${body.join("\n")}`;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The hub's lower-case licence ids of the SPDX licences data is usually published under, with their SPDX spelling. */
const SPDX: Record<string, string> = {
  "apache-2.0": "Apache-2.0",
  mit: "MIT",
  "cc0-1.0": "CC0-1.0",
  "cc-by-4.0": "CC-BY-4.0",
  "cc-by-sa-4.0": "CC-BY-SA-4.0",
  "cc-by-nc-4.0": "CC-BY-NC-4.0",
  "cc-by-nc-sa-4.0": "CC-BY-NC-SA-4.0",
  "odc-by": "ODC-By-1.0",
};

/**
 * Croissant `license`: the SPDX licence URL (the spec's recommendation). An id the studio's short list does not
 * hold is taken as an SPDX id as written (SPDX ids are case-sensitive URL names); a URL is kept as it is.
 */
export function croissantLicense(id: string): string {
  if (/^https?:\/\//.test(id)) return id;
  return `https://spdx.org/licenses/${SPDX[id.toLowerCase()] ?? id}.html`;
}

/** Croissant dataType of a scalar feature: images sc:ImageObject, numbers sc:Integer / sc:Float, booleans, text. */
function croissantScalar(f: HfFeature): string | null {
  if ("_type" in f && f._type === "Image") return "sc:ImageObject";
  if ("_type" in f && f._type === "Value")
    return /^u?int/.test(String(f.dtype))
      ? "sc:Integer"
      : /^float/.test(String(f.dtype))
        ? "sc:Float"
        : f.dtype === "bool"
          ? "sc:Boolean"
          : "sc:Text";
  return null;
}

/**
 * One Croissant 1.1 field for a column or a struct member: a scalar typed by what it holds, a list as the field of
 * its item with `isArray` (the spec's array fields), a struct as a field with one `subField` per member.
 */
export function croissantField(name: string, f: HfFeature, id: string, source: Record<string, unknown>): Record<string, unknown> {
  const base = { "@type": "cr:Field", "@id": id, name, source };
  const scalar = croissantScalar(f);
  if (scalar) return { ...base, dataType: scalar };
  if ("_type" in f && f._type === "List") {
    const inner = croissantField(name, f.feature as HfFeature, id, source);
    return { ...inner, isArray: true, arrayShape: "-1" };
  }
  const members = Object.entries(f as HfFeatures).map(([k, sub]) =>
    croissantField(k, sub, `${id}/${k}`, { ...source, transform: { jsonPath: k } }),
  );
  return { ...base, subField: members };
}

/**
 * Croissant 1.1 JSON-LD: the required dataset fields (spec "Dataset-level Information": @context, @type,
 * conformsTo, name, description, license, url, creator, datePublished, distribution), one FileObject per
 * shard with its sha256, a FileSet over them, a RecordSet with one field per column, and the RAI fields
 * stated from the export's own records.
 */
export async function croissant(
  outDir: string,
  stats: CardStats,
  shards: ShardSummary,
  opts: CardOptions,
): Promise<Record<string, unknown>> {
  const encoding = shards.format === "parquet" ? "application/x-parquet" : "application/x-tar";
  const distribution: Record<string, unknown>[] = [];
  for (const f of shards.files) {
    distribution.push({
      "@type": "cr:FileObject",
      "@id": f,
      name: f,
      contentUrl: f,
      encodingFormat: encoding,
      sha256: await sha256Of(path.join(outDir, f)),
    });
  }
  distribution.push({
    "@type": "cr:FileSet",
    "@id": "shards",
    name: "shards",
    encodingFormat: encoding,
    includes: `${SHARDS_DIR}/${SHARD_SPLIT}-*.${shards.format === "parquet" ? "parquet" : "tar"}`,
  });
  const fields = Object.entries(shards.features ?? {}).map(([name, f]) =>
    croissantField(name, f, `rows/${name}`, { fileSet: { "@id": "shards" }, extract: { column: name } }),
  );
  const a = stats.annotation;
  // The export's own date, so the same export gives the same file; a hand-made folder without one: today.
  const date = (stats.exportedAt ?? new Date().toISOString()).slice(0, 10);
  return {
    "@context": {
      "@language": "en",
      "@vocab": "https://schema.org/",
      sc: "https://schema.org/",
      cr: "http://mlcommons.org/croissant/",
      rai: "http://mlcommons.org/croissant/RAI/",
      dct: "http://purl.org/dc/terms/",
      conformsTo: "dct:conformsTo",
      citeAs: "cr:citeAs",
      column: "cr:column",
      data: { "@id": "cr:data", "@type": "@json" },
      dataType: { "@id": "cr:dataType", "@type": "@vocab" },
      examples: { "@id": "cr:examples", "@type": "@json" },
      extract: "cr:extract",
      field: "cr:field",
      fileObject: "cr:fileObject",
      fileProperty: "cr:fileProperty",
      fileSet: "cr:fileSet",
      includes: "cr:includes",
      isArray: "cr:isArray",
      arrayShape: "cr:arrayShape",
      subField: "cr:subField",
      transform: "cr:transform",
      jsonPath: "cr:jsonPath",
      isLiveDataset: "cr:isLiveDataset",
      key: "cr:key",
      recordSet: "cr:recordSet",
      references: "cr:references",
      source: "cr:source",
    },
    "@type": "sc:Dataset",
    conformsTo: CROISSANT_CONFORMS_TO,
    name: cardTitle(stats, opts),
    description: `Phone-agent trajectories corrected by people in Trajectory Studio: ${stats.trajectories} trajectories, ${stats.steps} steps over ${Object.keys(stats.apps).length} apps, as ${shards.rows} ${opts.command} rows with embedded screenshots.`,
    license: croissantLicense(opts.license),
    url: opts.url ?? "./",
    creator: { "@type": "sc:Organization", name: opts.creator ?? "Trajectory Studio" },
    datePublished: date,
    version: "1.0.0",
    keywords: ["gui agent", "mobile", "trajectories", opts.command],
    inLanguage: stats.languages,
    distribution,
    // The columns as fields (Parquet); tars hold one JSON document per sample, described by the FileSet alone.
    ...(fields.length > 0 ? { recordSet: [{ "@type": "cr:RecordSet", "@id": "rows", name: "rows", field: fields }] } : {}),
    "rai:dataCollection": `Trajectories of phone agents imported from ${Object.entries(stats.sources)
      .map(([k, v]) => `${k} (${v} trajectories)`)
      .join(", ")}; each step is a screenshot with the model's thought, action and tool call.`,
    "rai:dataCollectionType": ["Machine-generated (agent trajectories)", "Manual human curation"],
    "rai:dataAnnotationProtocol": `Reviewers set a verdict per step (${Object.entries(stats.verdicts)
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ", ",
      )}) and corrected the thought, clear action, tool call and target box in the studio editor; trajectories are submitted and approved by a second person. Filter: ${stats.filter ?? "unknown"}.`,
    "rai:dataAnnotationPlatform": studioName(stats),
    "rai:annotationsPerItem": `${a.people} distinct people wrote fields; ${a.stepsWrittenByPeople} of ${stats.steps} steps hold a person's work, ${a.stepsPrefilledOnly} only a pre-annotation model's, ${a.stepsAsImported} are as imported.`,
    "rai:machineAnnotationTools": a.suggestionModels.length > 0 ? a.suggestionModels : ["none"],
    "rai:dataAnnotationAnalysis": stats.judge
      ? `A model judge (${stats.judge.models.join(", ")}) rated ${stats.judge.judged} trajectories; it agrees with the people's outcome on ${stats.judge.agreeWithOutcome} (Cohen's kappa ${stats.judge.kappa === null ? "undefined" : stats.judge.kappa.toFixed(2)}).`
      : "No model judge ran over these trajectories.",
    "rai:dataPreprocessingProtocol": `Rows written by the Trajectory Studio bridge (${opts.command}${opts.target ? ` --target ${opts.target}` : ""}): coordinates converted to the trainer's resized frame, steps after a reviewer's cut and discarded trajectories left out.`,
    "rai:dataLimitations": limitations(stats, shards),
    "rai:dataBiases": `Apps covered: ${Object.entries(stats.apps)
      .map(([k, v]) => `${k} (${v})`)
      .join(", ")}; screen sizes: ${Object.keys(stats.screenSizes).join(", ")}.`,
    "rai:personalSensitiveInformation":
      "Screenshots show whatever the apps displayed during the agent's run (names, messages, addresses may appear); reviewer identities are not published.",
    "rai:dataUseCases": "Training and evaluating GUI agents for phones (supervised fine-tuning, preference and reinforcement learning).",
    "rai:dataSocialImpact": "Agents trained on this data act on people's phones; wrong actions can send messages or make purchases.",
    "rai:dataReleaseMaintenancePlan": "Each release is a new export with its own version; earlier releases are not changed.",
  };
}

/** Write README.md and croissant.json into the output folder. Returns the two paths. */
export async function writeCard(
  exportDir: string,
  outDir: string,
  shards: ShardSummary,
  frame: { maxPixels: number; minPixels: number },
  opts: CardOptions,
): Promise<string[]> {
  const stats = await cardStats(exportDir, frame);
  const readme = path.join(outDir, "README.md");
  const cr = path.join(outDir, "croissant.json");
  await writeFile(readme, renderCard(stats, shards, opts), "utf8");
  await writeFile(cr, `${JSON.stringify(await croissant(outDir, stats, shards, opts), null, 2)}\n`, "utf8");
  return [readme, cr];
}
