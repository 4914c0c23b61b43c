"use client";

import { useRef, useState } from "react";
import { useT } from "@/lib/i18n/react";

/** Copy `text` to the clipboard; on a page without clipboard access (plain http), select it for Ctrl+C instead. */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const t = useT();
  const [state, setState] = useState<"idle" | "copied" | "selected">("idle");
  const ref = useRef<HTMLButtonElement>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      const code = ref.current?.parentElement?.querySelector("code");
      if (code) window.getSelection()?.selectAllChildren(code);
      setState("selected");
    }
  }
  return (
    <button ref={ref} type="button" className="btn" onClick={copy} aria-label={label ?? t("admin.copy")}>
      {state === "copied" ? t("admin.copied") : state === "selected" ? t("admin.selected") : t("admin.copy")}
    </button>
  );
}

/** A secret (password, token) shown once, with a copy button. */
export function SecretReveal({ label, value, note, onDismiss }: { label: string; value: string; note: string; onDismiss?: () => void }) {
  const t = useT();
  return (
    <section className="secret" role="status" aria-label={label}>
      <div className="secret-head">
        <strong>{label}</strong>
        <span>{note}</span>
      </div>
      <div className="secret-row">
        <code className="secret-value">{value}</code>
        <CopyButton text={value} />
        {onDismiss && (
          <button type="button" className="btn btn-ghost" onClick={onDismiss}>
            {t("admin.dismiss")}
          </button>
        )}
      </div>
    </section>
  );
}

/** A button that asks once more before doing something that cannot be undone. */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  disabled,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const t = useT();
  const [isAsking, setIsAsking] = useState(false);
  if (!isAsking) {
    return (
      <button type="button" className="btn" disabled={disabled} onClick={() => setIsAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm">
      <button
        type="button"
        className="btn btn-danger"
        autoFocus
        onClick={() => {
          setIsAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="btn btn-ghost" onClick={() => setIsAsking(false)}>
        {t("admin.cancel")}
      </button>
    </span>
  );
}
