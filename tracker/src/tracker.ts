// One page of a site: records its views, swaps or reveals the site's numbers, keeps them alive.
import type { BrowserClickAnswer, BrowserSurtaxPhone, BrowserViewAnswer } from '../../shared/src/schemas/browser.ts';
import { post } from './collector.ts';
import { elementOf, findPhones, rewrite, type Occurrence } from './page.ts';
import { formatLike } from './phones.ts';
import { currentVisitId, currentVisitKey, keepVisit, mayStore, visitorFields } from './visit-cookie.ts';

/** The script tag's data attributes (docs/tracker.md): data-key, data-display, data-hide,
 * data-label, data-keepalive, data-collector, data-consent. */
export interface TrackerOptions extends DOMStringMap {
  key: string;
}

const DEFAULT_HIDE_MS = 1000;
const DEFAULT_KEEP_ALIVE_MINUTES = 60;
const TICK_MS = 500;

/** The domain's anti-flicker timeout is only known once the collector answers: each page
 * remembers it for the site's next pages. Storage disabled: the default. */
function rememberedHide(): string | undefined {
  try {
    return localStorage.ringtrail_hide;
  } catch {}
}

/** What the page shows in place of a site phone's text, so the text can be put back. */
interface Shown extends Occurrence {
  shown: string;
}

