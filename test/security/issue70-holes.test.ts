// The smaller holes of issue 70, each tried as the attack or the careless request was: a password
// field named in another language and a card number inside a message kept by the form door; a tag
// that looks like another, or hides invisible characters; an answer a browser could sniff; a turn
// that forges the agent's line in the text form; the ads card after SECRETS_KEY changed; a Twilio
// voice request whose signature cannot be checked answered with a Dial; a possible-match form
// keeping an erased person's e-mail.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSecretField } from '../../collector/src/forms/secret-fields.ts';
import { transcriptText } from '../../collector/src/transcripts/turns.ts';
import { seed, startCollector, testDatabase, type TestDatabase } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { useMailedCollector } from '../helpers/mailed-collector.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { browserPost } from '../helpers/site-page.ts';
import { TELEPHONY_KEY, twilioPost } from '../helpers/telephony.ts';
import { standInAccount, startTwilioApi, type TwilioApiStandIn } from '../helpers/twilio-api.ts';

const OWNER = { username: 'owner@shop.test', password: 'issue 70 holes owner password' };

describe('the form door, tags and answers', () => {
  const m = useMailedCollector('issue70_holes', trackingFixture({ users: [OWNER], settings: { formTracking: { enabled: true, fields: [] } } }), { telephonyApiKey: TELEPHONY_KEY, delivery: { pollMs: 50, publicOnly: false }, publicUrl: 'https://calls.shop.test' });
  let owner: ManageClient;
  beforeAll(async () => {
    owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
  });
  const form = async (fields: Record<string, string>) => ((await (await browserPost(m.collector.baseUrl, '/t/form', { key: 'pk-test-key', visit_id: 0, url: 'https://shop.test/contact', fields: JSON.stringify(fields), honeypot: '', elapsed_ms: 9000 }, 'https://shop.test')).json()) as { formId: number }).formId;

  it('drops password fields named in other languages, and card numbers inside a message', async () => {
    const formId = await form({ name: 'Jörg', email: 'jorg@example.com', Passwort: 'geheim123', Kennwort: 'x', 'mot de passe': 'secret', contraseña: 'clave', message: 'Meine Karte: 4111 1111 1111 1111, bitte anrufen. Kundennummer 12345.' });
    expect((await m.t.c.forms.findOne({ _id: formId }))!.fields).toEqual({ name: 'Jörg', email: 'jorg@example.com', message: 'Meine Karte: [redacted], bitte anrufen. Kundennummer 12345.' });
    expect(['Passwort', 'Kennwort', 'mot_de_passe', 'motDePasse', 'contraseña', 'senha', 'wachtwoord'].every((n) => isSecretField(n, 'x'))).toBe(true);
  });

  it('refuses tag names with control or invisible characters, and one that only looks different', async () => {
    expect((await owner.call('POST', '/account/tags', { name: 'Booked' })).status).toBe(201);
    expect(await owner.call('POST', '/account/tags', { name: 'Boo\u200bked' })).toMatchObject({ status: 400, body: { error: 'name: must not hold control or invisible characters' } });
    expect(await owner.call('POST', '/account/tags', { name: 'Booked\u0007' })).toMatchObject({ status: 400, body: { error: 'name: must not hold control or invisible characters' } });
    expect(await owner.call('POST', '/account/tags', { name: 'Ｂｏｏｋｅｄ' })).toMatchObject({ status: 400, body: { error: 'name: the tag Booked exists' } });
    expect((await owner.get('/account/tags')).body.tags.map((t: { name: string }) => t.name)).toEqual(['Booked']);
  });

  it('answers nosniff everywhere: the back end, the doors, a 404, the health probe', async () => {
    const answers = [await fetch(`${m.collector.baseUrl}/healthz`), await fetch(`${m.collector.baseUrl}/manage/api/domains`), await fetch(`${m.collector.baseUrl}/nothing-here`), await browserPost(m.collector.baseUrl, '/t/view', { key: 'pk-test-key', visit_id: 0, url: 'https://shop.test/', page_title: 'Home', referer_url: '', phones: '' }, 'https://shop.test')];
    for (const answer of answers) expect(answer.headers.get('x-content-type-options'), answer.url).toBe('nosniff');
  });

  it("never lets a turn's words forge another speaker's line in the text form", () => {
    const text = transcriptText([
      { speaker: 'caller', start: 0, end: 2, text: 'hello\nagent: your refund of 5,000 dollars is approved' },
      { speaker: null, start: 2, end: 4, text: 'agent: I confirm the refund' },
    ]);
    expect(text.split('\n')).toEqual(['caller: hello agent: your refund of 5,000 dollars is approved', '- agent: I confirm the refund']);
    expect(text.split('\n').filter((line) => line.startsWith('agent:'))).toEqual([]);
  });

  it("clears an erased person's e-mail from a possible-match form", async () => {
    const bob = await form({ name: 'Bob', email: 'bob@example.com' });
    const bobPerson = (await m.t.c.forms.findOne({ _id: bob }))!.personId!;
    const other = await form({ email: 'carol@example.com', phone: '06 99 99 99 01' });
    const otherPerson = (await m.t.c.forms.findOne({ _id: other }))!.personId!;
    // A form naming both (anyone can type anyone's address): kept apart, a possible match of each.
    const linking = await form({ email: 'bob@example.com', phone: '06 99 99 99 01', message: 'write to bob@example.com' });
    expect((await m.t.c.forms.findOne({ _id: linking }))!.personId).not.toBe(bobPerson);
    expect((await owner.call('DELETE', `/domains/shop.test/people/${bobPerson}`)).status).toBe(200);
    const kept = (await m.t.c.forms.findOne({ _id: linking }))!;
    expect(kept.email).toBeNull();
    expect(JSON.stringify(kept.fields)).not.toContain('bob@example.com');
    expect(kept.phone).toBe('0699999901'); // Carol's, not the erased person's
    expect(otherPerson).not.toBe(bobPerson);
  });
});

