import { expect, type Locator, type Page } from "@playwright/test";
import type { OverlayShape } from "@/lib/canvas/overlay";
import type { ToolCall } from "@/lib/domain/tool-call";

/** What the viewer exposes on window.__studio for tests. */
export type StudioState = {
  trajectoryId: string;
  stepIndex: number;
  stepCount: number;
  toolCall: ToolCall;
  screenshot: { sha256: string; width: number; height: number };
  overlay: OverlayShape[];
  scale: number;
  isImageLoaded: boolean;
};

/** The read-only step viewer. */
export class StepViewerPage {
  constructor(readonly page: Page) {}

  async goto(id: string, step?: number) {
    await this.page.goto(`/trajectories/${id}${step ? `?step=${step}` : ""}`);
    await this.waitForScreenshot();
  }

  get counter(): Locator {
    return this.page.getByRole("status", { name: "Step counter" });
  }

  get instruction(): Locator {
    return this.page.getByRole("heading", { level: 1 });
  }

  async expectStep(n: number, of?: number) {
    await expect(this.counter).toHaveText(of ? `Step ${n} / ${of}` : new RegExp(`^Step ${n} / \\d+$`));
    await expect(this.page).toHaveURL(new RegExp(`[?&]step=${n}(&|$)`));
  }

  async press(key: string) {
    await this.page.keyboard.press(key);
  }

  async waitForScreenshot() {
    await this.page.waitForFunction(() => (window as unknown as { __studio?: { isImageLoaded?: boolean } }).__studio?.isImageLoaded === true);
  }

  async state(): Promise<StudioState> {
    return this.page.evaluate(() => (window as unknown as { __studio: StudioState }).__studio);
  }

  thumbnail(n: number): Locator {
    return this.page.getByRole("navigation", { name: "Steps" }).getByRole("button", { name: new RegExp(`^Step ${n}:`) });
  }
}
