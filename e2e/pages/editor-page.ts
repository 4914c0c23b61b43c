import { expect, type Locator, type Page } from "@playwright/test";
import type { StepAnnotation, TrajectoryAnnotation } from "@/lib/domain/annotation";
import type { Box, Point } from "@/lib/domain/geometry";
import { StepCanvasPart } from "./step-canvas";

type EngineState = {
  stepIndex: number;
  steps: { id: string; index: number; size: { width: number; height: number } }[];
  doc: { trajectory: TrajectoryAnnotation; steps: Record<string, StepAnnotation> };
  conflicts: Record<string, unknown>;
  isImageLoaded: boolean;
  isBoxSelected: boolean;
  tool: string;
};
type EditorWindow = { __studioEditor?: { state: () => EngineState; sync: () => { status: string } } };

/** The annotation editor, spoken to in intent: set a tap, draw a box, write a thought, submit. */
export class EditorPage {
  readonly canvas: StepCanvasPart;

  constructor(readonly page: Page) {
    this.canvas = new StepCanvasPart(page, page.getByRole("region", { name: "Screenshot" }));
  }

  async goto(id: string, step?: number) {
    await this.page.goto(`/trajectories/${id}${step ? `?step=${step}` : ""}`);
    await this.waitForScreenshot();
  }

  async waitForScreenshot() {
    await this.page.waitForFunction(() => (window as unknown as EditorWindow).__studioEditor?.state().isImageLoaded === true);
  }

  /** The engine's state (what is drawn and saved), read from the store rather than from pixels. */
  async state(): Promise<EngineState> {
    return this.page.evaluate(() => (window as unknown as EditorWindow).__studioEditor!.state());
  }

  async current(): Promise<StepAnnotation> {
    const s = await this.state();
    return s.doc.steps[s.steps[s.stepIndex]!.id]!;
  }

  get counter(): Locator {
    return this.page.getByRole("status", { name: "Step counter" });
  }

  get syncStatus(): Locator {
    return this.page.getByRole("status", { name: "Save status" });
  }

  field(label: "State" | "Next action" | "Purpose" | "Thought (composed)" | "Clear action"): Locator {
    // The accessible name starts with the label; any problem shown under the field follows it.
    const escaped = label.replace(/[()]/g, "\\$&");
    return this.page.getByRole("complementary", { name: "Step annotation" }).getByRole("textbox", { name: new RegExp(`^${escaped}`) });
  }

  async expectStep(n: number) {
    await expect(this.counter).toHaveText(new RegExp(`^Step ${n} / \\d+$`));
  }

  /** Leave any text field so plain-key shortcuts apply. */
  async leaveField() {
    await this.page.keyboard.press("Escape");
  }

  async press(key: string) {
    await this.page.keyboard.press(key);
  }

  async writeThought(parts: { state: string; nextAction: string; purpose: string }) {
    await this.field("State").fill(parts.state);
    await this.field("Next action").fill(parts.nextAction);
    await this.field("Purpose").fill(parts.purpose);
    await this.leaveField();
  }

  async writeClearAction(text: string) {
    await this.field("Clear action").fill(text);
    await this.leaveField();
  }

  /** Page coordinates of a point in original screenshot pixels, from where Konva drew the screenshot. */
  async toScreen(p: Point): Promise<Point> {
    return this.canvas.toPage(p);
  }

  /** Point tool, then a click on the screenshot: the step's action becomes a tap there. */
  async tapAt(p: Point) {
    await this.press("p");
    const [sx, sy] = await this.toScreen(p);
    await this.page.mouse.click(sx, sy);
  }

  /**
   * Box tool, then a drag from one corner to the other (original pixels). B selects the step's box, whose
   * handles resize and body moves; Esc drops that selection so the drag draws a new box wherever it starts.
   */
  async drawBox([x1, y1, x2, y2]: Box) {
    await this.press("b");
    await this.press("Escape");
    const [ax, ay] = await this.toScreen([x1, y1]);
    const [bx, by] = await this.toScreen([x2, y2]);
    await this.page.mouse.move(ax, ay);
    await this.page.mouse.down();
    await this.page.mouse.move((ax + bx) / 2, (ay + by) / 2, { steps: 4 });
    await this.page.mouse.move(bx, by, { steps: 4 });
    await this.page.mouse.up();
  }

  async setVerdict(v: "good" | "corrected" | "harmful" | "neutral") {
    await this.press({ good: "g", corrected: "c", harmful: "h", neutral: "n" }[v]);
  }

  async setOutcome(o: "Success" | "Failure") {
    await this.page.getByRole("group", { name: "Outcome" }).getByText(o, { exact: true }).click();
  }

  /** Make the current step complete: thought, clear action, a tap with its box, a verdict. */
  async completeStep(opts: { tap: Point; verdict: "good" | "corrected" | "harmful" | "neutral"; label: string }) {
    await this.writeThought({
      state: `Screen of ${opts.label}.`,
      nextAction: `Tap the ${opts.label} button.`,
      purpose: `To reach ${opts.label}.`,
    });
    await this.writeClearAction(`Tap the ${opts.label} button.`);
    await this.tapAt(opts.tap);
    const [x, y] = opts.tap;
    await this.drawBox([x - 40, y - 30, x + 40, y + 30]);
    await this.press("Escape");
    await this.setVerdict(opts.verdict);
  }

  async waitSaved() {
    await expect(this.syncStatus).toHaveText("Saved", { timeout: 10_000 });
  }

  get submitButton(): Locator {
    return this.page.getByRole("button", { name: "Submit for review" });
  }

  get mergeDialog(): Locator {
    return this.page.getByRole("dialog", { name: /was changed by someone else/ });
  }
}
