// Prisma's namespace (the sql tag, raw, the error classes and every input type) without a database client.
// Imported from here rather than from a generated client: generated/<dialect>/client.ts builds that dialect's
// client class when it is evaluated (its schema, its query compiler's settings), and db.ts loads only the
// dialect DATABASE_URL names. The namespace's values come from Prisma's runtime, the same for both dialects
// (an error thrown by the PostgreSQL client is an instance of these classes too).
export * as Prisma from "../generated/sqlite/internal/prismaNamespace";
