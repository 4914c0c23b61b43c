import { LIMITS } from "@/lib/domain/limits";
import { appError, type AppError } from "../errors";

const fmt = (n: number) => n.toLocaleString("en-US");

function tooLarge(bytes: number | null, limit: number): AppError {
  const fields = {
    limit: fmt(limit),
    thought: fmt(LIMITS.thought),
    thoughtPart: fmt(LIMITS.thoughtPart),
    clearAction: fmt(LIMITS.clearAction),
    comment: fmt(LIMITS.comment),
  };
  return bytes === null
    ? appError("payload_too_large", "error.bodyOverLimit", fields, { limitBytes: limit })
    : appError("payload_too_large", "error.bodyTooLarge", { ...fields, bytes: fmt(bytes) }, { limitBytes: limit, bytes });
}

/**
 * Read and drop the rest of a body nobody wants, up to LIMITS.drainBodyBytes in all (`seen` counts what
 * was read already), then stop reading (which closes the connection). Why: an HTTP server that answers
 * while the client is still sending, then stops reading, leaves the client's upload stalled until the
 * connection is closed under it, and the client shows a network error instead of the answer.
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, seen = 0): Promise<void> {
  try {
    for (let total = seen; total <= LIMITS.drainBodyBytes;) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away meanwhile: nothing left to drain.
  }
}

/**
 * Drop what is left of a request's body (bounded as above) before it is answered: a no-op when the
 * body was read (or there is none). route() calls it with every answer, so an early answer (401, 404,
 * 413) reaches a client that is still sending, through the API lane and Next alike.
 */
export async function discardBody(req: Request): Promise<void> {
  if (!req.body || req.bodyUsed || req.body.locked) return;
  await drain(req.body.getReader());
}

/**
 * The request body as text, read no further than `limit` bytes: a declared Content-Length over the
 * limit is refused without keeping any of it, and a body that runs past it (chunked, or lying) is
 * cut off there. Either way the answer is 413 and nothing is parsed; the rest of the body is read and
 * dropped first (up to LIMITS.drainBodyBytes) so the 413 reaches the client.
 */
export async function readBoundedText(req: Request, limit: number = LIMITS.jsonBodyBytes): Promise<string> {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    await discardBody(req);
    throw tooLarge(Number(declared), limit);
  }
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await drain(reader, total);
      throw tooLarge(null, limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
