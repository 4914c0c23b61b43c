import { ESLint } from "eslint"; import path from "node:path";
const ROOT = process.cwd();
const eslint = new ESLint({ cwd: ROOT, overrideConfig: { languageOptions: { parserOptions: { projectService: false } }, rules: { "@typescript-eslint/no-floating-promises": "off", "@typescript-eslint/no-misused-promises": "off" } } });
const [r] = await eslint.lintText('import { recordAudit } from "../people/audit";\nexport const x = recordAudit;\n', { filePath: path.join(ROOT, "lib/server/review/probe.ts") });
console.log(r.messages);
