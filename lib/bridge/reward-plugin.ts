import { copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The Python port of rewards.ts, kept next to it so the vector test runs the file that ships. */
export const REWARD_PLUGIN_SOURCE = fileURLToPath(new URL("./reward_plugin.py", import.meta.url));
export const REWARD_PLUGIN_NAME = "trajectory_studio_rewards.py";

/** Write the dependency-free reward module into `outDir`; returns its path. */
export async function writeRewardPlugin(outDir: string): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const target = path.join(outDir, REWARD_PLUGIN_NAME);
  await copyFile(REWARD_PLUGIN_SOURCE, target);
  return target;
}
