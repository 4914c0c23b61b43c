// The upload's multipart reader (busboy underneath): fields and files as a browser sends them, and a clear
// error for each way a body can be wrong.
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors/errors";
import { receiveMultipart } from "./multipart";

const BOUNDARY = "----studio-test-boundary";
const part = (headers: string, body: string | Buffer) =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\n${headers}\r\n\r\n`),
    Buffer.isBuffer(body) ? body : Buffer.from(body),
    Buffer.from("\r\n"),
  ]);
const request = (body: Buffer, type = `multipart/form-data; boundary=${BOUNDARY}`) =>
  new Request("http://127.0.0.1/api/imports", { method: "POST", headers: { "content-type": type }, body: new Uint8Array(body) });
const dir = () => mkdtempSync(path.join(os.tmpdir(), "multipart-"));

async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return (e as AppError).message;
}

describe("receiveMultipart", () => {
  it("collects fields and streams files to disk under their UTF-8 names; an empty file input is skipped", async () => {
    const body = Buffer.concat([
      part('Content-Disposition: form-data; name="format"', "ui-s1"),
      part(
        'Content-Disposition: form-data; name="files"; filename="设置 data.jsonl"\r\nContent-Type: application/octet-stream',
        '{"goal":"x"}\n',
      ),
      part('Content-Disposition: form-data; name="files"; filename="a.png"', Buffer.from([0x89, 0x50, 0x4e, 0x47])),
      part('Content-Disposition: form-data; name="more"; filename=""', ""),
      Buffer.from(`--${BOUNDARY}--\r\n`),
    ]);
    const r = await receiveMultipart(request(body), dir());
    // An empty file input arrives as an empty text field, never as a file.
    expect(r.fields).toEqual({ format: "ui-s1", more: "" });
    expect(r.files.map((f) => [f.name, f.bytes])).toEqual([
      ["设置 data.jsonl", 13],
      ["a.png", 4],
    ]);
    expect(readFileSync(r.files[0]!.file, "utf8")).toBe('{"goal":"x"}\n');
  });

  it("a body that stops before its closing boundary is 'ended early'", async () => {
    const body = Buffer.concat([part('Content-Disposition: form-data; name="files"; filename="d.jsonl"', "abc")]).subarray(0, 80);
    expect(await refusal(receiveMultipart(request(body), dir()))).toBe("The upload ended early; try again.");
  });

  it("no multipart type, or no boundary, asks for multipart/form-data", async () => {
    expect(await refusal(receiveMultipart(request(Buffer.from("x"), "application/json"), dir()))).toBe(
      "Send the upload as multipart/form-data.",
    );
    expect(await refusal(receiveMultipart(request(Buffer.from("x"), "multipart/form-data"), dir()))).toBe(
      "Send the upload as multipart/form-data.",
    );
  });

  it("a field longer than the limit is named", async () => {
    const body = Buffer.concat([
      part('Content-Disposition: form-data; name="project"', "p".repeat(20_000)),
      Buffer.from(`--${BOUNDARY}--\r\n`),
    ]);
    expect(await refusal(receiveMultipart(request(body), dir()))).toBe('form field "project" is too long');
  });

  it("too many fields are refused", async () => {
    const fields = Array.from({ length: 60 }, (_, i) => part(`Content-Disposition: form-data; name="f${i}"`, "x"));
    const body = Buffer.concat([...fields, Buffer.from(`--${BOUNDARY}--\r\n`)]);
    expect(await refusal(receiveMultipart(request(body), dir()))).toBe("the form has more than 50 fields");
  });
});
