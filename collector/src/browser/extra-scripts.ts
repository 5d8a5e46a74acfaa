// The scripts a domain's pages load besides tracker.js, named in /t/view's answer (`scripts`, ours),
// each at most once a page: the form capture (tracker-forms.js, with the extra field names the owner
// listed) where form tracking is on, and the ads consent (tracker-ads.js: the visitor's answer to
// Google's consent mode) where an ad platform is connected, with the visit's consent key
// (consent-keys.ts) that /t/consent asks for. Sites without either load nothing more.
import type { DomainDoc } from '../domains/documents.ts';

/** The visit's consent key, where the domain is connected to an ad platform and the visit is known. */
export interface AdsConsent {
  visitId: number;
  consentKey: string;
}

/** Paths at the collector's address, each with the page's public key. */
export function extraScripts(domain: Pick<DomainDoc, 'formTracking'>, key: string, ads: AdsConsent | null): string[] {
  return [
    ...(domain.formTracking?.enabled ? [`/tracker-forms.js?${new URLSearchParams({ key, fields: domain.formTracking.fields.join(',') })}`] : []),
    ...(ads ? [`/tracker-ads.js?${new URLSearchParams({ key, visit: String(ads.visitId), consent: ads.consentKey })}`] : []),
  ];
}
