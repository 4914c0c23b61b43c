import { z } from "zod";

// A person's own studio settings, stored on the server so they follow the person to another
// browser (issue 21, item 7). Every key is optional: a key nobody set yet means "the default".
// The keys and their ranges are bounded here, once, for the route, the client and the tests.

/** Side panel (step form) width in CSS pixels: narrow enough to keep the screenshot readable at 1280 px. */
export const SIDE_PANEL_WIDTH = { min: 300, max: 720, default: 400 } as const;

export const personSettingsSchema = z
  .object({
    /** Width of the editor's step form beside the canvas, CSS pixels. */
    sidePanelWidth: z.number().int().min(SIDE_PANEL_WIDTH.min).max(SIDE_PANEL_WIDTH.max),
    /** The canvas's legend and zoom column is folded to a narrow strip. */
    isLegendCollapsed: z.boolean(),
    /** The next step's screenshot is shown beside the current one. */
    isNextScreenShown: z.boolean(),
    /** The review page lists changed steps in full and every unchanged step as one line. */
    isReviewCompact: z.boolean(),
    /** A verdict key (good, harmful…) also moves on to the next step. */
    verdictAdvances: z.boolean(),
  })
  .partial()
  .strict();
export type PersonSettings = z.infer<typeof personSettingsSchema>;

/** PUT /api/me/settings: the keys to change; a key left out keeps its stored value. */
export const savePersonSettingsInput = personSettingsSchema;
export type SavePersonSettingsInput = z.infer<typeof savePersonSettingsInput>;

export const personSettingsAnswer = z.object({ settings: personSettingsSchema });
export type PersonSettingsAnswer = z.infer<typeof personSettingsAnswer>;

/**
 * What is stored, read leniently: a key whose value no longer fits (an older range, a removed key)
 * is dropped rather than making the person's whole settings unreadable.
 */
export function readStoredSettings(json: string): PersonSettings {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return {};
  }
  if (!raw || typeof raw !== "object") return {};
  const out: Record<string, unknown> = {};
  const shape = personSettingsSchema.shape;
  for (const [key, value] of Object.entries(raw)) {
    if (!(key in shape)) continue;
    const field = shape[key as keyof typeof shape];
    if (field.safeParse(value).success) out[key] = value;
  }
  return out as PersonSettings;
}
