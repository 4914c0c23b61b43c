// GET /api/screenshots/:sha?variant=display|original: screenshot bytes, cached for good in the browser (content-addressed), never by shared caches
import { screenshotParams, screenshotQuery } from "@/lib/domain/views";
import { route } from "@/lib/server/http";
import { openScreenshot } from "@/lib/server/object-store";
import { getScreenshot } from "@/lib/server/annotate";

export const GET = route({
  permission: "trajectory.read",
  params: screenshotParams,
  query: screenshotQuery,
  output: "raw",
  handler: async ({ actor, params, query }) => {
    const shot = await getScreenshot({ actor, sha256: params.sha });
    // Streamed from the store (local folder or S3 bucket), never held whole in memory (Next sends it chunked).
    const { body, contentType } = await openScreenshot(params.sha, shot.mime, query.variant);
    return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "private, max-age=31536000, immutable" } });
  },
});
