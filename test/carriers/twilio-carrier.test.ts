// Twilio as a carrier (issue 42), through the official `twilio` library pointed at a loopback
// stand-in of Twilio's REST API (TWILIO_API_BASE): the account checked, its numbers listed and
// wired, and Twilio's refusals in words with its own codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwilioCarrier } from '../../collector/src/carriers/twilio-carrier.ts';
import { CarrierError } from '../../collector/src/carriers/carrier.ts';
import { standInAccount, standInNumber, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';

const SID = 'AC11111111111111111111111111111111';
const TOKEN = 'twilio-account-one-token';
let api: TwilioApiStandIn;
beforeAll(async () => {
  api = await startTwilioApi([standInAccount(SID, TOKEN, { apiKeys: { SK11111111111111111111111111111111: 'api-key-secret' }, numbers: [standInNumber('+14155550100', { voice_url: 'https://elsewhere.example/voice' })] })]);
});
afterAll(() => api.close());

describe('Twilio as a carrier', () => {
  it('checks the credentials at once: the auth token, or an API key and secret', async () => {
    expect(await new TwilioCarrier(api.base, { accountSid: SID, secret: TOKEN }).connect()).toEqual({ name: 'Account 1111', status: 'active', signingToken: TOKEN });
    expect(await new TwilioCarrier(api.base, { accountSid: SID, apiKey: 'SK11111111111111111111111111111111', secret: 'api-key-secret' }).connect()).toMatchObject({ status: 'active', signingToken: TOKEN }); // the account's token, as Twilio's API answers it
    const refused = await new TwilioCarrier(api.base, { accountSid: SID, secret: 'wrong' }).connect().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(CarrierError);
    expect(refused).toMatchObject({ kind: 'credentials', code: 20003, message: 'Twilio refused the credentials (wrong or revoked): Authenticate (Twilio error 20003)' });
    // The request went to the stand-in, as Twilio's API has it.
    expect(api.requests.at(-1)).toMatchObject({ method: 'GET', path: `/2010-04-01/Accounts/${SID}.json` });
  });

  it('lists the numbers and where they point, and wires one to the collector', async () => {
    const carrier = new TwilioCarrier(api.base, { accountSid: SID, secret: TOKEN });
    const [number] = await carrier.listNumbers();
    expect(number).toMatchObject({ number: '+14155550100', voiceUrl: 'https://elsewhere.example/voice', smsUrl: null });
    const wired = await carrier.wire(number!.sid, { voiceUrl: 'https://calls.example/telephony/twilio/voice', statusCallback: 'https://calls.example/telephony/twilio/status', smsUrl: 'https://calls.example/telephony/twilio/sms' });
    expect(wired).toMatchObject({ voiceUrl: 'https://calls.example/telephony/twilio/voice', statusCallback: 'https://calls.example/telephony/twilio/status', smsUrl: 'https://calls.example/telephony/twilio/sms' });
    expect(api.requests.at(-1)).toMatchObject({ method: 'POST', path: `/2010-04-01/Accounts/${SID}/IncomingPhoneNumbers/${number!.sid}.json`, form: { VoiceUrl: 'https://calls.example/telephony/twilio/voice', VoiceMethod: 'POST' } });
  });

  it("says Twilio's refusals in words: too many requests, a number it does not have, Twilio unreachable", async () => {
    const carrier = new TwilioCarrier(api.base, { accountSid: SID, secret: TOKEN });
    api.throttleNext(/GET .*IncomingPhoneNumbers/);
    await expect(carrier.listNumbers()).rejects.toMatchObject({ kind: 'rate-limited', code: 20429 });
    await expect(carrier.wire('PN00000000000000000000000000000000', { voiceUrl: 'x', statusCallback: 'x', smsUrl: 'x' })).rejects.toMatchObject({ kind: 'refused', code: 20404 });
    await expect(new TwilioCarrier('http://127.0.0.1:9', { accountSid: SID, secret: TOKEN }).connect()).rejects.toMatchObject({ kind: 'unreachable', code: null });
  });
});
