// The domain the fuzzing run works on: every key known, so generated requests authenticate.
export const FUZZ_KEYS = {
  api_key: 'fuzz-api-key-0001',
  key: 'fuzz-public-key-0001',
  apiKey: 'fuzz-call-center-0001',
  telephony: 'fuzz-telephony-key-0001',
} as const;

export const FUZZ_USER = { username: 'fuzz@fuzz.test', password: 'fuzz password 1' };
/** A second member: the member routes' `{username}`, so that they reach past "not a member". */
export const FUZZ_MEMBER = { username: 'member@fuzz.test', password: 'member password 1', role: 'agent', domains: ['fuzz.test'] };

/** The data API's key is also `api_key`, the offline and customer keys `key`: one value each, so
 * the fixture gives the same value to every key sent under one name. */
export const fuzzFixture = {
  accounts: [
    {
      name: 'Fuzz',
      callCenterApiKey: FUZZ_KEYS.apiKey,
      users: [FUZZ_USER, FUZZ_MEMBER],
      domains: [
        {
          name: 'fuzz.test',
          apiKey: FUZZ_KEYS.api_key,
          dataApiKey: FUZZ_KEYS.api_key,
          publicKey: FUZZ_KEYS.key,
          offlineApiKey: FUZZ_KEYS.key,
          customerKey: FUZZ_KEYS.key,
          offlineApiEnabled: true,
          allowedOrigins: ['http://fuzz.test'],
          sitePhones: ['0123456789'],
          orderStatuses: [{ name: 'paid', isSale: true }, { name: 'pending', isSale: false }],
          pools: [
            { type: 1, usage: 'online', numbers: ['0800000001', '0800000002', '0800000003'] },
            { type: 9, usage: 'online', codeDigits: 2, numbers: ['0400000001'] },
            { type: 6, usage: 'offline', numbers: ['0100000001', '0100000002'] },
          ],
        },
      ],
    },
  ],
};
