// Where a visit came from, derived from the page URL and its referrer.

export type SourceClass = 'organic' | 'paid' | 'social' | 'referral' | 'direct';

export interface Attribution {
  source: SourceClass;
  /** Referrer host, or utm_source when the URL names one. */
  sourceName: string | null;
  keyword: string | null;
  gclid: string | null;
  /** Ours: Microsoft Advertising's and Meta's click ids, like Google's; absent on visits stored before them. */
  msclkid?: string | null;
  fbclid?: string | null;
  /** Ours (issue 56): Google's click ids of app and iOS web traffic, kept only when the URL has them. */
  gbraid?: string;
  wbraid?: string;
  utm: Partial<Record<UtmField, string>>;
}

/** A Google click id of app or iOS traffic (gbraid, wbraid) of the page's URL, as a field to keep. */
const braid = (params: URLSearchParams | undefined, name: 'gbraid' | 'wbraid') => {
  const value = params?.get(name)?.slice(0, 200);
  return value ? { [name]: value } : {};
};

const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
type UtmField = (typeof UTM_FIELDS)[number];

/** Search engines, by a label of their host, and the query parameter holding the keyword. */
const SEARCH_ENGINES: [RegExp, string[]][] = [
  [/(^|\.)google\./, ['q']],
  [/(^|\.)bing\.com$/, ['q']],
  [/(^|\.)yahoo\./, ['p', 'q']],
  [/(^|\.)duckduckgo\.com$/, ['q']],
  [/(^|\.)qwant\.com$/, ['q']],
  [/(^|\.)ecosia\.org$/, ['q']],
  [/(^|\.)yandex\./, ['text']],
  [/(^|\.)baidu\.com$/, ['wd', 'word']],
  [/(^|\.)startpage\.com$/, ['query', 'q']],
  [/(^|\.)search\.brave\.com$/, ['q']],
];

const SOCIAL_HOSTS = /(^|\.)(facebook\.com|fb\.com|instagram\.com|t\.co|twitter\.com|x\.com|linkedin\.com|lnkd\.in|pinterest\.[a-z.]+|youtube\.com|tiktok\.com|reddit\.com|snapchat\.com|whatsapp\.com)$/;
const PAID_MEDIUMS = /^(cpc|ppc|paid|paidsearch|paid_search|paid-search|cpm|display|sea|adwords|ads?)$/i;
const SOCIAL_MEDIUMS = /^(social|social-network|social_media|sm)$/i;

export function attribute(pageUrl: string, referrerUrl: string): Attribution {
  const page = parseUrl(pageUrl);
  const referrer = parseUrl(referrerUrl);
  const params = page?.searchParams;
  const utm: Attribution['utm'] = {};
  for (const field of UTM_FIELDS) {
    const value = params?.get(field);
    if (value) utm[field] = value;
  }
  const gclid = params?.get('gclid') || null;
  const msclkid = params?.get('msclkid') || null;
  const fbclid = params?.get('fbclid') || null;
  const refHost = referrer && referrer.host !== page?.host ? referrer.hostname.toLowerCase() : null;
  const engine = refHost ? SEARCH_ENGINES.find(([host]) => host.test(refHost)) : undefined;
  const searchTerm = engine ? firstParam(referrer!, engine[1]) : null;
  const medium = utm.utm_medium ?? '';

  let source: SourceClass;
  // An ad click id says paid; Meta's fbclid marks any link shared on its apps: social unless a paid medium says otherwise.
  const braids = { ...braid(params, 'gbraid'), ...braid(params, 'wbraid') };
  if (gclid || msclkid || Object.keys(braids).length || PAID_MEDIUMS.test(medium)) source = 'paid';
  else if (fbclid || SOCIAL_MEDIUMS.test(medium) || (refHost && SOCIAL_HOSTS.test(refHost))) source = 'social';
  else if (engine) source = 'organic';
  else if (refHost || utm.utm_source) source = 'referral';
  else source = 'direct';

  const keyword = source === 'paid' ? (utm.utm_term ?? searchTerm) : source === 'organic' ? searchTerm : null;
  return { source, sourceName: utm.utm_source ?? refHost, keyword: keyword ?? null, gclid, msclkid, fbclid, ...braids, utm };
}

/** An attribution's gbraid and wbraid as a call or a form keeps them: only those it has. */
export function braidsOf(a: Pick<Attribution, 'gbraid' | 'wbraid'> | null | undefined): Pick<Attribution, 'gbraid' | 'wbraid'> {
  return { ...(a?.gbraid ? { gbraid: a.gbraid } : {}), ...(a?.wbraid ? { wbraid: a.wbraid } : {}) };
}

/** `organic:google.com`, `direct`...: a call's and an order's source. */
export function sourceLabel(a: Attribution): string {
  return a.sourceName ? `${a.source}:${a.sourceName}` : a.source;
}

function parseUrl(value: string): URL | null {
  try {
    return value ? new URL(value) : null;
  } catch {
    return null;
  }
}

function firstParam(url: URL, names: string[]): string | null {
  for (const name of names) {
    const value = url.searchParams.get(name)?.trim();
    if (value) return value;
  }
  return null;
}
