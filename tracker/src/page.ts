// Where the page writes phone numbers: text nodes, the href of tel: links, and the aria-label, title
// and alt attributes that say them to a screen reader or in a tooltip (issue 81).
import { normalizePhone } from '../../shared/src/phone.ts';
import { PHONE_PATTERN } from './phones.ts';

/** One phone number as the page writes it. Text and Attr nodes both hold it in `nodeValue`. */
export interface Occurrence {
  node: Text | Attr;
  text: string;
  /** National digits, as the collector's sitePhones are stored. */
  phone: string;
}

export function findPhones(root: Element): Occurrence[] {
  const nodes: (Text | Attr)[] = [];
  // Texts, and the attributes that say a number: a tel: link's href, and the labels a screen reader
  // says or a tooltip shows (aria-label, title, alt: matched by their first letters, fewer bytes).
  const walker = document.createTreeWalker(root, 5 /* NodeFilter.SHOW_ELEMENT | SHOW_TEXT */);
  for (let node; (node = walker.nextNode() as Element & Text); ) {
    if (node.attributes) for (const a of node.attributes) /^(hreftel:|aria-l|ti|alt)/.test(a.name + a.value) && nodes.push(a);
    else if (!/SCRIPT|STYLE|TEXTAREA/.test(node.parentNode!.nodeName)) nodes.push(node); // NOSCRIPT too
  }
  const found: Occurrence[] = [];
  for (const node of nodes) {
    for (const text of node.nodeValue!.match(PHONE_PATTERN) || []) {
      const phone = normalizePhone(text)!;
      // A phone of a country: 8 to 13 digits, national or after 00 (a +). Licence, company and street
      // numbers (1045678, SIRET's 14 digits) are not: the tag neither sends nor touches them.
      if (/^(00)?\d{8,13}$/.test(phone)) found.push({ node, text, phone });
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
