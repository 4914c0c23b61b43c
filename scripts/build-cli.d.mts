export type BuildCliOptions = { root?: string; entry?: string; outDir?: string; quiet?: boolean };
export const EXTERNAL: string[];
export const CLI_DIR: string;
export function buildCli(options?: BuildCliOptions): Promise<string>;
export function freshCli(options?: BuildCliOptions): string | null;
export function cliEntry(options?: BuildCliOptions): Promise<string>;
