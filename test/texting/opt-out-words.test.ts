// Opt-out words read as a person reads them (issue 79), tried as the attack was: full-width ＳＴＯＰ,
// STOP with a zero-width space, STOP STOP and "Stop!!" each opt the number out, so no reply reaches
// it; on a French domain ARRET (Arrêt) does too, on a US domain it is a word like any other.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keywordOf } from '../../collector/src/texting/keywords.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { twilioPost } from '../helpers/telephony.ts';
import { standInAccount, standInNumber, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';

const TWILIO = { sid: 'AC79797979797979797979797979797981', token: 'token-of-the-opt-out-words-account' };
const OWNER = { username: 'owner@shop.test', password: 'opt out words owner password' };
const TRACKING = '+33800000001';

let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(TWILIO.sid, TWILIO.token, { numbers: [standInNumber(TRACKING)] })]);
});
afterAll(() => api.close());
const s = useSeededCollector('opt_out_words', trackingFixture({ users: [OWNER] }), {
  secretsKey: randomBytes(32),
  get twilioApiBase() {
    return api.base;
  },
});

describe('opt-out words', () => {
  it('opts out a number that texted a look-alike of STOP, or ARRET on a French domain: no reply reaches it', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: TWILIO.sid, authToken: TWILIO.token })).status).toBe(200);
    const said = ['ＳＴＯＰ', 'STOP\u200B', 'STOP STOP', 'Stop!!', 'Arrêt', 'ARRET.'];
    for (const [i, body] of said.entries()) {
      const from = `+3361234560${i}`;
      expect((await twilioPost(s.collector.baseUrl, '/sms', { AccountSid: TWILIO.sid, MessageSid: `SM-words-${i}`, From: from, To: TRACKING, Body: body, NumSegments: '1' }, TWILIO.token)).status).toBe(200);
      const conversation = (await s.t.c.conversations.findOne({ phone: `061234560${i}` }))!;
      const sentBefore = api.messages.length;
      const reply = await owner.call('POST', `/domains/shop.test/conversations/${conversation._id}/messages`, { body: 'Are you sure?' });
      expect([body, reply.status, reply.body.error]).toEqual([body, 400, expect.stringMatching(/^This number opted out: they texted (STOP|ARRET) on /)]);
      expect(api.messages.length).toBe(sentBefore);
    }
    // A sentence with the word in it is no keyword: the reply goes.
    await twilioPost(s.collector.baseUrl, '/sms', { AccountSid: TWILIO.sid, MessageSid: 'SM-words-sentence', From: '+33612345699', To: TRACKING, Body: 'please stop by tomorrow', NumSegments: '1' }, TWILIO.token);
    const talking = (await s.t.c.conversations.findOne({ phone: '0612345699' }))!;
    expect((await owner.call('POST', `/domains/shop.test/conversations/${talking._id}/messages`, { body: 'See you then' })).status).toBe(201);
  });

  it('reads the words after NFKC, without invisible characters, punctuation or repeats, and ARRET only where French is written', () => {
    for (const text of ['ＳＴＯＰ', 'STOP\u200B', '\u200DS\u200CTOP', 'STOP STOP', 'stop, stop!', '  Stop!! ', 'ＵＮＳＵＢＳＣＲＩＢＥ', 'STOP\uFEFF']) expect([text, keywordOf(text, 'US')]).toEqual([text, { keyword: 'opt-out', word: expect.any(String) }]);
    expect(keywordOf('Arrêt', 'FR')).toEqual({ keyword: 'opt-out', word: 'ARRET' });
    expect(keywordOf('ARRET', 'CA')).toEqual({ keyword: 'opt-out', word: 'ARRET' });
    expect(keywordOf('ARRET', 'US')).toBeNull();
    expect(keywordOf('STOP START')).toBeNull();
    expect(keywordOf('please stop texting me')).toBeNull();
    expect(keywordOf(`STOP ${'STOP '.repeat(60)}`)).toBeNull(); // longer than any keyword text
    expect(keywordOf('ｓｔａｒｔ')).toEqual({ keyword: 'opt-in', word: 'START' });
  });
});
