import { expect, type Locator, type Page } from "@playwright/test";
import { StepCanvasPart } from "./step-canvas";

/** The read-only step viewer. */
export class StepViewerPage {
  readonly canvas: StepCanvasPart;

  constructor(readonly page: Page) {
    this.canvas = new StepCanvasPart(page, page.getByRole("region", { name: "Screenshot" }));
  }

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

  get panel(): Locator {
    return this.page.getByRole("complementary", { name: "Step details" });
  }

  async expectStep(n: number, of?: number) {
    await expect(this.counter).toHaveText(of ? `Step ${n} / ${of}` : new RegExp(`^Step ${n} / \\d+$`));
    await expect(this.page).toHaveURL(new RegExp(`[?&]step=${n}(&|$)`));
  }

  async press(key: string) {
    await this.page.keyboard.press(key);
  }

  /** The screenshot is drawn on the Konva stage (read from its nodes). */
  async waitForScreenshot() {
    await this.canvas.waitForScreenshot();
  }

  thumbnail(n: number): Locator {
    return this.page.getByRole("navigation", { name: "Steps" }).getByRole("button", { name: new RegExp(`^Step ${n}:`) });
  }
}
