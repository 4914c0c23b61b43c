"use client";

import { Fragment, type ReactNode } from "react";

/**
 * Fill `{name}` placeholders of an already translated message with React nodes (links, <strong>,
 * key caps), so a sentence's word order stays the translator's. Dates and numbers: useFormat()
 * from lib/i18n/react (lib/i18n/format).
 */
export function fillNodes(text: string, nodes: Record<string, ReactNode>): ReactNode {
  const parts = text.split(/\{(\w+)\}/);
  return parts.map((part, i) => (i % 2 === 0 ? part : <Fragment key={i}>{part in nodes ? nodes[part] : `{${part}}`}</Fragment>));
}