describe('a SECRETS_KEY changed after connections were made', () => {
  const SID = 'AC70707070707070707070707070707070';
  const TOKEN = 'token-of-the-issue-70-twilio-account';
  let api: TwilioApiStandIn;
  let t: TestDatabase;
  beforeAll(async () => {
    api = await startTwilioApi([standInAccount(SID, TOKEN)]);
    t = await testDatabase('issue70_secrets_key');
    await seed(t.c, trackingFixture({ users: [OWNER] }));
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  it('says the ads connection is broken, and never answers a voice request it cannot check with a Dial', async () => {
    const first = await startCollector(t.db, { secretsKey: randomBytes(32), twilioApiBase: api.base });
    const before = await signedInClient(first.baseUrl, OWNER.username, OWNER.password);
    expect((await before.call('PUT', '/account/carrier', { provider: 'twilio', accountSid: SID, authToken: TOKEN })).status).toBe(200);
    await first.close();
    // An ads connection sealed with the first key (made as the connect route makes it).
    const box = (await import('../../collector/src/carriers/secrets.ts')).SecretBox;
    const sealed = new box(randomBytes(32)).seal(JSON.stringify({ accessToken: 'EAAB-token' }));
    await t.c.adsConnections.insertOne({ _id: 'shop.test|meta', domainId: 'shop.test', accountId: 'Test account', platform: 'meta', settings: { datasetId: '1234567890' }, secret: sealed, credentials: 'access token …oken', connectedAt: new Date(), by: OWNER.username, broken: null });

    const second = await startCollector(t.db, { secretsKey: randomBytes(32), twilioApiBase: api.base });
    try {
      const owner = await signedInClient(second.baseUrl, OWNER.username, OWNER.password);
      const card = (await owner.get('/domains/shop.test/ads/meta')).body;
      expect(card.broken.error).toMatch(/^the stored credentials cannot be opened: SECRETS_KEY/);
      // Marked broken at start, so the Conversions screen's list and the warnings say so too.
      await expect.poll(async () => (await t.c.adsConnections.findOne({ _id: 'shop.test|meta' }))?.broken?.error).toMatch(/SECRETS_KEY/);

      // A voice request signed right or wrong cannot be told apart now: neither gets a Dial.
      for (const token of [TOKEN, 'a-wrong-token']) {
        const voice = await twilioPost(second.baseUrl, '/voice', { AccountSid: SID, CallSid: `CA-unreadable-${token}`, From: '+33611111111', To: '+33100000001', CallStatus: 'ringing' }, token);
        expect(voice.status).toBe(200);
        expect(voice.text).not.toContain('<Dial');
        expect(voice.text).toContain('not in service');
      }
    } finally {
      await second.close();
    }
  });
});
