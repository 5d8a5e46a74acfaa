// The call tracking service: /ospView, /ospClick, /ospExpiration on the database. Knows nothing of HTTP.
import {
  formatUtcDateTime,
  type OspClickRequest,
  type OspClickResponse,
  type OspExpirationRequest,
  type OspExpirationResponse,
  type OspViewRequest,
  type OspViewResponse,
  type SurtaxPhone,
} from '@ringtrail/shared';
import type { ClickDoc, ViewDoc, TrackingCollections, TrafficCounts } from './documents.ts';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import type { IdAllocator } from '../db/ids.ts';
import { clientDataEntry, expiryFor, inCountry, poolFor, surtaxPhoneOf } from './assignment.ts';
import { countryOf, readingsIn } from '../domains/phone-numbers.ts';
import { isBotAgent } from './bots.ts';
import { ADDRESS_HOLDS_ITS_LIMIT, NO_NUMBER_AVAILABLE, TrackingFailure } from '../http/tracking-failure.ts';
import type { AddressLimit } from './address-holds.ts';
import { NumberPool, type ExpiryOutcome, type HeldNumber } from './pool.ts';
import { VisitLog } from './visits.ts';
import { DEFAULT_NUMBERS_PER_ADDRESS } from '../domains/settings.ts';

const ROBOT_WARNING = 'No tracking number for robots: the user agent is a known bot';

function addressLimitOf(domain: DomainDoc, address: string): AddressLimit {
  return { address, max: domain.numbersPerAddress ?? DEFAULT_NUMBERS_PER_ADDRESS };
}

const refusalMessage = (refused: 'exhausted' | 'address-limit') => (refused === 'exhausted' ? NO_NUMBER_AVAILABLE : ADDRESS_HOLDS_ITS_LIMIT);

export class TrackingService {
  private readonly pool: NumberPool;
  private readonly visits: VisitLog;

  constructor(
    private readonly c: TrackingCollections & DomainCollections,
    private readonly ids: IdAllocator,
    /** Told of each new view, before /ospView answers (the agent service pushes it to a live call). */
    private readonly onView: (domain: DomainDoc, view: ViewDoc) => Promise<void> = async () => {},
    /** The report counters a view or a refused number moves (reports/traffic-days.ts). */
    private readonly traffic: TrafficCounts,
  ) {
    this.pool = new NumberPool(c);
    this.visits = new VisitLog(c, ids, traffic);
  }

  async view(domain: DomainDoc, req: OspViewRequest, now = new Date()): Promise<OspViewResponse> {
    const isBot = isBotAgent(req.user_agent);
    const phones = req.direct_display ? (req.phones ?? []).map((phone) => inCountry(phone, domain)) : [];
    // Check the types before anything is stored, so a bad request stores nothing.
    const pools = phones.map((phone) => poolFor(domain, phone.type ?? req.type));
    const { visitId, viewId, visitStarted, stored, written } = await this.visits.recordView(
      domain,
      req.visit_id,
      {
        ip: req.ip,
        url: req.url,
        pageTitle: req.page_title,
        referrer: req.referer_url,
        isMobile: req.is_mobile,
        userAgent: req.user_agent ?? null,
        isBot,
        directDisplay: req.direct_display,
        nrPhones: req.nr_phones,
        phones: phones.map((p) => p.digits),
        uniqueVisitorId: req.unique_visitor_id ?? null,
        ga: req.ga_client_id ? { clientId: req.ga_client_id, sessionId: req.ga_session_id || null } : undefined,
        uniqueViewId: req.unique_view_id ?? null,
      },
      now,
    );
    // The visit and view are being stored meanwhile: the push and the claims do not wait for them,
    // the answer does (every view it acknowledges is stored).
    const answered = this.afterView(domain, req, { visitId, viewId, visitStarted, stored, isBot, phones, pools, written }, now);
    const [answer, storing] = await Promise.allSettled([answered, written]);
    if (storing.status === 'rejected') {
      if (answer.status === 'fulfilled') await this.pool.releaseNew(answer.value.claimed, now).catch(() => undefined);
      throw storing.reason;
    }
    if (answer.status === 'rejected') throw answer.reason;
    return answer.value.response;
  }

  /** What follows a stored view: the push to a live call, then the numbers of a direct display. */
  private async afterView(
    domain: DomainDoc,
    req: OspViewRequest,
    view: { visitId: number; viewId: number; visitStarted: boolean; stored: ViewDoc | null; isBot: boolean; phones: ReturnType<typeof inCountry>[]; pools: ReturnType<typeof poolFor>[]; written: Promise<void> },
    now: Date,
  ): Promise<{ response: OspViewResponse; claimed: HeldNumber[] }> {
    const { visitId, viewId, visitStarted, stored, isBot, phones, pools, written } = view;
    // A visit that starts with this view has no call yet that a push could be for. The push asks
    // for the visit's live calls once the view is stored: a callStart that opened its call before
    // then, and read the visit's pages, could have missed it.
    const pushed = stored && !visitStarted ? written.then(() => this.onView(domain, stored)) : undefined;
    pushed?.catch(() => undefined); // awaited below, but not when a refusal is thrown first
    const claimed: HeldNumber[] = [];
    if (!req.direct_display) {
      await pushed;
      return { response: { status: 'OK', visitId, viewId }, claimed };
    }
    const surtaxPhones: Record<string, SurtaxPhone> = {};
    if (!isBot) {
      const expiresAt = expiryFor(req.expiration, domain, now);
      for (const [i, phone] of phones.entries()) {
        const outcome = await this.pool.assign({
          domainId: domain._id,
          pool: pools[i]!,
          visitId,
          visitStarted,
          viewId,
          phone: phone.digits,
          clientData: clientDataEntry(req.client_data, phone),
          expiresAt,
          now,
          addressLimit: addressLimitOf(domain, req.ip),
        });
        if ('refused' in outcome) {
          // All or nothing: numbers taken for this page go back to the pool at once.
          await Promise.all([this.pool.releaseNew(claimed, now), this.traffic.numberRefused(domain, pools[i]!.type, outcome.refused, now)]);
          throw new TrackingFailure('WARNING', refusalMessage(outcome.refused), { visitId, viewId });
        }
        claimed.push(outcome.lease);
        surtaxPhones[phone.original] = surtaxPhoneOf(outcome.lease, domain);
      }
    }
    await pushed;
    return { response: { status: 'OK', visitId, viewId, surtaxPhones, clientData: req.client_data ?? null }, claimed };
  }

