"use client";

import { Fragment, type ReactNode } from "react";
import type { MessageKey, Translate } from "@/lib/i18n";

/**
 * Fill `{name}` placeholders of an already translated message with React nodes (links, <strong>,
 * key caps), so a sentence's word order stays the translator's. Dates and numbers: useFormat()
 * from lib/i18n/react (lib/i18n/format).
 */
export function fillNodes(text: string, nodes: Record<string, ReactNode>): ReactNode {
  const parts = text.split(/\{(\w+)\}/);
  return parts.map((part, i) => (i % 2 === 0 ? part : <Fragment key={i}>{part in nodes ? nodes[part] : `{${part}}`}</Fragment>));
}

/**
 * The message `key` with each of `nodes` drawn in its `{name}`: a count among them (bold, say) is still
 * given in `vars`, which choose its plural ("1 trajectory"), and is printed as its node.
 */
export function messageNodes(
  t: Translate,
  key: MessageKey,
  vars: Record<string, string | number>,
  nodes: Record<string, ReactNode>,
): ReactNode {
  return fillNodes(t(key, vars, Object.keys(nodes)), nodes);
}
