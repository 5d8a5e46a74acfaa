// The PBX API and the agent service's callStart name no domain, only the number dialled: their
// numbers are read the way that tracking number's domain reads them. A US PBX reporting `4155550141`
// called by `(212) 555-0100` means +1 415… and +1 212…. Twilio needs none of this: it sends E.164,
// which reads the same everywhere.
import type { TrackingNumberDoc, DomainCollections } from './documents.ts';
import { canonicalIn, countryOf, DEFAULT_COUNTRY } from './phone-numbers.ts';

/** A number as it was sent (the wire schemas keep only its digits). */
const textOf = (value: unknown): string | null => (typeof value === 'string' || typeof value === 'number' ? String(value) : null);

/** The tracking number and caller as they were sent. */
export interface SentNumbers {
  trackingNumber?: unknown;
  callerPhone?: unknown;
}

const hasCountryCode = (raw: string) => /^\s*(\+|00)/.test(raw);

export class DialledNumbers {
  constructor(private readonly c: DomainCollections) {}

  /** `report` with its numbers in the canonical form: the tracking number as stored, the caller read
   * in that number's domain's country. `sent`: the tracking number and caller as they were written.
   * A number no domain has is left as the spec reads it (the service answers it is unknown). */
  async read<T extends { trackingNumber: string; callerPhone?: string | null }>(report: T, sent: SentNumbers): Promise<T> {
    const tracking = textOf(sent.trackingNumber);
    const caller = textOf(sent.callerPhone);
    const nationalCaller = Boolean(report.callerPhone) && caller !== null && !hasCountryCode(caller);
    // Both with their country code (E.164, as carriers send): read the same by every domain.
    if (tracking === null || (hasCountryCode(tracking) && !nationalCaller)) return report;
    const found = await this.trackingNumber(tracking, report.trackingNumber);
    if (!found) return report;
    const callerPhone = nationalCaller ? (canonicalIn(caller!, found.country, { anyPossible: true }) ?? report.callerPhone) : report.callerPhone;
    return { ...report, trackingNumber: found.number._id, callerPhone };
  }

  /** The tracking number `raw` names: as the spec reads it (French, or with its country code), else
   * as a national number of the country of the domain that has it. Null when none, or when two
   * countries' domains have their own reading of it (then only E.164 says which). */
  private async trackingNumber(raw: string, specReading: string): Promise<{ number: TrackingNumberDoc; country: string } | null> {
    const exact = await this.c.trackingNumbers.findOne({ _id: specReading });
    if (exact) return { number: exact, country: await this.countryOfDomain(exact.domainId) };
    if (hasCountryCode(raw)) return null;
    const countries = ((await this.c.domains.distinct('country')) as string[]).filter((c) => c && c !== DEFAULT_COUNTRY);
    const readings = countries.map((country) => ({ country, number: canonicalIn(raw, country) })).filter((r) => r.number !== null && r.number !== specReading);
    if (readings.length === 0) return null;
    const numbers = await this.c.trackingNumbers.find({ _id: { $in: readings.map((r) => r.number!) } }).toArray();
    const matches = [];
    for (const number of numbers) {
      const country = await this.countryOfDomain(number.domainId);
      if (readings.some((r) => r.number === number._id && r.country === country)) matches.push({ number, country });
    }
    return matches.length === 1 ? matches[0]! : null;
  }

  private async countryOfDomain(domainId: string): Promise<string> {
    return countryOf((await this.c.domains.findOne({ _id: domainId }, { projection: { country: 1 } })) ?? {});
  }
}
