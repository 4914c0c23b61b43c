// Errors reach a person in their language: the signed-in person's stored locale for API calls, the
// browser's Accept-Language before sign-in. Real routes, a real temporary database.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR } from "../people/audit";
import { z } from "zod";
import { AppError, appError } from "../errors/errors";
import { errorResponse } from "./respond";
import { createUser, updateUser } from "../people";
import { freshStudio } from "../testing/fixtures";
import { createToken } from "../people/tokens";
import type { Db } from "../db";

type Handler = (req: Request, ctx: unknown) => Promise<Response>;
const route = async (file: string, method: string) =>
  ((await import(pathToFileURL(path.resolve("app/api", file, "route.ts")).href)) as Record<string, Handler>)[method]!;

async function message(res: Response): Promise<string> {
  return ((await res.json()) as { error: { message: string } }).error.message;
}

async function body(res: Response): Promise<{ message: string; detail?: string }> {
  return ((await res.json()) as { error: { message: string; detail?: string } }).error;
}

/** Latin-script words: a Chinese answer's sentence has none (its detail line may). */
const latin = (s: string) => s.match(/[A-Za-z]{2,}/g) ?? [];

describe("error messages in the person's language", () => {
  let db: Db;
  let zhToken: string;
  let enToken: string;
  beforeAll(async () => {
    ({ db } = await freshStudio());
    await createUser({ actor: CLI_ACTOR, email: "li@example.com", role: "annotator", password: "password-123" }, db);
    await updateUser({ actor: CLI_ACTOR, id: "li@example.com", locale: "zh" }, db);
    await createUser({ actor: CLI_ACTOR, email: "ann@example.com", role: "annotator", password: "password-123" }, db);
    zhToken = (await createToken({ actor: CLI_ACTOR, user: "li@example.com", name: "t" }, db)).token;
    enToken = (await createToken({ actor: CLI_ACTOR, user: "ann@example.com", name: "t" }, db)).token;
  });

  it("a missing trajectory reads in Chinese for a person who chose Chinese, in English for the others", async () => {
    const submit = await route("trajectories/[id]/submit", "POST");
    const ask = (token: string) =>
      submit(
        new Request("http://127.0.0.1:3000/api/trajectories/nope/submit", {
          method: "POST",
          headers: { authorization: `Bearer ${token}` },
        }),
        { params: Promise.resolve({ id: "nope" }) },
      );
    const zh = await ask(zhToken);
    expect(zh.status).toBe(404);
    expect(await message(zh)).toBe("轨迹 nope 不存在");
    expect(await message(await ask(enToken))).toBe("trajectory nope does not exist");
  });

  it("before sign-in the browser's language decides", async () => {
    const get = await route("stats", "GET");
    const zh = await get(new Request("http://127.0.0.1:3000/api/stats", { headers: { "accept-language": "zh-CN,zh;q=0.9,en;q=0.8" } }), {});
    expect(zh.status).toBe(401);
    expect(await message(zh)).toMatch(/^请先登录/);
    const en = await get(new Request("http://127.0.0.1:3000/api/stats", { headers: { "accept-language": "en-GB" } }), {});
    expect(await message(en)).toMatch(/^Sign in/);
  });

  it("placeholders and nested messages are translated; unexpected errors stay generic", async () => {
    const e = appError("conflict", "error.notEditable", { status: { key: "status.submitted" } });
    expect(e.message).toBe("This trajectory is “Submitted”; it can be edited again once a reviewer sends it back.");
    expect(await message(errorResponse(e, "zh"))).toBe("此轨迹当前为“已提交”；审核员退回后才能再次编辑。");
    const quiet = console.error;
    console.error = () => {};
    try {
      expect(await message(errorResponse(new Error("db exploded at /var/secret"), "zh"))).toBe("服务器出错了，错误已记录。");
    } finally {
      console.error = quiet;
    }
  });

  it("an error the catalogue does not word yet answers a Chinese reader in Chinese, the English sentence on its own detail line", async () => {
    const e = new AppError("conflict", "export exp-1 is still running; wait for it to finish");
    const zh = await body(errorResponse(e, "zh"));
    expect(zh.message).toBe("与当前状态冲突；请刷新后重试。");
    expect(zh.detail).toBe("export exp-1 is still running; wait for it to finish");
    // English readers get the sentence itself, once.
    expect(await body(errorResponse(e, "en"))).toEqual({
      code: "conflict",
      message: "export exp-1 is still running; wait for it to finish",
    });
  });

  it("a refused input names the problem in Chinese; zod's English words go to the detail line, not into the sentence", async () => {
    const parsed = z.object({ instruction: z.string().min(3) }).safeParse({ instruction: "a" });
    const zh = await body(errorResponse(parsed.error, "zh"));
    expect(zh.message).toBe("输入无效。");
    expect(latin(zh.message)).toEqual([]);
    expect(zh.detail).toMatch(/^instruction: /);
    expect(await message(errorResponse(parsed.error, "en"))).toMatch(/^instruction: /);
  });

  it("a model endpoint's words never sit inside the studio's sentence: they are the detail", async () => {
    const e = new AppError(
      "bad_gateway",
      "The model endpoint answered HTTP 500. The endpoint said: “boom”",
      { reason: "status", status: 500 },
      { key: "model.error.status", vars: { status: 500 } },
      "boom (fake 500).",
    );
    for (const locale of ["zh", "en"] as const) {
      const b = await body(errorResponse(e, locale));
      expect(b.detail).toBe("boom (fake 500).");
      expect(b.message).not.toContain("boom");
      expect(b.message).not.toMatch(/[（(].*[）)]/);
    }
    expect(latin((await body(errorResponse(e, "zh"))).message).filter((w) => w !== "HTTP")).toEqual([]);
  });
});
