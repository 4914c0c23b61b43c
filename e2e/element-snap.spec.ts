import type { Page } from "@playwright/test";
import sharp from "sharp";
import { createHash } from "node:crypto";
import type { Box } from "@/lib/domain/geometry";
import type { TrajectoryView } from "@/lib/domain/views";
import { importViaApi } from "./datasets";
import { expect, test } from "./fixtures";
import { EditorPage } from "./pages/editor-page";

// The box tool snaps to the screen's own elements: a click inside them takes the smallest one under the
// point, `]` the one enclosing it, and Ctrl+Z takes each back in one step. Checked on the Konva nodes
// the canvas draws, on a UI-S1 step (candidate_bbox) and on a studio-format step (`elements`).

const RUN = `${Date.now()}`;
// A settings screen: a list, a row in it, the row's switch, and the row below.
const LIST: Box = [0, 300, 1080, 1500];
const ROW: Box = [0, 600, 1080, 800];
const SWITCH: Box = [880, 650, 1040, 750];
const OTHER_ROW: Box = [0, 800, 1080, 1000];

/** A 1080x2400 screenshot with the four elements painted on it, so a person looking at it sees what the boxes are. */
async function screenshot(seed: number): Promise<Buffer> {
  const rect = ([x1, y1, x2, y2]: Box, fill: string) => `<rect x="${x1}" y="${y1}" width="${x2 - x1}" height="${y2 - y1}" fill="${fill}"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="2400">
    <rect width="1080" height="2400" fill="rgb(${240 - (seed % 20)},244,248)"/>
    ${rect(LIST, "#ffffff")}${rect(ROW, "#e8f0fe")}${rect(OTHER_ROW, "#f1f3f4")}${rect(SWITCH, "#1a73e8")}
    <text x="48" y="720" font-size="56" font-family="sans-serif" fill="#202124">Wi-Fi</text>
    <text x="48" y="920" font-size="56" font-family="sans-serif" fill="#202124">Bluetooth</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Import one trajectory through the API as an admin would (an upload of the file and its screenshots), and assign it to the admin. */
async function seed(
  request: Parameters<typeof importViaApi>[0],
  baseURL: string,
  format: "ui-s1" | "studio",
  line: unknown,
  images: [string, Buffer][],
) {
  const form = new FormData();
  form.append("format", format);
  form.append("project", "element-snap");
  form.append("files", new Blob([`${JSON.stringify(line)}\n`]), "data.jsonl");
  for (const [name, bytes] of images) form.append("files", new Blob([new Uint8Array(bytes)]), name);
  expect((await importViaApi(request, baseURL, form)).state).toBe("succeeded");
  // The editor is its assignee's: the admin takes the work themselves, as the team's lead would.
  const goal = (line as { goal?: string; instruction?: string }).goal ?? (line as { instruction: string }).instruction;
  const list = (await (await request.get(`/api/trajectories?q=${encodeURIComponent(goal)}`)).json()) as { rows: { id: string }[] };
  expect(list.rows).toHaveLength(1);
  const assigned = await request.post("/api/assignments", {
    headers: { origin: baseURL },
    data: { trajectoryIds: [list.rows[0]!.id], assignee: "admin@studio.local" },
  });
  expect(assigned.status(), await assigned.text()).toBe(200);
}

/** The drawn boxes of one Konva node name, in original screenshot pixels (from the nodes and the screenshot's transform). */
async function drawnBoxes(page: Page, name: string): Promise<Box[]> {
  return page
    .getByRole("region", { name: "Screenshot" })
    .locator(".step-canvas-stage")
    .evaluate((host, nodeName) => {
      type KNode = {
        getAbsoluteTransform: () => { point: (p: { x: number; y: number }) => { x: number; y: number }; getMatrix: () => number[] };
        find: (sel: string) => KNode[];
        findOne: (sel: string) => KNode | undefined;
        width: () => number;
        height: () => number;
        container: () => HTMLElement;
      };
      const stage = (window as unknown as { Konva: { stages: KNode[] } }).Konva.stages.find((s) => host.contains(s.container()))!;
      const [scale, , , , x, y] = stage.findOne(".screenshot")!.getAbsoluteTransform().getMatrix() as [
        number,
        number,
        number,
        number,
        number,
        number,
      ];
      const toImage = (p: { x: number; y: number }) => [(p.x - x) / scale, (p.y - y) / scale];
      return stage.find(`.${nodeName}`).map((n) => {
        const t = n.getAbsoluteTransform();
        const [x1, y1] = toImage(t.point({ x: 0, y: 0 }));
        const [x2, y2] = toImage(t.point({ x: n.width(), y: n.height() }));
        // Stage pixels are floats: a box drawn from whole original pixels comes back within a hundredth of one.
        return [x1, y1, x2, y2].map((v) => Math.round(v! * 100) / 100) as Box;
      });
    }, name);
}

/** Open the trajectory as a person does: search the list, follow the link, wait for the screenshot. */
async function open(page: Page, editor: EditorPage, goal: string) {
  await page.goto(`/trajectories?q=${encodeURIComponent(goal)}`);
  await page.getByRole("table").getByRole("link", { name: goal }).click();
  await editor.waitForScreenshot();
}

async function clickAt(page: Page, editor: EditorPage, p: [number, number]) {
  const [x, y] = await editor.toScreen(p);
  await page.mouse.click(x, y);
}

test.use({ viewport: { width: 1280, height: 900 } });

test("UI-S1 step: a click with the box tool takes the element's box, ] its parent, Ctrl+Z the previous box @storage", async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  const goal = `Element snap ${RUN}: turn on Wi-Fi`;
  await seed(
    request,
    baseURL!,
    "ui-s1",
    {
      goal,
      is_successful: true,
      steps: [
        {
          // The model's target is the wrong row; the candidates are the screen's accessibility boxes.
          action_content: { action: "click", coordinate: [960, 700], bbox: OTHER_ROW },
          screenshot: `/device/snap${RUN}_0.png`,
          check_options: { candidate_bbox: [LIST, ROW, SWITCH, OTHER_ROW] },
        },
        { action_content: { action: "terminate", status: "success" }, screenshot: `/device/snap${RUN}_1.png` },
      ],
    },
    [
      [`snap${RUN}_0.png`, await screenshot(1)],
      [`snap${RUN}_1.png`, await screenshot(2)],
    ],
  );
  const editor = new EditorPage(page);
  await open(page, editor, goal);
  const corrected = () => drawnBoxes(page, "corrected-box");
  await expect.poll(corrected).toEqual([OTHER_ROW]);
  // The candidate boxes are still drawn grey.
  expect((await drawnBoxes(page, "candidate-box")).length).toBeGreaterThanOrEqual(3);

  await page.getByRole("toolbar", { name: "Tools" }).getByRole("button", { name: /^Box/ }).click();
  await expect(page.getByRole("toolbar", { name: "Tools" }).getByRole("button", { name: /^Box/ })).toHaveAttribute("aria-pressed", "true");
  // Hovering shows the element a click would take.
  const [hx, hy] = await editor.toScreen([950, 700]);
  await page.mouse.move(hx, hy);
  await expect.poll(() => drawnBoxes(page, "snap-hover")).toEqual([SWITCH]);

  // A click inside the switch (inside the row and the list too): the smallest, the switch.
  await clickAt(page, editor, [950, 700]);
  await expect.poll(corrected).toEqual([SWITCH]);
  await page.screenshot({ path: testInfo.outputPath("snapped.png") });

  // ] : the element enclosing it, the row.
  await editor.press("]");
  await expect.poll(corrected).toEqual([ROW]);
  // Ctrl+Z: back to the switch in one step, then to the imported box in one more.
  await editor.press("Control+z");
  await expect.poll(corrected).toEqual([SWITCH]);
  await editor.press("Control+z");
  await expect.poll(corrected).toEqual([OTHER_ROW]);

  // A drag still draws a freehand box.
  await editor.drawBox([100, 1100, 500, 1300]);
  await expect.poll(corrected).toEqual([[100, 1100, 500, 1300]]);

  // The snapped box is what gets saved.
  await editor.press("Control+z");
  await clickAt(page, editor, [950, 700]);
  await expect.poll(corrected).toEqual([SWITCH]);
  await page.evaluate(() => (window as unknown as { __studioEditor: { flush: () => Promise<void> } }).__studioEditor.flush());
  const id = new URL(page.url()).pathname.split("/").pop()!;
  const saved = (await (await request.get(`/api/trajectories/${id}`)).json()) as TrajectoryView;
  expect(saved.steps[0]!.box).toEqual(SWITCH);
});

test("studio step with elements: they are drawn, and the box snaps to them rather than to the candidate boxes @storage", async ({
  page,
  request,
  baseURL,
}) => {
  const goal = `Element snap ${RUN}: studio elements`;
  const png = await screenshot(3);
  const sha = createHash("sha256").update(png).digest("hex");
  const elements = [
    { bbox: LIST, class: "androidx.recyclerview.widget.RecyclerView" },
    { bbox: ROW, class: "android.widget.LinearLayout" },
    { bbox: [48, 650, 300, 760], text: "Wi-Fi", class: "android.widget.TextView", resource_id: "android:id/title" },
    { bbox: SWITCH, resource_id: "android:id/switch_widget" },
  ];
  const step = {
    index: 0,
    screenshot: { sha256: sha, width: 1080, height: 2400 },
    original: { toolCall: { action: "click", coordinate: [960, 700] } },
    thought: { state: "", nextAction: "", purpose: "", text: "" },
    clearAction: "",
    toolCall: { action: "click", coordinate: [960, 700] },
    box: null,
    // A candidate box that is no element: with an element list, the list is what the box snaps to.
    candidateBoxes: [[0, 640, 200, 770]],
    elements,
    verdict: "unreviewed",
  };
  await seed(
    request,
    baseURL!,
    "studio",
    { format: "trajectory-studio/v1", app: "Settings", instruction: goal, source: "studio", outcome: null, cutAfter: null, steps: [step] },
    [[`${sha}.png`, png]],
  );
  const editor = new EditorPage(page);
  await open(page, editor, goal);
  await expect.poll(() => drawnBoxes(page, "element-box")).toEqual(elements.map((e) => e.bbox));
  await editor.press("b");
  // Inside the label (and the candidate box): the label element, the smallest element there.
  await clickAt(page, editor, [100, 700]);
  await expect.poll(() => drawnBoxes(page, "corrected-box")).toEqual([[48, 650, 300, 760]]);
  await editor.press("]");
  await expect.poll(() => drawnBoxes(page, "corrected-box")).toEqual([ROW]);
  await editor.press("]");
  await expect.poll(() => drawnBoxes(page, "corrected-box")).toEqual([LIST]);
  await editor.press("[");
  await expect.poll(() => drawnBoxes(page, "corrected-box")).toEqual([ROW]);
});
