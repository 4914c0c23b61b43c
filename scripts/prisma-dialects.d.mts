export const ROOT: string;
export const DIALECTS: ("sqlite" | "postgresql")[];
export function schemaFor(dialect: "sqlite" | "postgresql", opts?: { url?: string; output?: string }): string;
export function diffSql(dialect: "sqlite" | "postgresql", fromSchemaFile?: string | null): { sql: string; target: string };
