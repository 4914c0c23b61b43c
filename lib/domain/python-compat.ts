/**
 * The few pieces of CPython semantics that UI-S1's reward and SOP code depend on, so that
 * lib/domain/ui-s1-reward.ts can give the same answer as the Python on every input:
 * - `json.loads` (the C scanner, strict mode): accepts NaN / Infinity / -Infinity, keeps integers
 *   exact, refuses integers of more than 4300 digits, fails on nesting deeper than the interpreter's
 *   recursion limit;
 * - `str.strip()` (Unicode whitespace as `str.isspace()` sees it), `in` on strings (code points),
 *   `len` (code points);
 * - true division of a JSON value by an integer (bool counts as int; str, list, dict, None raise).
 * Anything Python would raise is thrown as a PyError; callers map that to UI-S1's `except:` branches.
 */

/** What Python raised (the name is for messages and tests only). */
export class PyError extends Error {
  constructor(
    readonly pyType:
      | "TypeError"
      | "KeyError"
      | "IndexError"
      | "ValueError"
      | "OverflowError"
      | "ZeroDivisionError"
      | "RecursionError"
      | "JSONDecodeError"
      | "NotImplementedError"
      | "AttributeError",
    message: string,
  ) {
    super(`${pyType}: ${message}`);
  }
}

/** A Python int too large for a double to hold exactly. */
export class PyBigInt {
  constructor(readonly value: bigint) {}
}

/** A decoded JSON value as Python holds it: dicts are Maps (no prototype surprises), big ints exact. */
export type PyValue = null | boolean | number | PyBigInt | string | PyValue[] | PyDict;
export type PyDict = Map<string, PyValue>;

export const isDict = (v: PyValue): v is PyDict => v instanceof Map;

// ---------------------------------------------------------------------------------------------
// Strings
// ---------------------------------------------------------------------------------------------

/** Every code point for which CPython's str.isspace() is true (all in the BMP). */
const PY_SPACE = new Set(
  [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]
    .concat(Array.from({ length: 11 }, (_, i) => 0x2000 + i))
    .map((c) => String.fromCharCode(c)),
);

/** Python's str.strip() with no argument. */
export function pyStrip(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && PY_SPACE.has(s[a]!)) a += 1;
  while (b > a && PY_SPACE.has(s[b - 1]!)) b -= 1;
  return s.slice(a, b);
}

/** Python's str.lower(). JavaScript's toLowerCase applies the same Unicode full case mapping (final sigma included). */
export function pyLower(s: string): string {
  return s.toLowerCase();
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
/** Does a code-unit index fall inside a surrogate pair (where Python sees one code point)? */
function splitsPair(s: string, i: number): boolean {
  return i > 0 && i < s.length && isHigh(s.charCodeAt(i - 1)) && isLow(s.charCodeAt(i));
}

/** Python's `needle in hay` for str: a substring on code points, so half of a surrogate pair never matches. */
export function pyContains(hay: string, needle: string): boolean {
  if (needle === "") return true;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
    if (!splitsPair(hay, i) && !splitsPair(hay, i + needle.length)) return true;
  }
  return false;
}

/** Python's len() of a str: code points. */
export function pyStrLen(s: string): number {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
}

/** The code points of a str, as Python iterates it. */
export function pyStrChars(s: string): string[] {
  return Array.from(s);
}

// ---------------------------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------------------------

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** a / b for integers a and b > 0, correctly rounded to a double (round half to even), as CPython's int true division. */
function bigTrueDivide(a: bigint, b: bigint): number {
  if (a === 0n) return 0;
  const negative = a < 0n;
  const n = negative ? -a : a;
  // Scale so that the integer quotient has at least 55 significant bits, then round to 53 with a sticky bit.
  const shift = 55 - (bitLength(n) - bitLength(b));
  const num = shift > 0 ? n << BigInt(shift) : n;
  const den = shift > 0 ? b : b << BigInt(-shift);
  let q = num / den;
  const sticky = num % den !== 0n;
  const extra = bitLength(q) - 53;
  let exp = -shift;
  if (extra > 0) {
    const mask = (1n << BigInt(extra)) - 1n;
    const rest = q & mask;
    const half = 1n << BigInt(extra - 1);
    q >>= BigInt(extra);
    exp += extra;
    if (rest > half || (rest === half && (sticky || (q & 1n) === 1n))) q += 1n;
  }
  // q * 2^exp is exact (q has at most 53 bits); beyond the double range CPython raises instead of returning inf.
  const value = Number(q) * 2 ** exp;
  if (!Number.isFinite(value)) throw new PyError("OverflowError", "integer division result too large for a float");
  return negative ? -value : value;
}

/**
 * Python's `value / divisor` where divisor is a positive int (a width or height) and value came from JSON:
 * int, float and bool divide; str, list, dict and None raise TypeError.
 */
