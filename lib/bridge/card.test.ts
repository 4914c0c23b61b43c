// The dataset card and its Croissant file, checked against the Croissant 1.1 required fields and against
// what the export's own records say (people, judge, apps, screen sizes).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runBridge } from "./cli";
import { captureIo, EN_SCREENSHOT, loadShot, makeStep, makeTrajectory, tempDir, writeExport, ZH_SCREENSHOT } from "./test-fixtures";

/**
 * Croissant 1.1 (mlcommons/croissant docs/croissant-spec-1.1.md, commit 0d3119d, published 2026-01-29),
 * "Dataset-level Information" > "Required": @context, @type (schema.org/Dataset), dct:conformsTo (the
 * versioned schema URL), description, license, name, url, creator, datePublished; and "Modified and Added
 * Properties": distribution, required, of FileObject or FileSet values. FileObject/FileSet: "@type", and a
 * FileObject's contentUrl and encodingFormat (spec "Resources"); sha256 is what "Checksums" asks of versioned
 * datasets. RecordSet fields name their source, and a dataType unless they hold sub-fields (a struct: spec
 * "Nested fields", `subField`); a list is its item's field with `isArray` (1.1 "Array fields").
 */
const url = z.string().min(1);
const person = z.object({ "@type": z.enum(["sc:Organization", "sc:Person", "Organization", "Person"]), name: z.string().min(1) });
const fileObject = z.object({
  "@type": z.literal("cr:FileObject"),
  "@id": z.string().min(1),
  contentUrl: z.string().min(1),
  encodingFormat: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
const fileSet = z.object({
  "@type": z.literal("cr:FileSet"),
  "@id": z.string().min(1),
  encodingFormat: z.string().min(1),
  includes: z.string().min(1),
});
const croissantRequired = z.object({
  "@context": z
    .record(z.string(), z.unknown())
    .refine((c) => c["@vocab"] === "https://schema.org/" && c.cr !== undefined && c.rai !== undefined),
  "@type": z.enum(["sc:Dataset", "Dataset"]),
  conformsTo: z.union([
    z.literal("http://mlcommons.org/croissant/1.1"),
    z.array(z.string()).refine((a) => a.includes("http://mlcommons.org/croissant/1.1")),
  ]),
  name: z.string().min(1),
  description: z.string().min(1),
  license: z.union([url, z.array(url).min(1)]),
  url,
  creator: z.union([person, z.array(person).min(1)]),
  datePublished: z.string().regex(/^\d{4}-\d{2}-\d{2}/),
  distribution: z.array(z.union([fileObject, fileSet])).min(1),
  recordSet: z.array(
    z.object({
      "@type": z.literal("cr:RecordSet"),
      "@id": z.string(),
      field: z
        .array(
          z
            .object({
              "@type": z.literal("cr:Field"),
              "@id": z.string(),
              dataType: z.string().optional(),
              subField: z.array(z.unknown()).min(1).optional(),
              source: z.record(z.string(), z.unknown()),
            })
            .refine((f) => (f.dataType === undefined) !== (f.subField === undefined), "a field has a dataType or sub-fields"),
        )
        .min(1),
    }),
  ),
});
/** The RAI vocabulary's fields the card fills (Croissant RAI 1.0, `rai:` namespace); each must say something. */
const RAI_FIELDS = [
  "rai:dataCollection",
  "rai:dataCollectionType",
  "rai:dataAnnotationProtocol",
  "rai:dataAnnotationPlatform",
  "rai:annotationsPerItem",
  "rai:machineAnnotationTools",
  "rai:dataAnnotationAnalysis",
  "rai:dataPreprocessingProtocol",
  "rai:dataLimitations",
  "rai:dataBiases",
  "rai:personalSensitiveInformation",
  "rai:dataUseCases",
  "rai:dataSocialImpact",
  "rai:dataReleaseMaintenancePlan",
] as const;

const AT = "2026-11-20T10:00:00.000Z";

async function annotatedExport(): Promise<string> {
  const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
  const zh = await loadShot(ZH_SCREENSHOT, 720, 1280);
  const byPerson = (by: string) => ({
    toolCall: { source: "typed" as const, by, at: AT },
    verdict: { source: "typed" as const, by, at: AT },
  });
  const t1 = makeTrajectory(
    [
      { ...makeStep(0, en, { action: "open", text: "Files" }), provenance: byPerson("ann@example.com") },
      {
        ...makeStep(1, en, { action: "click", coordinate: [540, 600] }, { verdict: "corrected" }),
        provenance: { "thought.text": { source: "prefilled", model: "qwen2.5-vl-72b", by: "model-job:7", at: AT } },
      },
    ],
    { id: "t1", app: "Files", instruction: "Open Files and find the report" },
  );
  const t2 = makeTrajectory([{ ...makeStep(0, zh, { action: "type", text: "红烧肉" }), provenance: byPerson("rev@example.com") }], {
    id: "t2",
    app: "抖音",
    instruction: "搜索红烧肉做法",
  });
  const judged = {
    ...t2,
    status: "approved" as const,
    judge: { outcome: "success" as const, isConsistent: true, reason: "done", model: "judge-7b", prompt: "p", at: AT },
  };
  const dir = await writeExport([{ ...t1, status: "approved" }, judged], [en, zh], { filters: { status: "approved" } });
  // The exporter writes createdAt and studioVersion; add them as it does.
  const manifestPath = path.join(dir, "manifest.json");
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as Record<string, unknown>;
  await (await import("node:fs/promises")).writeFile(manifestPath, JSON.stringify({ ...manifest, createdAt: AT, studioVersion: "0.9.0" }));
  return dir;
}

describe("dataset card (README.md + croissant.json)", () => {
  it("writes a Croissant 1.1 file with every required field and RAI fields stated from the export's records", async () => {
    const exportDir = await annotatedExport();
    const out = await tempDir();
    const io = captureIo();
    const code = await runBridge(
      ["sft", exportDir, "--out", out, "--target", "ms-swift", "--shards", "parquet", "--license", "cc-by-4.0"],
      io,
    );
    expect(code, io.err()).toBe(0);
    const cr = JSON.parse(await readFile(path.join(out, "croissant.json"), "utf8")) as Record<string, unknown>;
    const parsed = croissantRequired.safeParse(cr);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(cr.license).toBe("https://spdx.org/licenses/CC-BY-4.0.html");
    expect(cr.datePublished).toBe("2026-11-20");
    expect(cr.inLanguage).toEqual(["en", "zh"]);
    for (const f of RAI_FIELDS) {
      const v = cr[f];
      expect(Array.isArray(v) ? v.length : String(v ?? "").length, f).toBeGreaterThan(0);
    }
    // Two people wrote fields; one step only a pre-annotation model; the model is named; the judge agrees once.
    expect(cr["rai:annotationsPerItem"]).toBe(
      "2 distinct people wrote fields; 2 of 3 steps hold a person's work, 1 only a pre-annotation model's, 0 are as imported.",
    );
    expect(cr["rai:machineAnnotationTools"]).toEqual(["qwen2.5-vl-72b"]);
    expect(cr["rai:dataAnnotationAnalysis"]).toBe(
      "A model judge (judge-7b) rated 1 trajectories; it agrees with the people's outcome on 1 (Cohen's kappa undefined).",
    );
    expect(String(cr["rai:dataAnnotationProtocol"])).toContain("corrected 1, good 2");
    // No reviewer's e-mail is published.
    const text = await readFile(path.join(out, "croissant.json"), "utf8");
    const readme = await readFile(path.join(out, "README.md"), "utf8");
    expect(text + readme).not.toContain("@example.com");
    // README states the same figures.
    expect(readme).toContain("- Trajectories: 2 (0 discarded by reviewers)");
    expect(readme).toContain("| 1080x2400 | 2 |");
    expect(readme).toContain("| 720x1280 | 1 |");
    expect(readme).toContain("2 people wrote fields");
    expect(readme).toContain(
      "1 trajectories were judged by a model (judge-7b); its outcome agrees with the people's outcome on 1 (100 %), Cohen's kappa undefined (one class only).",
    );
    expect(readme).toMatch(
      /Image tokens per screenshot \(Qwen2-VL rule, smart-resized pixels \/ 784 at max_pixels \d+\): min 1196, median 3354/,
    );
    expect(readme).toContain("language:\n- en\n- zh\n");
    expect(readme).toContain("size_categories:\n- n<1K\n");
  }, 120_000);
});

describe("the card's names and the Croissant's types (issue 36)", () => {
  it("types every column by what it holds: images, numbers, lists, and a list of structs as sub-fields", async () => {
    const { croissantField } = await import("./card");
    const source = { fileSet: { "@id": "shards" }, extract: { column: "c" } };
    expect(croissantField("n", { _type: "Value", dtype: "int64" }, "rows/n", source)).toMatchObject({ dataType: "sc:Integer" });
    expect(croissantField("x", { _type: "Value", dtype: "float64" }, "rows/x", source)).toMatchObject({ dataType: "sc:Float" });
    expect(croissantField("i", { _type: "List", feature: { _type: "Image" } }, "rows/i", source)).toMatchObject({
      dataType: "sc:ImageObject",
      isArray: true,
    });
    const messages = croissantField(
      "messages",
      { _type: "List", feature: { role: { _type: "Value", dtype: "string" }, n: { _type: "Value", dtype: "int64" } } },
      "rows/messages",
      source,
    );
    expect(messages).toMatchObject({
      isArray: true,
      subField: [
        { "@id": "rows/messages/role", name: "role", dataType: "sc:Text", source: { ...source, transform: { jsonPath: "role" } } },
        { "@id": "rows/messages/n", name: "n", dataType: "sc:Integer" },
      ],
    });
    expect(messages.dataType).toBeUndefined();
  });

  it("names the licence as an SPDX URL, the release and number in the title, and never 'by Trajectory Studio .'", async () => {
    const { cardTitle, croissantLicense } = await import("./card");
    expect(croissantLicense("cc-by-4.0")).toBe("https://spdx.org/licenses/CC-BY-4.0.html");
    expect(croissantLicense("MPL-2.0")).toBe("https://spdx.org/licenses/MPL-2.0.html");
    expect(cardTitle({ release: { name: "spring", number: 3 } }, { name: "out-folder" })).toBe("spring (release 3)");
    expect(cardTitle({ release: null }, { name: "out-folder" })).toBe("out-folder");
    // An export folder whose manifest has no studioVersion (a release exported before it was written).
    const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
    const exportDir = await writeExport([makeTrajectory([makeStep(0, en, { action: "open", text: "Files" })])], [en]);
    const out = await tempDir();
    const io = captureIo();
    expect(
      await runBridge(["sft", exportDir, "--out", out, "--target", "ms-swift", "--shards", "parquet", "--license", "MIT"], io),
      io.err(),
    ).toBe(0);
    const readme = await readFile(path.join(out, "README.md"), "utf8");
    expect(readme).not.toMatch(/Trajectory Studio \./);
    expect(readme).toContain("by Trajectory Studio (version not recorded).");
  });
});
