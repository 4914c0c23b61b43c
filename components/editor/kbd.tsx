/**
 * A registry entry's printed keys beside its control; nothing when the page's registry has no such
 * entry (a review fix lists only the editor keys the review page leaves free), never an empty key cap.
 */
export function Kbd({ keys }: { keys: string }) {
  return keys ? <span className="kbd">{keys}</span> : null;
}
