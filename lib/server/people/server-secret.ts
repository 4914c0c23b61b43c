import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir, env } from "../env";

/**
 * The server's secret: BETTER_AUTH_SECRET, or (a single machine without it, e.g. the demo) one made
 * once and kept in the data dir as `auth-secret` (mode 600). It signs session cookies and is the root
 * of the key that encrypts the model endpoint's API key at rest.
 */
export function serverSecret(): string {
  const secret = env().BETTER_AUTH_SECRET;
  if (secret) return secret;
  const file = path.join(dataDir(), "auth-secret");
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (e) {
      // Another process made it between the check and the write: use theirs.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  return readFileSync(file, "utf8").trim();
}

/** The prefix of an encrypted value: version 1 is AES-256-GCM under an HKDF-SHA256 key from the server secret. */
export const SEALED_PREFIX = "enc:v1:";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The AES key for one purpose: HKDF-SHA256 over the server secret, so the secret itself never encrypts anything. */
function derivedKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.from("trajectory-studio"), Buffer.from(purpose), 32));
}

/** Is this stored text an encrypted value (as opposed to a plaintext one saved before encryption)? */
export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX);
}

/**
 * Encrypt `plain` for storage: `enc:v1:` + base64url(iv ‖ tag ‖ ciphertext), a fresh 96-bit IV each
 * time. `purpose` is bound into the key, so a value sealed for one use does not open as another.
 */
export function seal(plain: string, purpose: string, secret: string = serverSecret()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", derivedKey(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/**
 * Decrypt a value made by `seal`; null when it does not open with this secret (the secret changed
 * since it was sealed, or the text was altered): the caller says what to do then.
 */
export function unseal(stored: string, purpose: string, secret: string = serverSecret()): string | null {
  if (!isSealed(stored)) return null;
  const raw = Buffer.from(stored.slice(SEALED_PREFIX.length), "base64url");
  if (raw.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", derivedKey(secret, purpose), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