/** Starts tracking the page; resolves once the first view's numbers are in place (or failed to come). */
export function startTracker(o: TrackerOptions, base: string): Promise<void> {
  let view: BrowserViewAnswer;
  const numbers: Record<string, BrowserSurtaxPhone> = {};
  /** Phones already asked for: once per page load, never again (no retry storm). */
  const asked: Record<string, 1> = {};
  let shown: Shown[] = [];
  let lastUrl = location.href;
  /** When the page's view was recorded, and when its numbers were last assigned or extended. */
  let viewedAt: number;
  let keptAt: number;

  /** Every request carries the tag's data attributes (`key`, and `display` when the tag names one:
   * the collector ignores the others), the visit and, but for the first view, the view. */
  const send = <T>(path: string, fields: Record<string, string | number>) =>
    post<T & { status: string }>(base, path, { ...o, visit_id: currentVisitId(), visit_key: currentVisitKey(), view_id: view?.viewId || 0, ...fields });

  function show(at: Occurrence, text: string): void {
    rewrite(at.node, at.text, text);
    shown.push({ ...at, shown: text });
  }

  /** Puts the site's own text back wherever a phone was replaced or hidden behind a control. */
  function restore(phone: string): void {
    shown = shown.filter((s) => s.phone != phone || rewrite(s.node, s.shown, s.text));
  }

  /** The site's phones on the page. Before the collector first answers, any number-like text may be
   * one; after, only its sitePhones are (the tracking numbers shown are left alone). */
  function sitePhonesOnPage(): Occurrence[] {
    return findPhones(document.body).filter((at) => !view || view.sitePhones.includes(at.phone));
  }

  /** Brings every site phone on the page to its state: swapped, behind a control, or left alone.
   * Last occurrence first, so splitting a text node leaves the earlier ones where they were. */
  function apply(): void {
    for (const at of sitePhonesOnPage().reverse()) {
      const number = numbers[at.phone];
      if (number) {
        // Words a person reads or hears (a text, a label), not a tel: link's href.
        const text = at.node.nodeName != 'href';
        const code = text && number.surtaxPhoneCode ? ` (code ${number.surtaxPhoneCode})` : '';
        // A number the site phone's layout does not fit comes written whole (a link's href keeps its
        // digits), internationally for a page that wrote its own with a country code: with the
        // page's "(0)" after it when the page had one ("+44 (0)161 496 0006"), and the page's own
        // separator between its groups ("020.7946.0010" -> "07700.900123", none for "02079460010").
        const whole = text && number.surtaxPhoneText;
        show(at, (whole ? whole.replace(' ', at.text.includes('(0)') ? ' (0)' : ' ').replace(/ /g, at.text.match(/\d([ .-])\d/)?.[1] ?? '') : formatLike(at, number.surtaxPhoneNumber)) + code);
      } else if (!asked[at.phone]) {
        if (view.display == 'click') hideBehindControl(at);
        else assign(at.phone);
      }
    }
  }

  /** Click display: the number's tel: link, or a tel: link made around the number, reveals it when clicked.
   * Once revealed it is an ordinary tel: link to the tracking number (or, failing one, to the site's). */
  function hideBehindControl(at: Occurrence): void {
    let control = elementOf(at.node).closest<HTMLAnchorElement>('[href^="tel:"]');
    // A text splits; an href or a label (an Attr) does not.
    const node = at.node as Partial<Text> & Node;
    // Not in a link: a text becomes a link of its own (a label outside one waits for the text's reveal).
    if (!control && node.splitText) {
      const number = node.splitText(node.data!.lastIndexOf(at.text));
      number.splitText(at.text.length);
      control = document.createElement('a');
      control.href = 'tel:' + at.phone;
      number.replaceWith(control);
      control.append(number);
      at = { ...at, node: number };
    }
    if (control) {
      control.dataset.rt = at.phone;
      if (node.splitText) show(at, o.label || 'Show number'); // a text, not an href or a label
    }
  }

  /** A number for one phone after the view: on a click in click display, or one that appeared later in direct display. */
  async function assign(phone: string): Promise<void> {
    asked[phone] = 1;
    const answer = await send<BrowserClickAnswer>('/t/click', { phone, display: view.display });
    // The number in every form the page may write this site phone in (ours): one click reveals them all.
    // Only an OK answer has them; none (a failure, no answer): the site's own number stays.
    const got = answer?.surtaxPhones;
    restore(phone);
    for (const p in got) restore(p);
    Object.assign(numbers, got);
    apply();
  }

  /** Extends every number the page shows. One the collector no longer gives this visit (it expired
   * while the tab was hidden) comes off the page, and the page asks once for a new one. */
  function extend(): void {
    keptAt = Date.now();
    for (const phone in numbers) {
      const number = numbers[phone]!;
      send('/t/expiration', { surtax_phone: number.surtaxPhoneNumber, ...(number.surtaxPhoneCode && { surtax_phone_code: number.surtaxPhoneCode }) }).then((answer) => {
        if (answer?.status != 'OK') {
          delete numbers[phone];
          restore(phone);
        }
      });
    }
  }

  async function recordView(referrer: string, url = location.href): Promise<void> {
    const found = sitePhonesOnPage();
    // Anti-flicker: the numbers stay hidden until swapped, never longer than the timeout.
    const hide = (visibility: string) => found.forEach((at) => (elementOf(at.node).style.visibility = visibility));
    hide('hidden');
    setTimeout(hide, +(o.hide || rememberedHide() || DEFAULT_HIDE_MS), ''); // "0" is a string: || keeps it
    const answer = await send<BrowserViewAnswer>('/t/view', {
      url,
      page_title: document.title,
      referer_url: referrer,
      phones: found.map((at) => at.phone).join(),
      ...visitorFields(),
    });
    if (answer?.visitId) keepVisit(answer);
    // The domain's extra scripts, loaded once: its form capture (forms.ts) where form tracking is on,
    // its ads consent (ads-consent.ts) where an ad platform is connected. The collector names them.
    if (answer?.scripts) {
      for (const src of answer.scripts) document.head.append(Object.assign(document.createElement('script'), { src: base + src }));
    }
    if (answer?.status == 'OK') {
      try {
        if (mayStore()) localStorage.ringtrail_hide = answer.antiFlicker;
      } catch {}
      if (!view) new MutationObserver(apply).observe(document.body, { childList: true, subtree: true, characterData: true });
      view = answer;
      Object.assign(numbers, answer.surtaxPhones);
      apply();
      viewedAt = keptAt = Date.now();
    }
    hide('');
  }

  // A control reveals its number once; after that it is an ordinary tel: link.
  document.addEventListener(
    'click',
    (event) => {
      const phone = (event.target as Element).closest?.<HTMLElement>('[data-rt]')?.dataset.rt;
      if (phone && !asked[phone]) {
        event.preventDefault();
        assign(phone);
      }
    },
    true,
  );
  // One tick for what the page cannot announce: an SPA route change (pushState, popstate, any
  // router) is a new view of the same visit; while the page is visible, numbers are extended
  // before they expire, up to the keep-alive bound. Hidden, nothing is sent.
  setInterval(() => {
    if (location.href != lastUrl) recordView(lastUrl, (lastUrl = location.href));
    const now = Date.now();
    if (view && !document.hidden && now > keptAt + view.expiration * 800 && now < viewedAt + +(o.keepalive || DEFAULT_KEEP_ALIVE_MINUTES) * 60000) extend();
  }, TICK_MS);

  return new Promise((domReady) => (document.readyState == 'loading' ? addEventListener('DOMContentLoaded', domReady) /* it bubbles to the window */ : domReady(0))).then(() =>
    recordView(document.referrer),
  );
}
