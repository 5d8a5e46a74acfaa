// Hole 2 of issue 52, as the attack: account A has its own Twilio account connected, so it can sign
// requests that verify with its token. Before the fix, nothing checked that the number was A's: A could
// sign voice, status, dial, recording and SMS requests for account B's numbers and write fake calls,
// outcomes, recordings and texts into B. Now a signed request is taken only for the signer's numbers.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { twoAccountsFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { twilioPost } from '../helpers/telephony.ts';
import { standInAccount, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';

const A = { sid: 'AC77777777777777777777777777777777', token: 'token-of-attacker-account', owner: { username: 'owner@attacker.test', password: 'attacker account password' } };
const B = { sid: 'AC88888888888888888888888888888888', token: 'token-of-victim-account', owner: { username: 'owner@victim.test', password: 'victim account password' } };
const A_NUMBER = '+33100000001';
const B_NUMBER = '+33100000099';


let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(A.sid, A.token), standInAccount(B.sid, B.token)]);
});
afterAll(() => api.close());

describe("a Twilio request signed by one account for another account's number", () => {
  const s = useSeededCollector('cross_account_twilio', twoAccountsFixture({ users: [A.owner] }, { users: [B.owner], label: 'victim', offlineNumber: '0100000099' }), {
    secretsKey: randomBytes(32),
    get twilioApiBase() {
      return api.base;
    },
  });
  const post = (path: string, params: Record<string, string>, who = A) => twilioPost(s.collector.baseUrl, path, { AccountSid: who.sid, ...params }, who.token);

  it('is refused with 403 and writes nothing, for every kind of Twilio request', async () => {
    for (const [who, owner] of [[A, A.owner], [B, B.owner]] as const) {
      const client = await signedInClient(s.collector.baseUrl, owner.username, owner.password);
      expect((await client.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: who.sid, authToken: who.token })).status).toBe(200);
    }
    // B's own call, as Twilio sends it: taken.
    expect((await post('/voice', { CallSid: 'CA-victim-1', From: '+33611111111', To: B_NUMBER, CallStatus: 'ringing' }, B)).status).toBe(200);
    const before = await s.t.c.calls.findOne({ callRef: 'CA-victim-1' });
    expect(before).toMatchObject({ status: null, trackingNumber: '0100000099' });

    // A, with a signature that verifies with A's own token, for B's number and B's call.
    const attacks = [
      post('/voice', { CallSid: 'CA-fake-1', From: '+33622222222', To: B_NUMBER, CallStatus: 'ringing' }),
      post('/status', { CallSid: 'CA-victim-1', From: '+33611111111', To: A_NUMBER, CallStatus: 'completed', CallDuration: '95' }),
      post('/status', { CallSid: 'CA-fake-2', From: '+33622222222', To: B_NUMBER, CallStatus: 'completed', CallDuration: '95' }),
      post('/dial', { CallSid: 'CA-victim-1', DialCallStatus: 'completed', DialCallDuration: '90' }),
      post('/recording', { CallSid: 'CA-victim-1', RecordingStatus: 'completed', RecordingSid: 'RE00000000000000000000000000000001', RecordingUrl: `${api.base}/2010-04-01/Accounts/${A.sid}/Recordings/RE00000000000000000000000000000001`, RecordingDuration: '90' }),
      post('/sms', { MessageSid: 'SM-fake-1', From: '+33622222222', To: B_NUMBER, Body: 'fake lead' }),
    ];
    for (const answer of await Promise.all(attacks)) expect(answer.status).toBe(403);
    expect(await s.t.c.calls.countDocuments({ callRef: { $in: ['CA-fake-1', 'CA-fake-2'] } })).toBe(0);
    expect(await s.t.c.calls.findOne({ callRef: 'CA-victim-1' })).toEqual(before);
    expect(await s.t.c.sms.countDocuments({})).toBe(0);
    expect(await s.t.c.outbox.countDocuments({ kind: 'recording' })).toBe(0);

    // A's own numbers still work for A.
    expect((await post('/voice', { CallSid: 'CA-own-1', From: '+33622222222', To: A_NUMBER, CallStatus: 'ringing' })).status).toBe(200);
    expect((await post('/status', { CallSid: 'CA-own-1', From: '+33622222222', To: A_NUMBER, CallStatus: 'completed', CallDuration: '5' })).status).toBe(200);
    const own = await s.t.c.calls.findOne({ callRef: 'CA-own-1' });
    expect([own?.trackingNumber, own?.duration]).toEqual(['0100000001', 5]);
  });
});
