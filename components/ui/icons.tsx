// Small inline SVG icons drawn with the text's colour: the studio ships no emoji font, and Debian without
// one draws an emoji as an empty box (issue 36). Decorative: each is hidden from assistive technology,
// so the text beside it (or its button's label) says what it means.

const base = {
  width: "1em",
  height: "1em",
  viewBox: "0 0 16 16",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 1.5,
  strokeLinecap: "round",
  strokeLinejoin: "round",
  "aria-hidden": true,
  focusable: false,
  style: { verticalAlign: "-0.125em", flex: "none" },
} as const;

/** A speech bubble: open comments on a step. */
export function CommentIcon() {
  return (
    <svg {...base} data-icon="comment">
      <path d="M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z" />
    </svg>
  );
}

/** Scissors: the cut point, after which steps stay out of training. */
export function ScissorsIcon() {
  return (
    <svg {...base} data-icon="cut">
      <circle cx="4" cy="4.5" r="2" />
      <circle cx="4" cy="11.5" r="2" />
      <path d="M5.7 5.6 13.5 12M5.7 10.4 13.5 4" />
    </svg>
  );
}
