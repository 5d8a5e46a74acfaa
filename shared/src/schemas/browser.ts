// Wire formats of the browser doors (/t/view, /t/click, /t/expiration): what the tracker sends,
// authenticated by the domain's public key. The ip and user agent come from the connection, the
// expiration is always the domain's default, and only the domain's sitePhones are ever mapped.
import { z } from 'zod';
import { heldNumber, ospClickResponse, ospViewFields, ospViewResponse, requestedPhone, surtaxPhone, viewId } from './tracking.ts';
import { wireText } from './wire.ts';

export const displayMode = z.enum(['direct', 'click']);
export type DisplayMode = z.infer<typeof displayMode>;

const browserIds = {
  key: wireText,
  /** The visit cookie's value: the per-visit rate limit counts on it. */
  visit_id: ospViewFields.shape.visit_id,
};

/** The phones the tracker found on the page (any number-like text); the collector keeps the site's. */
/** `unique_visitor_id`: the tracker's first-party visitor id (its `tracker_visitor_id` cookie), sent
 * with the visitor's consent only. */
export const browserViewRequest = ospViewFields.pick({ url: true, page_title: true, referer_url: true, phones: true, type: true, unique_visitor_id: true, ga_client_id: true, ga_session_id: true }).extend({
  ...browserIds,
  /** Ours (issue 79): the visit's key, as /t/view gave it with the visit in its `X-Visit-Key`
   * header (the tracker's `tracker_visit_key` cookie). A `visit_id` without its key starts a new visit. */
  visit_key: wireText.max(64).optional(),
  /** Absent or empty: the domain's display mode. */
  display: z.union([displayMode, z.literal('')]).optional(),
  /** Ours: GA4's cookies as the page has them (collector/src/browser/ga-cookies.ts). */
  _ga: z
    .string()
    .optional()
    .describe("Ours: GA4's `_ga` cookie as it is (GA1.1.<random>.<time>), and `_ga_<stream>` beside it (GS2.1.s<session>$…): the collector keeps the client and session ids they hold as ga_client_id and ga_session_id; a cookie of another shape is ignored"),
});

export const browserClickRequest = z.object({
  ...browserIds,
  view_id: viewId,
  phone: requestedPhone,
  type: ospViewFields.shape.type,
  /** `direct`: not a click but a number shown in direct display that appeared after the view (SPA, AJAX). */
  display: displayMode.optional(),
});

/** Ours (issue 56, tracker-ads.js): the visitor's answer to Google's consent mode for ads, as the
 * page's dataLayer says it (ad_storage, ad_user_data), at the view and at each change. */
export const browserConsentRequest = z.object({
  ...browserIds,
  ads_consent: z.enum(['granted', 'denied'], { error: 'must be granted or denied' }),
  /** The visit's consent key (ours, issue 70): the ads consent script's address carries it. */
  consent_key: wireText,
});

export const browserExpirationRequest = z.object({
  ...browserIds,
  /** The view of the page that shows the number: only the visit holding it may extend it. */
  view_id: viewId,
  ...heldNumber,
});

/** A number the browser doors answer: /ospView's, and, when its groups of digits are not the site
 * phone's, the number written whole as its country writes it (ours: tracker.js writes that). */
export const browserSurtaxPhone = surtaxPhone.extend({
  surtaxPhoneText: z.string().optional().describe("Ours: the number as its own country writes it (0161 496 0006), when the site phone's layout does not fit it"),
});
export type BrowserSurtaxPhone = z.infer<typeof browserSurtaxPhone>;

/** /ospView's answer plus what the tracker needs to know of the domain. */
export const browserViewAnswer = ospViewResponse.extend({
  surtaxPhones: z.record(z.string(), browserSurtaxPhone).optional(),
  display: displayMode,
  /** The domain's real numbers (national digits): the only ones the tracker touches. */
  sitePhones: z.array(z.string()),
  /** Ours (issue 79): the visit's key, also in the answer's `X-Visit-Key` header, sent back as
   * `visit_key` to continue the visit. */
  visitKey: z.string().nullable().optional(),
  /** Seconds an assignment lasts: the tracker extends it before then. */
  expiration: z.number().int(),
  /** The domain's anti-flicker timeout in ms, the default for the site's next pages. */
  antiFlicker: z.number().int(),
  /** Ours: present when the domain's form tracking is on: the tag loads its form capture, which also
   * captures the fields of these names. */
  forms: z.array(z.string()).optional(),
  /** Ours: the scripts the tag loads besides itself, once, at the collector's address: the form
   * capture where form tracking is on, the ads consent where an ad platform is connected. Absent: none. */
  scripts: z.array(z.string()).optional(),
});
export type BrowserViewAnswer = z.infer<typeof browserViewAnswer>;

/** /ospClick's answer, and (ours, issue 81) the number in every form the tracker may read the site
 * phone in, keyed by that form as `surtaxPhones` is in /t/view's answer: one click reveals the number
 * wherever the page writes it. */
export const browserClickAnswer = ospClickResponse.extend({
  surtaxPhones: z.record(z.string(), browserSurtaxPhone).describe("Ours: the number in each form of the site phone clicked (`4155550100`, `0014155550100`, `14155550100`), as /t/view's surtaxPhones"),
});
export type BrowserClickAnswer = z.infer<typeof browserClickAnswer>;
