// Test fixtures in the seed format, small pools so exhaustion is easy to reach.
export const API_KEY = 'track-test-key';
export const DATA_KEY = 'data-test-key';

export interface FixtureOverrides {
  exclusive?: string[];
  shared?: string[];
  codeDigits?: number;
  defaultExpiration?: number;
  allowedOrigins?: string[];
  displayMode?: 'direct' | 'click';
  antiFlickerMs?: number;
  timeZone?: string;
  callerPrivacy?: 'none' | 'partial' | 'full';
  numbersPerAddress?: number;
  /** Further domain settings, as a fixture names them (redirectPhone, whisper, blockedCallers...). */
  settings?: Record<string, unknown>;
  /** Users of the back end. */
  users?: { username: string; password: string; role?: string; domains?: string[]; alerts?: Record<string, Record<string, unknown>> }[];
}

export function trackingFixture(overrides: FixtureOverrides = {}) {
  return {
    accounts: [
      {
        name: 'Test account',
        callCenterApiKey: 'cc-test-key',
        users: overrides.users ?? [],
        domains: [
          {
            name: 'shop.test',
            apiKey: API_KEY,
            dataApiKey: DATA_KEY,
            offlineApiKey: 'offline-test-key',
            offlineApiEnabled: true,
            timeZone: overrides.timeZone ?? 'UTC',
            callerPrivacy: overrides.callerPrivacy ?? 'none',
            publicKey: 'pk-test-key',
            allowedOrigins: overrides.allowedOrigins ?? ['http://shop.test', 'https://shop.test'],
            sitePhones: ['0123456789', '0987654321'],
            displayMode: overrides.displayMode ?? 'direct',
            antiFlickerMs: overrides.antiFlickerMs ?? 1000,
            defaultExpiration: overrides.defaultExpiration ?? 1800,
            // Off unless a test is about it: most tests send every visitor from one address.
            numbersPerAddress: overrides.numbersPerAddress ?? 0,
            pools: [
              { type: 1, usage: 'online', numbers: overrides.exclusive ?? ['0800000001', '0800000002', '0800000003'] },
              { type: 9, usage: 'online', codeDigits: overrides.codeDigits ?? 4, numbers: overrides.shared ?? ['0400000001'] },
              { type: 6, usage: 'offline', numbers: ['0100000001'] },
            ],
            ...overrides.settings,
          },
        ],
      },
    ],
  };
}

/** Every required /ospView parameter, for a first view in direct display of one phone. */
export function viewParams(extra: Record<string, string | number | boolean | undefined> = {}): Record<string, string | number | boolean | undefined> {
  return {
    api_key: API_KEY,
    visit_id: 0,
    ip: '203.0.113.7',
    url: 'https://shop.test/contact',
    page_title: 'Contact',
    is_mobile: false,
    referer_url: '',
    nr_phones: 1,
    direct_display: true,
    phones: '0123456789',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
    ...extra,
  };
}

export const CUSTOMER_KEY = 'customer-test-key';
/** The tracking fixture's domain under another name (`label.test`), with keys of its own and one
 * offline number: a second domain of an account, or another account's. */
export function domainNamed(label: string, offlineNumber: string) {
  const domain = trackingFixture().accounts[0]!.domains[0]!;
  return { ...domain, name: `${label}.test`, apiKey: `track-${label}-key`, dataApiKey: `data-${label}-key`, offlineApiKey: `offline-${label}-key`, publicKey: `pk-${label}-key`, pools: [{ type: 6, usage: 'offline', numbers: [offlineNumber] }] };
}

/** Two accounts on one collector: the tracking fixture's (shop.test, with `first`'s users and
 * settings), and another account whose one domain is `label.test` with `offlineNumber`. */
export function twoAccountsFixture(first: FixtureOverrides, second: { users: FixtureOverrides['users']; label: string; offlineNumber: string }) {
  const shop = trackingFixture(first).accounts[0]!;
  const other = trackingFixture({ users: second.users ?? [] }).accounts[0]!;
  return { accounts: [shop, { ...other, name: `${second.label} account`, callCenterApiKey: `cc-${second.label}-key`, domains: [domainNamed(second.label, second.offlineNumber)] }] };
}

export const CC_KEY = 'cc-test-key';
export const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** The tracking fixture with the shop side: customer key, order statuses, webhook and GA4. */
export function commerceFixture({ webhookUrl, ga4 = true, tracking = {} }: { webhookUrl?: string; ga4?: boolean; tracking?: FixtureOverrides } = {}) {
  const fixture = trackingFixture(tracking);
  const account = fixture.accounts[0]!;
  const domain = account.domains[0]!;
  return {
    accounts: [
      {
        ...account,
        ...(webhookUrl ? { webhookUrl, webhookSecret: WEBHOOK_SECRET } : {}),
        domains: [
          {
            ...domain,
            customerKey: CUSTOMER_KEY,
            currency: 'EUR',
            orderStatuses: [
              { name: 'pending', isSale: false },
              { name: 'paid', isSale: true },
              { name: 'shipped', isSale: true },
              { name: 'cancelled', isSale: false },
            ],
            ...(ga4 ? { ga4MeasurementId: 'G-TEST123', ga4ApiSecret: 'ga4-test-secret' } : {}),
          },
        ],
      },
    ],
  };
}
