import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { framePair, toOriginalPoint, type Box, type Point, type Size } from "@/lib/domain/geometry";
import { composeThought, type ThoughtParts } from "@/lib/domain/thought";
import { formatMobileUseCall } from "@/lib/domain/tool-call";
import { mobileR1Response } from "@/lib/domain/prompt";
import type { MobileR1DemoLine } from "./generate";

/**
 * The two REAL screenshots of the Qwen2.5-VL mobile agent cookbook as a tiny Mobile-R1 dataset:
 * one click step each, with the model's click converted from its resized frame (1092x2408,
 * 728x1288) to original pixels. The boxes were measured on the screenshots (original pixels).
 */
type CookbookSample = {
  file: string;
  app: string;
  instruction: string;
  size: Size;
  /** The model's click, in the smart-resized frame it saw. */
  resizedClick: Point;
  bbox: Box;
  thought: ThoughtParts;
  subtask: string;
};

const SAMPLES: CookbookSample[] = [
  {
    file: "mobile_en_example.png",
    app: "File Manager",
    instruction: "Open the file manager app and view the au_uu_SzH3yR2.mp3 file in MUSIC Folder",
    size: { width: 1080, height: 2400 },
    resizedClick: [935, 406],
    bbox: [860, 316, 990, 500],
    thought: {
      state: "The File Manager home screen is open; the category shortcuts at the top include Music",
      nextAction: "Tap the Music category",
      purpose: "To open the MUSIC folder that holds au_uu_SzH3yR2.mp3",
    },
    subtask: "Tap the Music icon in the top row",
  },
  {
    file: "mobile_zh_example.png",
    app: "盒马",
    instruction: "在盒马中,打开购物车，结算（到付款页面即可）",
    size: { width: 720, height: 1280 },
    resizedClick: [639, 1095],
    bbox: [558, 1058, 704, 1119],
    thought: {
      state: "当前已在盒马的购物车页面，右下角有蓝色的“结算”按钮",
      nextAction: "点击“结算”",
      purpose: "以便进入付款页面",
    },
    subtask: "点击右下角的结算按钮",
  },
];

const round1 = (v: number) => Math.round(v * 10) / 10;

export async function writeCookbookDataset(outDir: string, samplesDir: string): Promise<void> {
  await mkdir(path.join(outDir, "images"), { recursive: true });
  const lines: MobileR1DemoLine[] = [];
  for (const s of SAMPLES) {
    await copyFile(path.join(samplesDir, s.file), path.join(outDir, "images", s.file));
    const [x, y] = toOriginalPoint(s.resizedClick, framePair(s.size));
    const call = { action: "click" as const, coordinate: [round1(x), round1(y)] as [number, number] };
    const action = formatMobileUseCall(call);
    const thought = composeThought(s.thought);
    lines.push({
      app_name: s.app,
      trajectory_length: 1,
      instruction: s.instruction,
      system: "Qwen2.5-VL mobile agent cookbook example (Apache-2.0); the click is the model's, converted to original pixels.",
      image_width: s.size.width,
      image_height: s.size.height,
      trajectory: [
        { image: s.file, thought, subtask: s.subtask, action, response: mobileR1Response(thought, s.subtask, call), bbox: s.bbox },
      ],
    });
  }
  const license = path.join(samplesDir, "LICENSE");
  if (existsSync(license)) await copyFile(license, path.join(outDir, "LICENSE"));
  await writeFile(path.join(outDir, "data.jsonl"), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}
