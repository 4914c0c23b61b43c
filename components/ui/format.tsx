"use client";

import { Fragment, type ReactNode } from "react";
import type { Locale } from "@/lib/i18n";
import { useLocale } from "@/lib/i18n/react";

/** The BCP 47 tag numbers and dates are formatted with for a studio locale. */
export const intlLocale = (locale: Locale) => (locale === "zh" ? "zh-CN" : "en-US");

/** Formats counts in the current person's language (1,234 in both, but the right conventions). */
export function useFormatNumber(): (n: number, options?: Intl.NumberFormatOptions) => string {
  const locale = useLocale();
  return (n, options) => n.toLocaleString(intlLocale(locale), options);
}

/**
 * Fill `{name}` placeholders of an already translated message with React nodes (links, <strong>,
 * key caps), so a sentence's word order stays the translator's.
 */
export function fillNodes(text: string, nodes: Record<string, ReactNode>): ReactNode {
  const parts = text.split(/\{(\w+)\}/);
  return parts.map((part, i) => (i % 2 === 0 ? part : <Fragment key={i}>{part in nodes ? nodes[part] : `{${part}}`}</Fragment>));
}
