// An offline number can turn recording off for itself (issue 41): a number printed for a line that
// must not be recorded. The domain records; that number's calls are not, on any carrier's path.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { routeCall, TELEPHONY_KEY, TWILIO_TOKEN, twilioPost } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'offline recording password' };
const NUMBER = '0100000001';

describe('an offline number without recording', () => {
  const s = useSeededCollector('offline_recording', trackingFixture({ settings: { recording: { enabled: true } }, users: [OWNER] }), { telephonyApiKey: TELEPHONY_KEY, twilio: { authToken: TWILIO_TOKEN } });
  const plan = async () => (await routeCall(s.collector.baseUrl, { tracking_number: NUMBER })).body.recording;
  const twilioVoice = async (sid: string) => (await twilioPost(s.collector.baseUrl, '/voice', { AccountSid: 'AC1', CallSid: sid, From: '+33611111111', To: `+33${NUMBER.slice(1)}`, CallStatus: 'ringing' })).text;

  it('is recorded as the domain says until the number says never, at assignment or later', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const path = `/domains/shop.test/offline-numbers/${NUMBER}`;
    expect((await owner.call('POST', `${path}/assign`, { destination: '0155555555', description: 'Reception line' })).status).toBe(200);
    expect(await plan()).toEqual({ announcement: 'Cet appel peut être enregistré pour la qualité du service.', language: 'fr-FR', channels: 'dual' });
    expect(await twilioVoice('CA-off-1')).toContain('record="record-from-answer-dual"');

    const off = await owner.call('POST', `${path}/recording`, { recording: false });
    expect(off.body).toContainEqual(expect.objectContaining({ number: NUMBER, recording: false }));
    expect(await plan()).toBeNull();
    const voice = await twilioVoice('CA-off-2');
    expect([voice.includes('<Dial'), voice.includes('record='), voice.includes('<Say')]).toEqual([true, false, false]);
    // The choice is recorded in the activity log, as every change.
    expect((await owner.get('/domains/shop.test/activity?kind=offline-number')).body.entries[0]).toMatchObject({ action: 'offline-number.recording', details: { number: NUMBER, recording: false } });

    // Unassigned and assigned again: a new campaign, recorded as the body says.
    await owner.call('POST', `${path}/unassign`);
    await owner.call('POST', `${path}/assign`, { destination: '0155555555', description: 'Another line', recording: false });
    expect(await plan()).toBeNull();
    expect((await owner.call('POST', `${path}/recording`, { recording: 'no' })).status).toBe(400);
  });
});
