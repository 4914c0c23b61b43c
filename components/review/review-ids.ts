// Element ids the review page's keys reach for (components/review/review-view.tsx).

/** The comment field of a step (0-based index): the comment key focuses it. */
export const commentInputId = (index: number) => `review-comment-${index + 1}`;
/** A step's list item (0-based index): j / k scroll to it. */
export const stepItemId = (index: number) => `review-step-${index + 1}`;
