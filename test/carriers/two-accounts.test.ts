// Two accounts, two Twilio accounts, one collector (issue 42): each Twilio request is checked with
// the auth token of the account connected to its AccountSid (the owner of the number called), with
// no TWILIO_AUTH_TOKEN at all; a request signed with the other account's token is refused.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { twoAccountsFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { twilioPost } from '../helpers/telephony.ts';
import { standInAccount, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';

const A = { sid: 'AC44444444444444444444444444444444', token: 'token-of-twilio-account-a', owner: { username: 'owner@shop.test', password: 'account a password' } };
const B = { sid: 'AC55555555555555555555555555555555', token: 'token-of-twilio-account-b', owner: { username: 'owner@other.test', password: 'account b password' } };


let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(A.sid, A.token), standInAccount(B.sid, B.token)]);
});
afterAll(() => api.close());

describe('two accounts with a Twilio account each', () => {
  const s = useSeededCollector('carrier_two_accounts', twoAccountsFixture({ users: [A.owner] }, { users: [B.owner], label: 'other', offlineNumber: '0100000099' }), {
    secretsKey: randomBytes(32),
    get twilioApiBase() {
      return api.base;
    },
  });
  const voice = (accountSid: string, to: string, callSid: string, token: string) => twilioPost(s.collector.baseUrl, '/voice', { AccountSid: accountSid, CallSid: callSid, From: '+33611111111', To: to, CallStatus: 'ringing' }, token);

  it("checks each account's calls with its own token", async () => {
    // Nothing connected yet, and no TWILIO_AUTH_TOKEN: Twilio is not configured.
    expect((await voice(A.sid, '+33100000001', 'CA-a-0', A.token)).status).toBe(403);
    for (const [who, owner] of [[A, A.owner], [B, B.owner]] as const) {
      const client = await signedInClient(s.collector.baseUrl, owner.username, owner.password);
      expect((await client.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: who.sid, authToken: who.token })).status).toBe(200);
    }
    const a = await voice(A.sid, '+33100000001', 'CA-a-1', A.token);
    const b = await voice(B.sid, '+33100000099', 'CA-b-1', B.token);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await s.t.c.calls.countDocuments({ callRef: { $in: ['CA-a-1', 'CA-b-1'] } })).toBe(2);
    // Signed with the other account's token: refused, nothing stored.
    expect((await voice(A.sid, '+33100000001', 'CA-a-forged', B.token)).status).toBe(403);
    expect((await voice('AC66666666666666666666666666666666', '+33100000001', 'CA-unknown', A.token)).status).toBe(403);
    expect(await s.t.c.calls.countDocuments({ callRef: { $in: ['CA-a-forged', 'CA-unknown'] } })).toBe(0);
  });
});
