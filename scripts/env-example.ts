// `npm run env:example`: write .env.example from the one table of variables (lib/server/env.ts).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { envExample } from "@/lib/server/env";

const file = path.resolve(import.meta.dirname, "..", ".env.example");
writeFileSync(file, envExample());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
