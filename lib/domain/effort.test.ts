import { describe, expect, it } from "vitest";
import { ActiveClock, IDLE_AFTER_MS, median } from "./effort";

describe("active time", () => {
  it("counts the gaps between input events on the step that was on screen, and nothing for a gap over a minute", () => {
    const c = new ActiveClock();
    c.event(0, "s1");
    c.event(10_000, "s1");
    c.event(25_000, "s2"); // 15 s more on s1, then s2 is on screen
    c.event(25_000 + 90_000, "s2"); // 90 s idle on s2: not counted
    c.event(25_000 + 90_000 + 5_000, "s2");
    expect(Object.fromEntries(c.take())).toEqual({ s1: 25_000, s2: 5_000 });
    expect(c.take().size).toBe(0);
  });

  it("a gap of exactly the idle limit still counts; hidden or unfocused time never does", () => {
    const c = new ActiveClock();
    c.event(0, "s1");
    c.event(IDLE_AFTER_MS, "s1");
    c.pause();
    c.event(IDLE_AFTER_MS + 30_000, "s1"); // after a pause: a new span, the 30 s away are not counted
    c.event(IDLE_AFTER_MS + 31_000, "s1");
    expect(c.take().get("s1")).toBe(IDLE_AFTER_MS + 1_000);
  });

  it("a clock that goes backwards counts nothing", () => {
    const c = new ActiveClock();
    c.event(10_000, "s1");
    c.event(5_000, "s1");
    expect(c.take().size).toBe(0);
  });

  it("median", () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
