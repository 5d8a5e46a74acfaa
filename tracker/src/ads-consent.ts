// The tag's ads consent (tracker-ads.js, issue 56), loaded by the core only where the domain is
// connected to an ad platform: Google's consent mode as the page set it. `gtag('consent', 'default'
// | 'update', {...})` pushes its arguments onto the page's dataLayer, where the latest word for
// `ad_storage` and `ad_user_data` stands; either denied is `denied`. Sent to /t/consent once known
// and again whenever it changes (the visitor answers the banner), never when the page says nothing:
// the collector then sends no identifier of a visitor who denied it to the ad platforms. Each change
// carries the visit's consent key, which the collector put in this script's address (issue 70): a
// stranger who knows only a visit id cannot change its consent.
import { beacon, own } from './extra-script.ts';

interface Core {
  visitId(): number;
}

type Entry = ArrayLike<unknown> | null | undefined;
type Said = { ad_storage?: unknown; ad_user_data?: unknown };

/** How long the page is watched for a late answer besides the dataLayer's pushes. */
const WATCH_MS = 120_000;
const EVERY_MS = 2000;

/** The page's answer: `denied`, `granted`, or null when it said nothing. */
export function adsConsentOf(layer: Entry[] | undefined): 'granted' | 'denied' | null {
  const said: Said = {};
  for (const entry of Array.isArray(layer) ? layer : []) {
    if (entry?.[0] == 'consent' && (entry[1] == 'default' || entry[1] == 'update') && typeof entry[2] == 'object') Object.assign(said, entry[2]);
  }
  const words = [said.ad_storage, said.ad_user_data];
  return words.includes('denied') ? 'denied' : words.includes('granted') ? 'granted' : null;
}

function start(core: Core): void {
  const page = window as unknown as { dataLayer?: Entry[] };
  let sent: string | null = null;
  const check = () => {
    const consent = adsConsentOf(page.dataLayer);
    const visitId = core.visitId();
    if (!consent || consent == sent || !visitId) return;
    sent = consent;
    beacon('/t/consent', { key: own.searchParams.get('key') || '', visit_id: `${visitId}`, ads_consent: consent, consent_key: own.searchParams.get('consent') || '' });
  };
  check();
  // A later answer is a push onto the dataLayer (gtag's, or the consent banner's own).
  const layer = (page.dataLayer ||= []);
  const push = layer.push;
  layer.push = function (...items: Entry[]) {
    const length = push.apply(this, items);
    check();
    return length;
  };
  // And a page that puts a new dataLayer in place: looked at a while, cheaply.
  const watch = setInterval(check, EVERY_MS);
  setTimeout(() => clearInterval(watch), WATCH_MS);
}

const core = (window as unknown as { RingTrail?: Core }).RingTrail;
if (core) start(core);
