// The scripts a domain's pages load besides tracker.js, named in /t/view's answer (`scripts`, ours),
// each at most once a page: the form capture (tracker-forms.js, with the extra field names the owner
// listed) where form tracking is on, and the ads consent (tracker-ads.js: the visitor's answer to
// Google's consent mode) where an ad platform is connected. Sites without either load nothing more.
import type { DomainDoc } from '../domains/documents.ts';

/** Paths at the collector's address, each with the page's public key. */
export function extraScripts(domain: Pick<DomainDoc, 'formTracking'>, key: string, adsConnected: boolean): string[] {
  return [
    ...(domain.formTracking?.enabled ? [`/tracker-forms.js?${new URLSearchParams({ key, fields: domain.formTracking.fields.join(',') })}`] : []),
    ...(adsConnected ? [`/tracker-ads.js?${new URLSearchParams({ key })}`] : []),
  ];
}
