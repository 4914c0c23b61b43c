import { diffChars, diffWordsWithSpace } from "diff";

const CJK = /[\u3400-\u9fff]/;

/** Inline diff of two texts: removed in red strike-through, added in green. Chinese diffs by character. */
export function TextDiff({ before, after }: { before: string; after: string }) {
  // Both texts are data (a thought, a clear action): never translated.
  if (before === after)
    return (
      <span className="diff-same" data-i18n="data">
        {after}
      </span>
    );
  const parts = CJK.test(before + after) ? diffChars(before, after) : diffWordsWithSpace(before, after);
  return (
    <span className="diff" data-i18n="data">
      {parts.map((p, i) =>
        p.added ? <ins key={i}>{p.value}</ins> : p.removed ? <del key={i}>{p.value}</del> : <span key={i}>{p.value}</span>,
      )}
    </span>
  );
}