  /**
   * `kind: 'display'`: the browser door asks for a number that appeared on a direct display page
   * after its view. `ip`: the client's address (the browser doors'); /ospClick has none, so the
   * address of its view stands for it, and a click without a view has no address limit.
   */
  async click(domain: DomainDoc, sent: OspClickRequest, { kind = 'click', ip }: { kind?: ClickDoc['kind']; ip?: string } = {}, now = new Date()): Promise<OspClickResponse> {
    const req = { ...sent, phone: inCountry(sent.phone, domain) };
    const view = req.view_id === undefined ? null : await this.viewOf(domain, req.view_id);
    const pool = poolFor(domain, req.type);
    const isBot = isBotAgent(req.user_agent);
    const visitId = view?.visitId ?? 0;
    const viewId = view?._id ?? 0;
    const address = ip ?? view?.ip;
    const outcome = isBot
      ? null
      : await this.pool.assign({
          domainId: domain._id,
          pool,
          visitId,
          visitStarted: false,
          viewId,
          phone: req.phone.digits,
          clientData: clientDataEntry(req.client_data, req.phone) ?? req.client_data ?? null,
          expiresAt: expiryFor(req.expiration, domain, now),
          now,
          addressLimit: address ? addressLimitOf(domain, address) : null,
        });
    const lease = outcome && 'lease' in outcome ? outcome.lease : null;
    await this.c.clicks.insertOne({
      _id: await this.ids.next('click'),
      domainId: domain._id,
      kind,
      viewId: view?._id ?? null,
      visitId: view?.visitId ?? null,
      phone: req.phone.digits,
      leaseId: lease?._id ?? null,
      createdAt: now,
      userAgent: req.user_agent ?? null,
      isBot,
    });
    if (outcome && 'refused' in outcome) {
      await this.traffic.numberRefused(domain, pool.type, outcome.refused, now);
      throw new TrackingFailure('WARNING', refusalMessage(outcome.refused));
    }
    if (!lease) throw new TrackingFailure('WARNING', ROBOT_WARNING);
    return { status: 'OK', visitId, viewId, surtaxPhone: surtaxPhoneOf(lease, domain), clientData: req.client_data ?? null };
  }

  /** `holderView`: only the visit of this view may extend the number (the browser door). */
  async expiration(domain: DomainDoc, req: OspExpirationRequest, { holderView }: { holderView?: number } = {}, now = new Date()): Promise<OspExpirationResponse> {
    if (isBotAgent(req.user_agent)) throw new TrackingFailure('WARNING', `${ROBOT_WARNING}; nothing was updated`);
    const expiresAt = expiryFor(req.expiration, domain, now);
    const holder = holderView === undefined ? undefined : (await this.viewOf(domain, holderView)).visitId;
    // The domain's country's reading first; a spec type's French number (0800…) is the other one.
    let outcome: ExpiryOutcome = { problem: 'unknown-number' };
    for (const digits of readingsIn(req.surtax_phone, countryOf(domain))) {
      outcome = await this.pool.setExpiry(domain._id, digits, req.surtax_phone_code ?? null, expiresAt, now, holder);
      if (!('problem' in outcome) || outcome.problem !== 'unknown-number') break;
    }
    if ('problem' in outcome) {
      switch (outcome.problem) {
        case 'unknown-number':
          throw new TrackingFailure('INVALID_PARAMETER', 'Invalid parameter surtax_phone: not a tracking number of this domain');
        case 'code-required':
          throw new TrackingFailure('MISSING_PARAMETER', 'Missing parameter surtax_phone_code: the number is shared, the code says which visitor');
        case 'already-expired':
          throw new TrackingFailure('WARNING', 'Tracking number already expired: nothing was updated');
        case 'not-held':
          throw new TrackingFailure('WARNING', 'Tracking number held by another visit: nothing was updated');
      }
    }
    return { status: 'OK', surtaxPhone: req.surtax_phone, expiresAt: formatUtcDateTime(expiresAt) };
  }

  /** Ours (issue 56, /t/consent): the visitor's answer to Google's consent mode for ads, kept on the
   * visit, the latest standing: its calls and forms send no identifier to the ad platforms when denied. */
  async adsConsent(domain: DomainDoc, visitId: number, consent: 'granted' | 'denied'): Promise<{ status: 'OK' }> {
    const { matchedCount } = await this.c.visits.updateOne({ _id: visitId, domainId: domain._id }, { $set: { adsDenied: consent === 'denied' } });
    if (!matchedCount) throw new TrackingFailure('INVALID_PARAMETER', `Invalid parameter visit_id: no visit ${visitId} on this domain`);
    return { status: 'OK' };
  }

  private async viewOf(domain: DomainDoc, viewId: number): Promise<ViewDoc> {
    const view = await this.c.views.findOne({ _id: viewId });
    if (view?.domainId !== domain._id) throw new TrackingFailure('INVALID_PARAMETER', `Invalid parameter view_id: no view ${viewId} on this domain`);
    return view;
  }
}
