// The browser doors: /t/view, /t/click, /t/expiration, what tracker.js calls from a site's pages.
// Same service as /ospView, /ospClick, /ospExpiration (one pool, one attribution), another door:
// the public key instead of the api_key, CORS for the domain's origins, rate limits, the ip and
// user agent of the connection, the domain's default expiration, and only its sitePhones mapped.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ZodType } from 'zod';
import { browserClickRequest, browserConsentRequest, browserExpirationRequest, browserViewRequest, type BrowserSurtaxPhone, type RequestedPhone, type SurtaxPhone } from '@ringtrail/shared';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import { isExhausted, showOverflow } from './overflow.ts';
import type { DomainCache } from '../domains/domain-cache.ts';
import { parseBrowserBody } from '../http/body.ts';
import { trackingEnvelope } from '../http/tracking-envelope.ts';
import { browserDoor } from './door.ts';
import type { Logger } from '../logger.ts';
import { TrackingFailure } from '../http/tracking-failure.ts';
import { inCountry } from '../tracking/assignment.ts';
import type { TrackingService } from '../tracking/service.ts';
import { gaIdsFromCookies } from './ga-cookies.ts';
import { answeredInFormOf, trackerForms, writtenWhenGroupsDiffer } from './phone-forms.ts';
import { canonicalIn, countryOf, DEFAULT_COUNTRY } from '../domains/phone-numbers.ts';
import type { BrowserRateLimit } from './rate-limit.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import { ConsentKeys } from './consent-keys.ts';
import { extraScripts } from './extra-scripts.ts';

const MOBILE_AGENT = /Mobi|Android/i;

/** Ours: the visit's key, answered by /t/view. */
export const VISIT_KEY_HEADER = 'X-Visit-Key';

