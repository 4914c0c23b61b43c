import { z } from "zod";
import { boxSchema } from "./geometry";
import { LIMITS, text } from "./limits";

/**
 * One element of the screen a step was taken on (a node of the accessibility tree), as a studio-format
 * import gives it: `bbox` [x1, y1, x2, y2] in ORIGINAL screenshot pixels (it may reach past the screen's
 * edge, as a scrolled list's nodes do), and the node's text, resource id and class when known.
 * Imported screen data: never edited, exported back unchanged. Strict, so a key the studio would not
 * keep is refused at import instead of silently dropped from the export.
 */
export const screenElementSchema = z
  .object({
    bbox: boxSchema,
    text: text("elementText").optional(),
    resource_id: text("elementResourceId").optional(),
    class: text("elementClass").optional(),
  })
  .strict();
export type ScreenElement = z.infer<typeof screenElementSchema>;

/** A step's element list, at most LIMITS.elementsPerStep long. */
export const screenElementsSchema = z
  .array(screenElementSchema)
  .max(LIMITS.elementsPerStep, `must have at most ${LIMITS.elementsPerStep.toLocaleString("en-US")} elements`);
