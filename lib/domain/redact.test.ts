// What an endpoint's error may carry back and must not reach a person: the configured key, anything
// shaped like a credential, URL credentials; and which base URLs are refused before a key travels.
import { describe, expect, it } from "vitest";
import { modelUrlProblem, redactSecrets } from "./redact";

describe("redactSecrets", () => {
  it("removes the configured key wherever it appears, and credential shapes whoever configured them", () => {
    const key = "my-private-key-123";
    expect(redactSecrets(`bad key my-private-key-123 (you sent my-private-key-123)`, [key])).toBe(
      "bad key [redacted] (you sent [redacted])",
    );
    expect(redactSecrets("Authorization: Bearer abc.DEF-123_x")).toBe("Authorization: Bearer [redacted]");
    expect(redactSecrets("basic dXNlcjpwYXNz")).toBe("basic [redacted]");
    expect(redactSecrets("Incorrect API key provided: sk-proj-AbC123xyz789.")).toBe("Incorrect API key provided: [redacted].");
    expect(redactSecrets("upstream http://admin:hunter2@10.0.0.5:8000/v1 failed")).toBe(
      "upstream http://[redacted]@10.0.0.5:8000/v1 failed",
    );
    expect(redactSecrets('{"api_key": "k-99887766"} token=abcdef password: pw1')).toBe(
      '{"api_key": "[redacted]"} token=[redacted] password: [redacted]',
    );
  });

  it("leaves ordinary text alone, and does not search for secrets too short to be keys", () => {
    expect(redactSecrets("The model `qwen` does not exist.", ["abc", "", null])).toBe("The model `qwen` does not exist.");
  });
});

describe("modelUrlProblem", () => {
  it("accepts http(s) base URLs and refuses credentials, fragments, queries and other schemes", () => {
    expect(modelUrlProblem("http://gpu-host:8000/v1")).toBeNull();
    expect(modelUrlProblem("https://api.example.org/v1/")).toBeNull();
    expect(modelUrlProblem("http://user:pw@gpu-host:8000/v1")).toMatch(/user name or password/);
    expect(modelUrlProblem("http://user@gpu-host:8000/v1")).toMatch(/user name or password/);
    expect(modelUrlProblem("http://gpu-host:8000/#")).toMatch(/fragment/);
    expect(modelUrlProblem("http://gpu-host:8000/v1?x=1")).toMatch(/query/);
    expect(modelUrlProblem("file:///etc/passwd")).toMatch(/http/);
    expect(modelUrlProblem("not a url")).toMatch(/http/);
  });
});
