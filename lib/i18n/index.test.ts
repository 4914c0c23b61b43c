import { describe, expect, it } from "vitest";
import { type MessageKey, messageArguments, parseMessage, translator } from "./index";

describe("message catalogue", () => {
  it("translates and fills placeholders in both languages", () => {
    expect(translator("en")("forbidden.body", { role: "annotator" })).toMatch(/Your role \(annotator\)/);
    expect(translator("zh")("nav.signOut")).toBe("退出登录");
    expect(translator("zh")("forbidden.body", { role: "标注员" })).toContain("（标注员）");
  });

  it("chooses the English plural by the count, and Chinese says it one way", () => {
    const en = translator("en");
    const zh = translator("zh");
    expect(en("model.jobs.trajectories", { n: 0 })).toBe("0 trajectories");
    expect(en("model.jobs.trajectories", { n: 1 })).toBe("1 trajectory");
    expect(en("model.jobs.trajectories", { n: 2 })).toBe("2 trajectories");
    expect(zh("model.jobs.trajectories", { n: 1 })).toBe("1 条轨迹");
    expect(zh("model.jobs.trajectories", { n: 2 })).toBe("2 条轨迹");
    // Two plurals and a verb that agrees with one of them.
    expect(en("import.copies.new", { n: 1, total: 3 })).toBe("1 of the file's 3 trajectories is in no other project.");
    expect(en("import.copies.new", { n: 2, total: 3 })).toBe("2 of the file's 3 trajectories are in no other project.");
    expect(en("snapshots.counts", { trajectories: 1, steps: 1 })).toBe("1 trajectory, 1 step");
    expect(zh("snapshots.counts", { trajectories: 1, steps: 12 })).toBe("1 条轨迹，12 个步骤");
  });

  it("shows a count as the caller formatted it, and still chooses its plural", () => {
    const en = translator("en");
    // `#` reads the argument as given: no grouping added to a raw number, a formatted one kept.
    expect(en("audit.count", { n: 12345 })).toBe("12345 events");
    expect(en("audit.count", { n: "12,345" })).toBe("12,345 events");
    expect(en("audit.count", { n: "1" })).toBe("1 event");
    expect(translator("zh")("audit.count", { n: "12,345" })).toBe("12,345 条事件");
  });

  it("leaves an argument that is not given as {name}; a missing count reads as other", () => {
    const en = translator("en");
    expect(en("import.copies.inProject", { n: "1" })).toBe("1 trajectory of this file is already in project {project}");
    expect(en("import.copies.inProject", { project: "p" })).toBe("{n} trajectories of this file are already in project p");
    expect(en("forbidden.body")).toContain("({role})");
    expect(translator("zh")("import.copies.inProject")).toBe("此文件中有 {n} 条轨迹已在项目 {project} 中");
  });

  it("prints a kept argument as {name} for the caller's node, and still chooses its plural by it", () => {
    const en = translator("en");
    expect(en("import.copies.inProject", { n: "1", project: "p" }, ["n"])).toBe("{n} trajectory of this file is already in project p");
    expect(en("import.copies.inProject", { n: "2", project: "p" }, ["n", "project"])).toBe(
      "{n} trajectories of this file are already in project {project}",
    );
    expect(translator("zh")("snapshots.counts", { trajectories: 1, steps: 12 }, ["steps"])).toBe("1 条轨迹，{steps} 个步骤");
    // Nothing kept: the same as before.
    expect(en("import.copies.new", { n: 1, total: 3 }, [])).toBe("1 of the file's 3 trajectories is in no other project.");
  });

  it("keeps angle brackets and apostrophes as text, and prints an unknown key as itself", () => {
    expect(translator("en")("error.signIn")).toBe("Sign in, or send an API token as Authorization: Bearer <token>.");
    expect(translator("en")("layout.nextScreenOf", { n: 3 })).toBe("Step 3: the screen after this step's action");
    expect(translator("zh")("no.such.key" as MessageKey)).toBe("no.such.key");
  });

  it("parses ICU and names every argument, nested ones included", () => {
    expect(messageArguments(parseMessage("{a} of {b, plural, one {# x {c}} other {# xs}} {d, select, k {{e}} other {}}", "en"))).toEqual([
      "a",
      "c",
      "b",
      "e",
      "d",
    ]);
    expect(() => parseMessage("{n, plural, one {# x}", "en")).toThrow();
  });
});