export function pyDivide(value: PyValue | undefined, divisor: number): number {
  if (!Number.isInteger(divisor)) throw new Error(`divisor must be an integer, got ${divisor}`);
  if (divisor === 0) throw new PyError("ZeroDivisionError", "division by zero");
  if (typeof value === "boolean") return (value ? 1 : 0) / divisor;
  if (typeof value === "number") return value / divisor;
  if (value instanceof PyBigInt) {
    if (divisor < 0) return -bigTrueDivide(value.value, BigInt(-divisor));
    return bigTrueDivide(value.value, BigInt(divisor));
  }
  throw new PyError("TypeError", `unsupported operand type(s) for /: '${pyTypeName(value)}' and 'int'`);
}

export function pyTypeName(v: PyValue | undefined): string {
  if (v === undefined) return "undefined";
  if (v === null) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (v instanceof PyBigInt) return "int";
  if (typeof v === "string") return "str";
  if (Array.isArray(v)) return "list";
  return "dict";
}

// ---------------------------------------------------------------------------------------------
// Containers
// ---------------------------------------------------------------------------------------------

/** Python's `key in container` for a str key. */
export function pyIn(key: string, container: PyValue): boolean {
  if (isDict(container)) return container.has(key);
  if (Array.isArray(container)) return container.some((x) => x === key);
  if (typeof container === "string") return pyContains(container, key);
  throw new PyError("TypeError", `argument of type '${pyTypeName(container)}' is not iterable`);
}

/** Python's `container[key]` for a str key. */
export function pyGetKey(container: PyValue, key: string): PyValue {
  if (isDict(container)) {
    if (!container.has(key)) throw new PyError("KeyError", `'${key}'`);
    return container.get(key)!;
  }
  throw new PyError("TypeError", `${pyTypeName(container)} indices must be integers or slices, not str`);
}

/** Python's `container[i]` for a small non-negative int index. */
export function pyGetIndex(container: PyValue, i: number): PyValue {
  if (Array.isArray(container)) {
    if (i >= container.length) throw new PyError("IndexError", "list index out of range");
    return container[i]!;
  }
  if (typeof container === "string") {
    const chars = pyStrChars(container);
    if (i >= chars.length) throw new PyError("IndexError", "string index out of range");
    return chars[i]!;
  }
  if (isDict(container)) throw new PyError("KeyError", String(i));
  throw new PyError("TypeError", `'${pyTypeName(container)}' object is not subscriptable`);
}

/** Python's len(). */
export function pyLen(v: PyValue): number {
  if (typeof v === "string") return pyStrLen(v);
  if (Array.isArray(v)) return v.length;
  if (isDict(v)) return v.size;
  throw new PyError("TypeError", `object of type '${pyTypeName(v)}' has no len()`);
}

/** Python's iteration over a value: list items, str code points, dict keys. */
export function pyIter(v: PyValue): PyValue[] {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return pyStrChars(v);
  if (isDict(v)) return [...v.keys()];
  throw new PyError("TypeError", `'${pyTypeName(v)}' object is not iterable`);
}

/** Python's `value.lower()` on a JSON value: only str has it. */
export function pyStrMethodTarget(v: PyValue, method: string): string {
  if (typeof v === "string") return v;
  throw new PyError("AttributeError", `'${pyTypeName(v)}' object has no attribute '${method}'`);
}

// ---------------------------------------------------------------------------------------------
// json.loads
// ---------------------------------------------------------------------------------------------

/**
 * Deepest nesting CPython's json.loads accepts before RecursionError. The real limit is the interpreter's
 * recursion limit (1000) minus the depth of the calling stack, so it varies by a few frames with the caller;
 * this value sits in that band for verl's reward call. Vectors keep well clear of it on both sides.
 */
export const PY_JSON_MAX_DEPTH = 980;
/** CPython 3.11+ refuses to convert an integer literal of more digits (sys.int_info.default_max_str_digits). */
export const PY_INT_MAX_DIGITS = 4300;

const JSON_WS = new Set([" ", "\t", "\n", "\r"]);

class Scanner {
  i = 0;
  constructor(readonly s: string) {}

  fail(message: string): never {
    throw new PyError("JSONDecodeError", `${message}: char ${this.i}`);
  }

  ws() {
    while (this.i < this.s.length && JSON_WS.has(this.s[this.i]!)) this.i += 1;
  }

  value(depth: number): PyValue {
    const s = this.s;
    const c = s[this.i];
    if (c === undefined) this.fail("Expecting value");
    if (c === '"') return this.string();
    if (c === "{") return this.object(depth + 1);
    if (c === "[") return this.array(depth + 1);
    if (s.startsWith("null", this.i)) return this.advance(4, null);
    if (s.startsWith("true", this.i)) return this.advance(4, true);
    if (s.startsWith("false", this.i)) return this.advance(5, false);
    if (s.startsWith("NaN", this.i)) return this.advance(3, NaN);
    if (s.startsWith("Infinity", this.i)) return this.advance(8, Infinity);
    if (s.startsWith("-Infinity", this.i)) return this.advance(9, -Infinity);
    return this.number();
  }

