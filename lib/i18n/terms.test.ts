import { describe, expect, it } from "vitest";
import { CATALOGUE } from "./index";

/**
 * One Chinese term per concept (issue 36): wherever an English message names one of the studio's
 * concepts, its Chinese twin uses the one term chosen for it (the most-used one when the catalogue
 * had two). `en` finds the concept in the English text, once `{placeholders}` are removed.
 */
const TERMS: { concept: string; en: RegExp; zh: string }[] = [
  { concept: "clear action", en: /\bclear actions?\b/i, zh: "清晰动作" },
  { concept: "thought", en: /\bthoughts?\b/i, zh: "思考" },
  { concept: "verdict", en: /\bverdicts?\b/i, zh: "判定" },
  // The cut point ("cut a release" is another word: creating a release).
  { concept: "cut", en: /\bcut\b(?! (a )?release)/i, zh: "截断" },
  { concept: "outcome", en: /\boutcomes?\b/i, zh: "结果" },
  { concept: "trajectory", en: /\btrajector(y|ies)\b(?! Studio)/i, zh: "轨迹" },
  { concept: "step", en: /\bsteps?\b/i, zh: "步" },
  { concept: "release", en: /\breleases?\b/i, zh: "发布" },
  { concept: "reviewer", en: /\breviewers?\b/i, zh: "审核员" },
  { concept: "annotator", en: /\bannotators?\b/i, zh: "标注员" },
  { concept: "send back", en: /\bsen(t|d) back\b/i, zh: "退回" },
  { concept: "approve", en: /\bapprov(e|ed|es|al)\b/i, zh: "通过" },
  { concept: "screenshot", en: /\bscreenshots?\b/i, zh: "截图" },
  { concept: "tool call", en: /\btool calls?\b/i, zh: "工具调用" },
  { concept: "harmful", en: /\bharmful\b/i, zh: "有害" },
  { concept: "gold", en: /\bgold\b/i, zh: "金标" },
];

/** The other terms a concept had before it was settled: none may come back. */
const RETIRED: Record<string, string[]> = {
  "clear action": ["明确动作", "清晰操作"],
  verdict: ["评判结论"],
  reviewer: ["审核人"],
  approve: ["批准"],
  cut: ["截去"],
};

/** Keys where the English word is not the concept: a data field's name, a command quoted as it is typed. */
const NOT_THE_CONCEPT = new Set([
  "import.format.mobile-r1", // `thought`: a field of the Mobile-R1 file
  "import.format.studio", // trajectory-studio/v1: the format's name
  "snapshots.releases.export", // `release export`: a command line quoted as typed
  // "the cut" of a release: creating it (创建), not the cut point of a trajectory
  "snapshots.releases.cutDone",
  "snapshots.leftOut.title",
  "snapshots.leftOut.beforeAfter",
]);

const withoutPlaceholders = (s: string) => s.replace(/\{[^{}]*\}/g, " ").replace(/`[^`]*`/g, " ");

describe("one Chinese term per concept", () => {
  const en: Record<string, string> = CATALOGUE.en;
  const zh: Record<string, string> = CATALOGUE.zh;

  for (const term of TERMS) {
    it(`"${term.concept}" is always ${term.zh}`, () => {
      const off = Object.keys(en)
        .filter((k) => !NOT_THE_CONCEPT.has(k) && term.en.test(withoutPlaceholders(en[k]!)))
        .filter((k) => !zh[k]!.includes(term.zh))
        .map((k) => `${k}: ${en[k]} => ${zh[k]}`);
      expect(off).toEqual([]);
    });
  }

  it("uses none of the retired terms", () => {
    const off = Object.entries(RETIRED).flatMap(([concept, words]) =>
      Object.entries(zh)
        .filter(([, v]) => words.some((w) => v.includes(w)))
        .map(([k, v]) => `${concept}: ${k} => ${v}`),
    );
    expect(off).toEqual([]);
  });

  it("finds every concept somewhere (a pattern that matches nothing would pass while checking nothing)", () => {
    for (const term of TERMS)
      expect(
        Object.values(en).some((v) => term.en.test(withoutPlaceholders(v))),
        term.concept,
      ).toBe(true);
  });
});
