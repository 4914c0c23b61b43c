import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { auditActionName, auditFieldName, auditValueText, isHiddenAuditField } from "./audit-words";
import { formatter } from "./format";
import { translator } from "./index";

// Issue 36 item 5: the audit trail reads as words and formatted figures, in the person's language.
const en = { t: translator("en"), f: formatter("en", { timeZone: "UTC" }) };
const zh = { t: translator("zh"), f: formatter("zh", { timeZone: "UTC" }) };

describe("audit values for people", () => {
  it("writes a share as a percentage with the app's formatter, never a raw float", () => {
    expect(auditValueText("stepAccuracy", 0.020316027088036117, en.t, en.f)).toBe("2%");
    expect(auditValueText("sopSuccessRate", 0.125, zh.t, zh.f)).toBe("12.5%");
    expect(auditFieldName("stepAccuracy", zh.t)).toBe("步骤准确率");
    expect(auditFieldName("stepAccuracy", en.t)).toBe("step accuracy");
  });

  it("writes counts with digit grouping, times in the person's date style, yes/no and statuses in words", () => {
    expect(auditValueText("steps", 24521, en.t, en.f)).toBe("24,521");
    expect(auditValueText("leaseUntil", "2026-11-25T23:50:00.000Z", zh.t, zh.f)).toBe("2026年11月25日 23:50");
    expect(auditValueText("isGold", true, zh.t, zh.f)).toBe("是");
    expect(auditValueText("status", "approved", zh.t, zh.f)).toBe(zh.t("status.approved"));
    expect(auditValueText("verdict", "harmful", en.t, en.f)).toBe(en.t("badge.harmful"));
    expect(auditValueText("thought", "点击搜索", en.t, en.f)).toBe("点击搜索");
    expect(auditValueText("box", [1, 2, 3, 4], en.t, en.f)).toBe("[1,2,3,4]");
  });

  it("leaves out ids the studio keeps for itself", () => {
    expect(isHiddenAuditField("assigneeId")).toBe(true);
    expect(isHiddenAuditField("reviewLeaseById")).toBe(true);
    expect(isHiddenAuditField("assignee")).toBe(false);
    expect(isHiddenAuditField("stepIndex")).toBe(false);
  });
});

/** The actions lib/server records as literals, read from its sources (`action: "x.y"` in a recordAudit call). */
function recordedActions(): string[] {
  const root = path.resolve(__dirname, "../server");
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
  const found = new Set<string>();
  for (const f of files) {
    const text = readFileSync(path.join(root, f), "utf8");
    for (const call of text.split("recordAudit(").slice(1)) {
      for (const m of call.slice(0, 600).matchAll(/action: (?:[^"\n]*\? )?"([a-z_]+\.[a-zA-Z_.]+)"(?: : "([a-z_]+\.[a-zA-Z_.]+)")?/g)) {
        found.add(m[1]!);
        if (m[2]) found.add(m[2]);
      }
    }
  }
  return [...found].sort();
}

describe("every recorded action has a name in both languages", () => {
  const actions = recordedActions();

  it("finds the actions lib/server records", () => {
    expect(actions).toContain("step.annotate");
    expect(actions).toContain("comment.resolve");
    expect(actions.length).toBeGreaterThan(30);
  });

  it("names each of them", () => {
    // Recorded through a template (a job's `<prefix>.<event>`, a review's decision): listed by hand.
    const templated = ["export.fail", "import.fail", "model.job.takeover", "eval.run.finish", "review.approve", "review.reject"];
    for (const a of [...actions, ...templated]) {
      expect(auditActionName(a, en.t), a).not.toBe(a);
      expect(auditActionName(a, zh.t), a).not.toBe(a);
    }
  });
});
