// The whisper: a short sentence whoever answers a forwarded call hears before the caller is put
// through, saying where the caller came from ("Call from Google Ads, keyword emergency plumber").
import type { CallAttribution } from './documents.ts';
import { ownEntry } from '../own-entry.ts';

type Led = Pick<CallAttribution, 'source' | 'keyword' | 'offlineDescription'>;

/** Ad networks and sites by the name a source carries (`utm_source`, or the referrer's host). */
const NAMES: [RegExp, string][] = [
  [/^google$|(^|\.)google\./, 'Google'],
  [/^(bing|microsoft|msn)$|(^|\.)bing\.com$/, 'Microsoft'],
  [/^(facebook|fb|meta|instagram)$|(^|\.)(facebook|fb|instagram)\.com$/, 'Facebook'],
  [/^(linkedin|lnkd)$|(^|\.)linkedin\.com$/, 'LinkedIn'],
  [/^(twitter|x)$|(^|\.)(twitter|x)\.com$|^t\.co$/, 'X'],
  [/^youtube$|(^|\.)youtube\.com$/, 'YouTube'],
  [/^tiktok$|(^|\.)tiktok\.com$/, 'TikTok'],
  [/^yahoo$|(^|\.)yahoo\./, 'Yahoo'],
  [/^duckduckgo$|(^|\.)duckduckgo\.com$/, 'DuckDuckGo'],
];
const AD_PRODUCTS: Record<string, string> = { Google: 'Google Ads', Microsoft: 'Microsoft Advertising', Facebook: 'Facebook ads' };

function nameOf(raw: string | undefined): string | null {
  if (!raw) return null;
  const name = raw.toLowerCase().replace(/^www\./, '');
  return NAMES.find(([pattern]) => pattern.test(name))?.[1] ?? name;
}

/** Said in English by the carrier's text-to-speech; the keyword as the visitor typed it. A call no
 * visit led to says so (issue 81), rather than "from the website". */
export function whisperOf(call: Led): string {
  return call.source === null && !call.offlineDescription ? 'Call that no website visit led to' : `Call from ${cameFrom(call)}`;
}

/** Where the caller came from, in words: `Google Ads, keyword emergency plumber` (alert mails say it too). */
export function cameFrom(call: Led): string {
  if (call.offlineDescription) return `the ${call.offlineDescription} campaign`;
  const [kind, rawName] = (call.source ?? '').split(/:(.*)/) as [string, string | undefined];
  const name = nameOf(rawName);
  const keyword = call.keyword ? `, keyword ${call.keyword}` : '';
  switch (kind) {
    case 'paid':
      return `${name ? (ownEntry(AD_PRODUCTS, name) ?? `an ad on ${name}`) : 'an ad'}${keyword}`;
    case 'organic':
      return `a ${name ? `${name} ` : ''}search${keyword}`;
    case 'social':
      return name ?? 'social media';
    case 'referral':
      return `a link on ${name ?? 'another site'}`;
    case 'direct':
      return 'a visitor who came to the website directly';
    default:
      return 'the website';
  }
}
