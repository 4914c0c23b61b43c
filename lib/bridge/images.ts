import { copyFile, link, mkdir, readFile, stat } from "node:fs/promises";
import path from "node:path";

/** Folder, inside the bridge output folder, that holds the screenshots its rows refer to. */
export const IMAGES_DIR = "images";

/**
 * How rows refer to their screenshots, so that the trainer's own loader opens them wherever the
 * output folder is copied:
 * - default: `images/<sha256>.png`, relative to the output folder, which carries the files (hard
 *   links where the file system allows, copies otherwise). Each trainer resolves it against a root
 *   it is told: ms-swift ROOT_IMAGE_DIR, LLaMA-Factory media_dir (default dataset_dir), verl and
 *   UI-S1 the working directory.
 * - `imageRoot`: `<imageRoot>/images/<sha256>.png`, a plain absolute path (never a file:// URL,
 *   never percent-encoded: qwen-vl-utils opens `url[7:]` as it is) for where the folder will be
 *   on the training machine.
 * Paths are written as they are, spaces and CJK included: every loader hands them to open().
 */
export type ImageRefOptions = { outDir: string; imageRoot?: string };

export class ImageFolder {
  private readonly placed = new Map<string, Promise<void>>();
  files = 0;
  bytes = 0;

  constructor(private readonly opts: ImageRefOptions) {}

  /** Place `absSource` (a screenshot of the export) in the output folder and return how rows refer to it. */
  async ref(absSource: string): Promise<string> {
    const name = path.basename(absSource);
    let done = this.placed.get(name);
    if (!done) {
      done = this.place(absSource, name);
      this.placed.set(name, done);
    }
    await done;
    const rel = `${IMAGES_DIR}/${name}`;
    return this.opts.imageRoot ? joinRoot(this.opts.imageRoot, rel) : rel;
  }

  private async place(from: string, name: string): Promise<void> {
    const dir = path.join(this.opts.outDir, IMAGES_DIR);
    await mkdir(dir, { recursive: true });
    const to = path.join(dir, name);
    // Names are content hashes: a file already there holds the same bytes.
    const existing = await stat(to).catch(() => null);
    if (!existing) {
      try {
        await link(from, to);
      } catch {
        await copyFile(from, to);
      }
    }
    this.files += 1;
    this.bytes += (await stat(to)).size;
  }
}

/** `<root>/<rel>` with forward slashes, the root kept exactly as given (no trailing slash doubled). */
export function joinRoot(root: string, rel: string): string {
  return `${root.replace(/\/+$/, "")}/${rel}`;
}

/** The bytes of a screenshot, for trainers that take images embedded in the data file. */
export async function imageBytes(absSource: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(absSource));
}
