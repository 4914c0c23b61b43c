import { describe, expect, it } from "vitest";
import { timeOrderedId } from "./ids";

describe("time-ordered row ids (UUID version 7)", () => {
  it("are UUIDs of version 7 and variant 10, with the current time in their first 48 bits", () => {
    const before = Date.now();
    const id = timeOrderedId();
    const after = Date.now();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ms = parseInt(id.replace(/-/g, "").slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    // Within one millisecond more than 4,096 ids borrow the next one: never far ahead of the clock.
    expect(ms).toBeLessThanOrEqual(after + 1);
  });

  it("sort in the order they were made and never repeat, also past 4,096 in one millisecond", () => {
    const ids = Array.from({ length: 100_000 }, () => timeOrderedId());
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) if (!(ids[i - 1]! < ids[i]!)) throw new Error(`${ids[i - 1]} then ${ids[i]} at ${i}`);
  });

  it("differ in their random part from one call to the next", () => {
    const tails = new Set(Array.from({ length: 1000 }, () => timeOrderedId().slice(19)));
    expect(tails.size).toBe(1000);
  });
});
