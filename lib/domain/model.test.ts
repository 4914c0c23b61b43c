import { describe, expect, it } from "vitest";
import { REFUSED_CHARACTER_MESSAGE } from "./limits";
import { saveModelSettingsInput } from "./model";

describe("model settings input", () => {
  const ok = { baseUrl: "http://127.0.0.1:8000/v1", model: "qwen", concurrency: 2, timeoutMs: 60_000 };

  it("accepts a plain endpoint", () => {
    expect(saveModelSettingsInput.safeParse({ ...ok, apiKey: "sk-1" }).success).toBe(true);
  });

  it("refuses NUL in the URL, the model name and the key, naming the field (PostgreSQL cannot store it)", () => {
    for (const [field, value] of [
      ["baseUrl", "http://127.0.0.1:8000/v1\u0000"],
      ["model", "qw\u0000en"],
      ["apiKey", "sk-\u0000"],
    ] as const) {
      const r = saveModelSettingsInput.safeParse({ ...ok, [field]: value });
      expect(r.success, field).toBe(false);
      expect(
        r.error!.issues.map((i) => [i.path.join("."), i.message]),
        field,
      ).toContainEqual([field, REFUSED_CHARACTER_MESSAGE]);
    }
  });
});