  advance<T extends PyValue>(n: number, v: T): T {
    this.i += n;
    return v;
  }

  number(): PyValue {
    const s = this.s;
    const start = this.i;
    let i = this.i;
    const digit = (k: number) => k < s.length && s[k]! >= "0" && s[k]! <= "9";
    if (s[i] === "-") i += 1;
    if (i < s.length && s[i]! >= "1" && s[i]! <= "9") {
      while (digit(i)) i += 1;
    } else if (s[i] === "0") {
      i += 1;
    } else {
      this.fail("Expecting value");
    }
    let isFloat = false;
    if (s[i] === "." && digit(i + 1)) {
      i += 2;
      while (digit(i)) i += 1;
      isFloat = true;
    }
    if (s[i] === "e" || s[i] === "E") {
      const eStart = i;
      i += 1;
      if (s[i] === "-" || s[i] === "+") i += 1;
      const digitsAt = i;
      while (digit(i)) i += 1;
      if (i > digitsAt) isFloat = true;
      else i = eStart;
    }
    const text = s.slice(start, i);
    this.i = i;
    if (isFloat) return Number(text);
    const digits = text.replace("-", "");
    if (digits.length > PY_INT_MAX_DIGITS) {
      throw new PyError("ValueError", `Exceeds the limit (${PY_INT_MAX_DIGITS} digits) for integer string conversion`);
    }
    const n = Number(text);
    if (Number.isSafeInteger(n)) return n === 0 ? 0 : n;
    return new PyBigInt(BigInt(text));
  }

  string(): string {
    const s = this.s;
    let i = this.i + 1;
    let out = "";
    for (;;) {
      if (i >= s.length) {
        this.i = i;
        this.fail("Unterminated string starting at");
      }
      const c = s[i]!;
      const code = c.charCodeAt(0);
      if (c === '"') {
        this.i = i + 1;
        return out;
      }
      if (code < 0x20) {
        this.i = i;
        this.fail("Invalid control character at");
      }
      if (c !== "\\") {
        out += c;
        i += 1;
        continue;
      }
      const e = s[i + 1];
      const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (e !== undefined && e in simple) {
        out += simple[e];
        i += 2;
        continue;
      }
      if (e === "u") {
        const hex = s.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.i = i;
          this.fail("Invalid \\uXXXX escape");
        }
        // Surrogate pairs written as two escapes end up as the same UTF-16 units either way.
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
        continue;
      }
      this.i = i;
      this.fail("Invalid \\escape");
    }
  }

  object(depth: number): PyDict {
    if (depth > PY_JSON_MAX_DEPTH) throw new PyError("RecursionError", "maximum recursion depth exceeded while decoding a JSON object");
    const s = this.s;
    const out: PyDict = new Map();
    this.i += 1;
    this.ws();
    if (s[this.i] === "}") {
      this.i += 1;
      return out;
    }
    for (;;) {
      if (s[this.i] !== '"') this.fail("Expecting property name enclosed in double quotes");
      const key = this.string();
      this.ws();
      if (s[this.i] !== ":") this.fail("Expecting ':' delimiter");
      this.i += 1;
      this.ws();
      out.set(key, this.value(depth));
      this.ws();
      if (s[this.i] === "}") {
        this.i += 1;
        return out;
      }
      if (s[this.i] !== ",") this.fail("Expecting ',' delimiter");
      this.i += 1;
      this.ws();
    }
  }

  array(depth: number): PyValue[] {
    if (depth > PY_JSON_MAX_DEPTH) throw new PyError("RecursionError", "maximum recursion depth exceeded while decoding a JSON array");
    const s = this.s;
    const out: PyValue[] = [];
    this.i += 1;
    this.ws();
    if (s[this.i] === "]") {
      this.i += 1;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.ws();
      if (s[this.i] === "]") {
        this.i += 1;
        return out;
      }
      if (s[this.i] !== ",") this.fail("Expecting ',' delimiter");
      this.i += 1;
      this.ws();
    }
  }
}

/** Python's json.loads(text) (default arguments). Throws PyError where Python raises. */
export function pyJsonLoads(text: string): PyValue {
  const sc = new Scanner(text);
  sc.ws();
  let v: PyValue;
  try {
    v = sc.value(0);
  } catch (e) {
    if (e instanceof RangeError) throw new PyError("RecursionError", "maximum recursion depth exceeded");
    throw e;
  }
  sc.ws();
  if (sc.i !== text.length) sc.fail("Extra data");
  return v;
}
