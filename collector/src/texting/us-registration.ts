// US texting registration of a domain (issue 81, carriers/twilio-a2p.ts): for a US domain, its local
// tracking numbers at the carrier, whether each may text (in a Messaging Service whose A2P 10DLC
// campaign is approved), the account's brands, and the campaign registered from the back end.
import { z } from 'zod';
import type { Carrier } from '../carriers/carrier.ts';
import type { A2pBrand, A2pNumber } from '../carriers/twilio-a2p.ts';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import { displayOf } from '../domains/phone-display.ts';
import { countryOf, e164Of } from '../domains/phone-numbers.ts';

/** The campaign use cases a call-tracking inbox fits (Twilio's `us_app_to_person_usecase` words). */
export const USE_CASES = ['CUSTOMER_CARE', 'LOW_VOLUME', 'MIXED', 'ACCOUNT_NOTIFICATION', 'MARKETING'] as const;
/** North American toll-free area codes: their texting is verified otherwise (toll-free verification). */
const TOLL_FREE = /^\+18(00|33|44|55|66|77|88)/;
/** Where an owner registers the brand (a Customer Profile, then the brand: Twilio's Console). */
export const BRAND_CONSOLE_URL = 'https://console.twilio.com/us1/develop/sms/regulatory-compliance/brands';

const sample = z.string().trim().min(20, 'must be at least 20 characters').max(1024, 'must be at most 1024 characters');

export const campaignBody = z
  .object({
    brandRegistrationSid: z.string().regex(/^BN[0-9a-fA-F]{32}$/, "must be a brand's SID (BN…)").describe("The account's registered brand"),
    useCase: z.enum(USE_CASES, { error: `must be one of ${USE_CASES.join(', ')}` }).describe("The campaign's use case, as Twilio names it"),
    description: z.string().trim().min(40, 'must be at least 40 characters').max(4096, 'must be at most 4096 characters').describe('What the texts are for, said for the carriers'),
    messageFlow: z.string().trim().min(40, 'must be at least 40 characters').max(2048, 'must be at most 2048 characters').describe('How a texter agrees to be texted (they text the number first, a form with consent…)'),
    messageSamples: z.array(sample).min(2, 'give 2 to 5 samples').max(5, 'give 2 to 5 samples').describe('Texts as the team sends them'),
    hasEmbeddedLinks: z.boolean().default(false),
    hasEmbeddedPhone: z.boolean().default(false),
  })
  .strict();
export type CampaignBody = z.infer<typeof campaignBody>;

export interface UsRegistration {
  /** Only a US domain's local numbers need one. */
  required: boolean;
  numbers: (A2pNumber & { shown: string })[];
  brands: A2pBrand[];
  /** Every local number may text. */
  ready: boolean;
  brandConsoleUrl: string;
}

/** The domain's US local numbers at the carrier, by E.164: the carrier's id, and the number as stored. */
async function localNumbersOf(c: DomainCollections, domain: DomainDoc): Promise<Map<string, { sid: string; canonical: string }>> {
  const stored = await c.trackingNumbers.find({ domainId: domain._id, carrier: { $exists: true } }, { projection: { carrier: 1 }, limit: 1000 }).toArray();
  return new Map(stored.map((n) => [e164Of(n._id), { sid: n.carrier!.sid, canonical: n._id }] as const).filter(([e164]) => e164.startsWith('+1') && !TOLL_FREE.test(e164)));
}

export async function usRegistrationOf(c: DomainCollections, carrier: Carrier, domain: DomainDoc): Promise<UsRegistration> {
  const none = { numbers: [], brands: [], brandConsoleUrl: BRAND_CONSOLE_URL };
  if (countryOf(domain) !== 'US' || !carrier.usTexting) return { required: false, ready: true, ...none };
  const local = await localNumbersOf(c, domain);
  if (!local.size) return { required: true, ready: true, ...none };
  const [numbers, brands] = await Promise.all([carrier.usTexting.numbers([...local.keys()]), carrier.usTexting.brands()]);
  return { required: true, numbers: numbers.map((n) => ({ ...n, shown: displayOf(local.get(n.number)!.canonical, 'US') })), brands, ready: numbers.every((n) => n.registered), brandConsoleUrl: BRAND_CONSOLE_URL };
}

/** A campaign that cannot be registered for this domain (400, in words). */
export class NotRegistrable extends Error {}

/** Registers the campaign of the domain's local numbers (their Messaging Service made where none holds them). */
export async function registerCampaign(c: DomainCollections, carrier: Carrier, domain: DomainDoc, body: CampaignBody, helpMessage: string) {
  if (countryOf(domain) !== 'US' || !carrier.usTexting) throw new NotRegistrable(`${domain.name} is not a US domain: its numbers need no US texting registration`);
  const local = await localNumbersOf(c, domain);
  if (!local.size) throw new NotRegistrable(`${domain.name} has no US local number at the carrier to register`);
  // A number already in a campaign keeps it: a second campaign is for numbers that have none.
  const standing = await carrier.usTexting.numbers([...local.keys()]);
  if (standing.every((n) => n.campaign)) throw new NotRegistrable(`Every US local number of ${domain.name} is in a campaign already: its review goes on at Twilio`);
  return carrier.usTexting.registerCampaign({ ...body, numbers: [...local.keys()], serviceName: `RingTrail ${domain.name}`, helpMessage }, new Map([...local].map(([e164, n]) => [e164, n.sid])), standing);
}
