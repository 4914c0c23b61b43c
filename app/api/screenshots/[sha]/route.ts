// GET /api/screenshots/:sha?variant=display|original: screenshot bytes, cached for good in the browser (content-addressed), never by shared caches
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { z } from "zod";
import { AppError } from "@/lib/server/errors";
import { authed } from "@/lib/server/http";
import { displayVariant, screenshotFile } from "@/lib/server/screenshot-store";
import { getScreenshot } from "@/lib/server/trajectories";

const paramsSchema = z.object({ sha: z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lower-case hex characters") });
const querySchema = z.object({ variant: z.enum(["display", "original"]).default("display") });

export const GET = authed(async (req: Request, ctx: { params: Promise<{ sha: string }> }, actor) => {
  const { sha } = paramsSchema.parse(await ctx.params);
  const { variant } = querySchema.parse({ variant: new URL(req.url).searchParams.get("variant") ?? undefined });
  const shot = await getScreenshot(sha, actor);
  const isDisplay = variant === "display";
  const file = isDisplay ? await displayVariant(sha, shot.mime) : screenshotFile(sha, shot.mime);
  if (!existsSync(file)) throw new AppError("not_found", `screenshot ${sha} is not in the store`);
  return new Response(new Uint8Array(await readFile(file)), {
    headers: { "Content-Type": isDisplay ? "image/webp" : shot.mime, "Cache-Control": "private, max-age=31536000, immutable" },
  });
});
