// The bench's baseline: the least work any import or export must do over the same data: read every
// JSONL line, parse it, and hash every screenshot file once.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";

const dir = process.argv[2]!;
let steps = 0;
for await (const line of createInterface({ input: createReadStream(path.join(dir, "data.jsonl"), "utf8") })) {
  const t = JSON.parse(line) as { trajectory: { image: string }[] };
  for (const s of t.trajectory) {
    const h = createHash("sha256");
    for await (const chunk of createReadStream(path.join(dir, "images", s.image))) h.update(chunk as Buffer);
    h.digest();
    steps += 1;
  }
}
console.log(`${steps} steps read`);
