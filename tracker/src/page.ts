// Where the page writes phone numbers: text nodes and the href of tel: links.
import { normalizePhone } from '../../shared/src/phone.ts';
import { PHONE_PATTERN } from './phones.ts';

/** One phone number as the page writes it. Text and Attr nodes both hold it in `nodeValue`. */
export interface Occurrence {
  node: Text | Attr;
  text: string;
  /** National digits, as the collector's sitePhones are stored. */
  phone: string;
}

const NOT_CONTENT = /SCRIPT|STYLE|TEXTAREA/; // NOSCRIPT too

export function findPhones(root: Element): Occurrence[] {
  const nodes: (Text | Attr)[] = [];
  const walker = document.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node; (node = walker.nextNode() as Text); ) if (!NOT_CONTENT.test(node.parentNode!.nodeName)) nodes.push(node);
  root.querySelectorAll('a[href^="tel:"]').forEach((a) => nodes.push(a.getAttributeNode('href')!));
  const found: Occurrence[] = [];
  for (const node of nodes) {
    for (const text of node.nodeValue!.match(PHONE_PATTERN) || []) {
      const phone = normalizePhone(text);
      if (phone) found.push({ node, text, phone });
    }
  }
  return found;
}

/** Rewrites one occurrence in place (text nodes keep their identity, so frameworks keep theirs). */
export function rewrite(node: Text | Attr, from: string, to: string): void {
  node.nodeValue = node.nodeValue!.replace(from, to);
}

/** The element that shows an occurrence: a text's parent, an href's link. */
export function elementOf(node: Text | Attr): HTMLElement {
  return ((node as Attr).ownerElement || node.parentElement) as HTMLElement;
}