/** `adsConnected`: whether a domain is connected to an ad platform (its pages then load tracker-ads.js). */
export function browserRoutes(c: DomainCollections & TrackingCollections, domains: DomainCache, service: TrackingService, limit: BrowserRateLimit, log: Logger, adsConnected: (domainId: string) => Promise<boolean> = async () => false): Router {
  const router = new Router();
  const envelope = trackingEnvelope(log);

  const handle = browserDoor(c, domains, limit, log);
  const consentKeys = new ConsentKeys(c);
  /** The visit's key (issue 79), in a header of ours and, for tracker.js (which reads it there in
   * fewer bytes), as our `visitKey` beside the answer's fields: the tracker keeps it as its
   * `tracker_visit_key` cookie and sends it back as `visit_key`. */
  const giveVisitKey = async (ctx: Context, domain: DomainDoc, visitId: number): Promise<{ visitKey: string }> => {
    const visitKey = await consentKeys.keyOf(domain._id, visitId, 'visit');
    ctx.set(VISIT_KEY_HEADER, visitKey);
    ctx.set('Access-Control-Expose-Headers', VISIT_KEY_HEADER);
    return { visitKey };
  };

  router.post(
    '/t/view',
    envelope,
    parseBrowserBody,
    handle(browserViewRequest, async (domain, req, visitor, ctx) => {
      const phones = sitePhonesAmong(domain, req.phones ?? []);
      const display = req.display || domain.displayMode;
      const now = new Date();
      // Ours: the tag loads its form capture (with the extra field names the owner listed) and its ads
      // consent, which carries the visit's consent key (consent-keys.ts).
      const ads = await adsConnected(domain._id);
      const extrasOf = async (visitId: number | undefined) => {
        const scripts = extraScripts(domain, req.key, ads && visitId ? { visitId, consentKey: await consentKeys.keyOf(domain._id, visitId) } : null);
        return { ...(domain.formTracking?.enabled ? { forms: domain.formTracking.fields } : {}), ...(scripts.length ? { scripts } : {}) };
      };
      // Only the browser that holds the visit continues it (issue 79): a bare visit id, or another
      // visit's key, starts a new visit, so nobody's views or consent land in a stranger's visit.
      const continued = req.visit_id > 0 && req.visit_key !== undefined && (await consentKeys.holds(domain._id, req.visit_id, req.visit_key, 'visit'));
      const answer = await service.view(domain, {
        api_key: '',
        visit_id: continued ? req.visit_id : 0,
        ip: visitor.ip,
        url: req.url,
        page_title: req.page_title,
        is_mobile: MOBILE_AGENT.test(visitor.userAgent ?? ''),
        referer_url: req.referer_url,
        nr_phones: phones.length,
        direct_display: display === 'direct',
        phones,
        type: req.type,
        user_agent: visitor.userAgent,
        unique_visitor_id: req.unique_visitor_id,
        ga_client_id: req.ga_client_id,
        ga_session_id: req.ga_session_id,
      }, now).catch(async (err: unknown) => {
        // The pool ran out: its overflow number, where it has one, instead of the site's own.
        const shown = isExhausted(err) && (await showOverflow(c, domain, phones, req.type, { visitId: err.ids.visitId ?? 0, viewId: err.ids.viewId ?? 0 }, now));
        // None: the site's own numbers stay, and its forms are captured all the same.
        if (!shown && isExhausted(err)) {
          // The visit goes on without numbers: the browser keeps its key all the same.
          const key = err.ids.visitId ? await giveVisitKey(ctx, domain, err.ids.visitId) : {};
          throw new TrackingFailure(err.status, err.message, err.ids, err.http, { ...(await extrasOf(err.ids.visitId)), ...key });
        }
        if (!shown) throw err;
        return { status: 'OK' as const, visitId: err.ids.visitId!, viewId: err.ids.viewId!, surtaxPhones: shown, clientData: null };
      });
      const key = await giveVisitKey(ctx, domain, answer.visitId);
      const country = countryOf(domain);
      return {
        ...answer,
        ...key,
        ...('surtaxPhones' in answer && answer.surtaxPhones ? { surtaxPhones: inSentForms(domain, req.phones ?? [], answer.surtaxPhones) } : {}),
        display,
        sitePhones: domain.sitePhones.flatMap((phone) => trackerForms(phone, country)),
        expiration: domain.defaultExpiration,
        antiFlicker: domain.antiFlickerMs,
        ...(await extrasOf(answer.visitId)),
      };
    }, gaIdsFromCookies),
  );

  router.post(
    '/t/click',
    envelope,
    parseBrowserBody,
    handle(browserClickRequest, (domain, sent, visitor) => {
      const req = { ...sent, phone: inCountry(sent.phone, domain) };
      if (!domain.sitePhones.includes(req.phone.digits)) {
        throw new TrackingFailure('INVALID_PARAMETER', "Invalid parameter phone: not one of the site's phone numbers");
      }
      const kind = req.display === 'direct' ? 'display' : 'click';
      const now = new Date();
      return service.click(domain, { api_key: '', phone: req.phone, view_id: req.view_id, type: req.type, user_agent: visitor.userAgent }, { kind, ip: visitor.ip }, now).catch(async (err: unknown) => {
        const view = isExhausted(err) ? await c.views.findOne({ _id: req.view_id, domainId: domain._id }) : null;
        const shown = view && (await showOverflow(c, domain, [req.phone], req.type, { visitId: view.visitId, viewId: view._id }, now));
        if (!shown) throw err;
        return { status: 'OK' as const, visitId: view.visitId, viewId: view._id, surtaxPhone: shown[req.phone.original]!, clientData: null };
      }).then((answer) => {
        // Ours (issue 81): the number in every form the tag may read this site phone in, so that one
        // click reveals it wherever the page writes it ("(415) 555-0100" and "+1 415-555-0100").
        const forms = [...new Set([sent.phone.original, ...trackerForms(req.phone.digits, countryOf(domain))])].map((original) => ({ original, digits: original }));
        const surtaxPhones = inSentForms(domain, forms, Object.fromEntries(forms.map((f) => [f.original, answer.surtaxPhone])));
        return { ...answer, surtaxPhone: surtaxPhones[sent.phone.original]!, surtaxPhones };
      });
    }),
  );

  // Ours (issue 56): tracker-ads.js's word of the visitor's consent for ads, kept on the visit.
  router.post(
    '/t/consent',
    envelope,
    parseBrowserBody,
    handle(browserConsentRequest, async (domain, req) => {
      // Only from the visitor who holds the visit: its key, which its pages were given (issue 70).
      if (!(await consentKeys.holds(domain._id, req.visit_id, req.consent_key))) throw new TrackingFailure('INVALID_PARAMETER', 'Invalid parameter consent_key: not the key of this visit');
      return service.adsConsent(domain, req.visit_id, req.ads_consent);
    }),
  );

  router.post(
    '/t/expiration',
    envelope,
    parseBrowserBody,
    handle(browserExpirationRequest, (domain, req, visitor) =>
      service.expiration(
        domain,
        { api_key: '', surtax_phone: req.surtax_phone, surtax_phone_code: req.surtax_phone_code, user_agent: visitor.userAgent },
        { holderView: req.view_id },
      ),
    ),
  );
  return router;
}

/** A public caller can only ever map the numbers the site owner declared; each once. */
/** The numbers answered for the site phones, keyed by every form the page sent each in, each in
 * that form (phone-forms.ts); a French domain's as they were. */
function inSentForms(domain: DomainDoc, sent: RequestedPhone[], answered: Record<string, SurtaxPhone>): Record<string, BrowserSurtaxPhone> {
  const country = countryOf(domain);
  const read = sent.map((phone) => inCountry(phone, domain));
  const bySitePhone = new Map(read.flatMap((phone) => (answered[phone.original] ? [[phone.digits, answered[phone.original]!] as const] : [])));
  const inForms: Record<string, BrowserSurtaxPhone> = {};
  for (const phone of read) {
    const number = bySitePhone.get(phone.digits);
    if (!number) continue;
    const tracking = canonicalIn(number.surtaxPhoneNumber, country) ?? number.surtaxPhoneNumber;
    // A French domain's answers stay the spec's; another's carry the number written whole where the
    // site phone's layout does not fit it.
    const text = country === DEFAULT_COUNTRY ? null : writtenWhenGroupsDiffer(phone.original, phone.digits, tracking);
    inForms[phone.original] = { ...number, surtaxPhoneNumber: answeredInFormOf(phone.original, phone.digits, tracking, country), ...(text ? { surtaxPhoneText: text } : {}) };
  }
  return inForms;
}

function sitePhonesAmong(domain: DomainDoc, phones: RequestedPhone[]): RequestedPhone[] {
  const seen = new Set<string>();
  return phones.map((p) => inCountry(p, domain)).filter((p) => domain.sitePhones.includes(p.digits) && !seen.has(p.digits) && seen.add(p.digits));
}
