"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { formatKbd, type Shortcut } from "@/lib/canvas/shortcuts";
import { useT } from "@/lib/i18n/react";
import type { MessageKey } from "@/lib/i18n";

/**
 * Every shortcut, grouped, generated from the same registry the key listener reads. Each key
 * carries its spec in `data-kbd` (and the row its ids in `data-shortcut`), so a test can press
 * exactly what the overlay lists.
 */
export function HelpOverlay<C>({ shortcuts, onClose, notes }: { shortcuts: readonly Shortcut<C>[]; onClose: () => void; notes?: string }) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  // Whether the list goes on below what the window shows (issue 36: at 1280x720 it was cut with no sign that it scrolls).
  const [hasMoreBelow, setHasMoreBelow] = useState(false);
  const measure = useCallback(() => {
    const el = body.current;
    if (el) setHasMoreBelow(el.scrollTop + el.clientHeight < el.scrollHeight - 2);
  }, []);
  useEffect(() => {
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [measure]);
  const isMac = typeof navigator !== "undefined" && /Mac/.test(navigator.platform);
  const groups = new Map<string, Shortcut<C>[]>();
  for (const s of shortcuts) groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
  return (
    <div className="overlay" onClick={onClose}>
      <div
        className="help"
        role="dialog"
        aria-modal="true"
        aria-label={t("shortcut.help")}
        tabIndex={-1}
        ref={ref}
        onClick={(e) => e.stopPropagation()}
      >
        <div className="help-head">
          <h2>{t("shortcut.help")}</h2>
          <button type="button" className="btn btn-ghost" onClick={onClose} aria-label={t("editor.close")}>
            ✕
          </button>
        </div>
        <div
          className="help-body"
          ref={body}
          onScroll={measure}
          role="region"
          aria-label={t("shortcut.helpList")}
          tabIndex={0}
          data-scrolls={hasMoreBelow ? "more" : "end"}
        >
          <div className="help-grid">
            {[...groups].map(([group, list]) => (
              <section key={group}>
                <h3>{t(group as MessageKey)}</h3>
                <dl>
                  {dedupe(list).map((s) => (
                    <div key={s.id} className="help-row" data-shortcut={s.id}>
                      <dt>
                        {s.kbd.map((k) => (
                          <span key={k} className="kbd" data-kbd={k}>
                            {formatKbd(k, isMac)}
                          </span>
                        ))}
                      </dt>
                      <dd>{t(s.label as MessageKey)}</dd>
                    </div>
                  ))}
                </dl>
              </section>
            ))}
          </div>
          {notes && <p className="help-notes">{notes}</p>}
        </div>
        {hasMoreBelow && (
          <button type="button" className="help-more" onClick={() => body.current?.scrollBy({ top: body.current.clientHeight * 0.8 })}>
            {t("shortcut.helpMore")} <span aria-hidden>↓</span>
          </button>
        )}
      </div>
    </div>
  );
}

/** Rows with the same label (the four nudge arrows) print as one row with all their keys. */
function dedupe<C>(list: Shortcut<C>[]): Shortcut<C>[] {
  const out: Shortcut<C>[] = [];
  for (const s of list) {
    const same = out.find((o) => o.label === s.label && o.group === s.group);
    if (same) {
      same.kbd = [...same.kbd, ...s.kbd];
      same.id = `${same.id} ${s.id}`;
    } else out.push({ ...s, kbd: [...s.kbd] });
  }
  return out;
}
