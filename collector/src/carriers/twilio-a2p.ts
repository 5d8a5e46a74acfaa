// US texting from local numbers (issue 81): A2P 10DLC. US carriers deliver texts from a local (10-digit)
// number only when it belongs to a Twilio Messaging Service whose A2P campaign is approved, under a
// registered brand; others fail with Twilio's 30034. Read and written through the official library:
// Messaging Services (`/v1/Services`), their phone numbers, their campaign (`Compliance/Usa2p`) and
// the account's brands (`/v1/a2p/BrandRegistrations`), all on messaging.twilio.com.
import type twilio from 'twilio';

/** Twilio's campaign words, and whether texts go: only VERIFIED sends. */
export type CampaignStatus = 'VERIFIED' | 'PENDING' | 'IN_PROGRESS' | 'FAILED' | 'EXPIRED' | string;

export interface A2pCampaign {
  sid: string;
  status: CampaignStatus;
  useCase: string;
  brandRegistrationSid: string;
}

export interface A2pNumber {
  number: string;
  /** The Messaging Service it belongs to; null: none (texts from it fail with 30034). */
  service: { sid: string; name: string } | null;
  campaign: A2pCampaign | null;
  /** True only when its service's campaign is approved (VERIFIED). */
  registered: boolean;
}

export interface A2pBrand {
  sid: string;
  status: string;
  failureReason: string | null;
}

export interface CampaignRequest {
  /** The account's numbers (E.164) the campaign sends from. */
  numbers: string[];
  serviceName: string;
  brandRegistrationSid: string;
  useCase: string;
  description: string;
  messageFlow: string;
  messageSamples: string[];
  hasEmbeddedLinks: boolean;
  hasEmbeddedPhone: boolean;
  helpMessage: string;
}

/** Services read at most (an account has a handful). */
const MAX_SERVICES = 50;

export class TwilioA2p {
  constructor(private readonly client: twilio.Twilio) {}

  brands(): Promise<A2pBrand[]> {
    return this.client.messaging.v1.brandRegistrations.list({ limit: 20 }).then((list) => list.map((b) => ({ sid: b.sid, status: b.status, failureReason: b.failureReason ?? null })));
  }

  /** Where each of these numbers (E.164) stands: its service, that service's campaign, registered or not. */
  async numbers(numbers: string[]): Promise<A2pNumber[]> {
    const services = await this.client.messaging.v1.services.list({ limit: MAX_SERVICES });
    const found = new Map<string, Omit<A2pNumber, 'number' | 'registered'>>();
    for (const service of services) {
      // By its context: an instance from a list page keeps no sid of its own for its sub-resources.
      const context = this.client.messaging.v1.services(service.sid);
      const [members, campaigns] = await Promise.all([context.phoneNumbers.list({ limit: 400 }), context.usAppToPerson.list({ limit: 1 })]);
      const c = campaigns[0];
      const campaign = c ? { sid: c.sid, status: c.campaignStatus, useCase: c.usAppToPersonUsecase, brandRegistrationSid: c.brandRegistrationSid } : null;
      for (const m of members) if (!found.has(m.phoneNumber)) found.set(m.phoneNumber, { service: { sid: service.sid, name: service.friendlyName }, campaign });
    }
    return numbers.map((number) => {
      const at = found.get(number) ?? { service: null, campaign: null };
      return { number, ...at, registered: at.campaign?.status === 'VERIFIED' };
    });
  }

  /** A Messaging Service for these numbers (one of theirs, else made, each number's own webhook kept
   * for the texts received), the numbers not in a service added, and its campaign registered;
   * `standing`: where the numbers stand now (numbers()), as the caller just read it. */
  async registerCampaign(request: CampaignRequest, numberSids: Map<string, string>, standing: A2pNumber[]): Promise<A2pCampaign> {
    const owned = standing.find((n) => n.service && !n.campaign)?.service;
    const sid = owned ? owned.sid : (await this.client.messaging.v1.services.create({ friendlyName: request.serviceName, useInboundWebhookOnNumber: true })).sid;
    for (const n of standing) if (!n.service && numberSids.has(n.number)) await this.client.messaging.v1.services(sid).phoneNumbers.create({ phoneNumberSid: numberSids.get(n.number)! });
    const made = await this.client.messaging.v1.services(sid).usAppToPerson.create({
      brandRegistrationSid: request.brandRegistrationSid,
      usAppToPersonUsecase: request.useCase,
      description: request.description,
      messageFlow: request.messageFlow,
      messageSamples: request.messageSamples,
      hasEmbeddedLinks: request.hasEmbeddedLinks,
      hasEmbeddedPhone: request.hasEmbeddedPhone,
      // RingTrail answers HELP and STOP itself (texting/keywords.ts): the campaign says so.
      helpMessage: request.helpMessage,
      helpKeywords: ['HELP', 'INFO'],
      optOutKeywords: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'],
      optOutMessage: 'You are unsubscribed and will receive no more texts from this number. Reply START to get them again.',
    });
    return { sid: made.sid, status: made.campaignStatus, useCase: made.usAppToPersonUsecase, brandRegistrationSid: made.brandRegistrationSid };
  }
}
