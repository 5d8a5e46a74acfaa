// Recorded prompts of call flows: a real spoken greeting uploaded (GridFS), named by a menu, played by
// Twilio's <Play> from the collector, fetched whole; a page sent as audio refused; a flow naming a
// file not the domain's refused naming the field; a file gone since falls back to the destination.
import { GridFSBucket, ObjectId } from 'mongodb';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { conversationWav } from '../helpers/speech.ts';
import { TWILIO_TOKEN, twilioPost } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'prompts owner password' };
const GREETING = conversationWav([{ speaker: 'agent', text: 'Welcome to the shop. Press one for sales, two for support.' }], { channels: 1 });

describe('recorded prompts', () => {
  const s = useSeededCollector('flow_prompts', trackingFixture({ users: [OWNER] }), { twilio: { authToken: TWILIO_TOKEN } });

  const upload = async (body: Uint8Array<ArrayBuffer>, type: string) => {
    const login = await fetch(`${s.collector.baseUrl}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(OWNER) });
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const res = await fetch(`${s.collector.baseUrl}/manage/api/domains/shop.test/flow-audio`, { method: 'POST', headers: { cookie: login.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': csrfToken, 'content-type': type }, body });
    return { status: res.status, body: (await res.json()) as any };
  };
  const flow = (audio: string) => ({
    name: 'Recorded menu',
    start: 'menu',
    assignedTo: { numbers: ['0800000001'] },
    steps: { menu: { kind: 'menu', prompt: { audio }, options: [{ key: '1', label: 'Sales', next: 'bye' }], default: 'bye' }, bye: { kind: 'say', prompt: { text: 'Goodbye.' } } },
  });

  it('plays an uploaded greeting by <Play>, serves it whole, and falls back to the destination once it is gone', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect(await upload(new TextEncoder().encode('<html><script>alert(1)</script></html>'), 'audio/wav')).toEqual({ status: 400, body: { error: 'The audio file is refused: not audio: its first bytes are not those of audio/wav' } });
    const stored = await upload(new Uint8Array(GREETING), 'audio/wav');
    expect(stored).toEqual({ status: 201, body: { id: expect.stringMatching(/^[a-f0-9]{24}$/), size: GREETING.length, contentType: 'audio/wav' } });
    const unknown = new ObjectId().toHexString();
    expect(await owner.call('POST', '/domains/shop.test/flows', flow(unknown))).toMatchObject({ status: 400, body: { error: `steps.menu.prompt.audio: no uploaded audio file ${unknown} in this domain` } });
    expect((await owner.call('POST', '/domains/shop.test/flows', flow(stored.body.id))).status).toBe(201);

    const base = { AccountSid: 'AC00000000000000000000000000000065', From: '+33622000001', To: '+33800000001', Direction: 'inbound', ApiVersion: '2010-04-01', CallStatus: 'ringing' };
    const voice = await twilioPost(s.collector.baseUrl, '/voice', { ...base, CallSid: 'CA-prompt-1' });
    const play = new JSDOM(voice.text, { contentType: 'text/xml' }).window.document.querySelector('Response > Gather > Play')!;
    // Relative to the voice URL, as Twilio resolves it: /telephony/twilio/voice + ../flow-audio/… = /telephony/flow-audio/….
    const url = new URL(play.textContent!, `${s.collector.baseUrl}/telephony/twilio/voice`);
    expect(url.pathname).toBe(`/telephony/flow-audio/${stored.body.id}`);
    const fetched = await fetch(url);
    expect(fetched.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(GREETING)).toBe(true);
    expect((await fetch(`${s.collector.baseUrl}/telephony/flow-audio/${unknown}`)).status).toBe(404);

    // The file is deleted behind the flow's back: the caller is forwarded, the call says why.
    await new GridFSBucket(s.t.db, { bucketName: 'flow_audio' }).delete(new ObjectId(stored.body.id as string));
    const after = await twilioPost(s.collector.baseUrl, '/voice', { ...base, CallSid: 'CA-prompt-2' });
    expect(after.text).toContain('<Dial callerId="+33622000001" action="dial" method="POST" timeout="30"><Number>+33123456789</Number></Dial>');
    expect((await s.t.c.calls.findOne({ callRef: 'CA-prompt-2' }))!.flowFailure).toMatchObject({ error: `the audio file ${stored.body.id} is gone` });
  });
});
