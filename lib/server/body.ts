import { LIMITS } from "@/lib/domain/limits";
import { AppError } from "./errors";

const fmt = (n: number) => n.toLocaleString("en-US");

function tooLarge(bytes: number | null, limit: number): AppError {
  return new AppError(
    "payload_too_large",
    `The request body is ${bytes === null ? "over" : `${fmt(bytes)} bytes; over`} the limit of ${fmt(limit)} bytes. Field limits (characters): thought ${fmt(LIMITS.thought)}, each thought part ${fmt(LIMITS.thoughtPart)}, clear action ${fmt(LIMITS.clearAction)}, comment ${fmt(LIMITS.comment)}.`,
    { limitBytes: limit, ...(bytes === null ? {} : { bytes }) },
  );
}

/**
 * The request body as text, read no further than `limit` bytes: a declared Content-Length over the
 * limit is refused before reading, and a body that runs past it (chunked, or lying) is cut off
 * there. Either way the answer is 413 and nothing is parsed.
 */
export async function readBoundedText(req: Request, limit: number = LIMITS.jsonBodyBytes): Promise<string> {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) throw tooLarge(Number(declared), limit);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(null, limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
