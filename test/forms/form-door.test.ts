// The form door (issue 43): a submission from the tag, stored with its visit's attribution and
// touches exactly as a call is; spam by the honeypot or a robot's speed; the door's checks as
// /t/view's, with 400 for a field list that is not flat text, 413 past the body cap, 403 when the
// domain's form tracking is off; nothing stored on a refusal.
import { browserPost } from '../helpers/site-page.ts';
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';

const ORIGIN = 'https://shop.test';

describe('the form door', () => {
  const s = useSeededCollector('form_door', trackingFixture({ settings: { formTracking: { enabled: true, fields: ['budget'] } } }));
  const door = (path: string, fields: Record<string, string | number>, origin = ORIGIN) => browserPost(s.collector.baseUrl, path, fields, origin);
  const view = async () => (await (await door('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/?utm_source=google&utm_medium=cpc&utm_term=boiler&gclid=FORM1`, page_title: 'Home', referer_url: 'https://www.google.com/', phones: '' })).json()) as { visitId: number; forms?: string[] };

  it('stores a submission attributed to its visit, a lead, and says the view to load the capture', async () => {
    const seen = await view();
    expect(seen.forms).toEqual(['budget']);
    const sent = await door('/t/form', { key: 'pk-test-key', visit_id: seen.visitId, url: `${ORIGIN}/contact`, form_name: 'contact', fields: JSON.stringify({ name: 'Ada Lovelace', email: 'Ada@Example.com', phone: '06 12 34 56 78', message: '<script>alert(1)</script>' }), honeypot: '', elapsed_ms: 15_000 });
    const answer = await sent.json();
    expect([sent.status, answer]).toEqual([200, { status: 'OK', formId: expect.any(Number), lead: true }]);
    const form = (await s.t.c.forms.findOne({ _id: answer.formId }))!;
    expect(form).toMatchObject({ domainId: 'shop.test', visitId: seen.visitId, pageUrl: `${ORIGIN}/contact`, formName: 'contact', source: 'paid:google', keyword: 'boiler', gclid: 'FORM1', phone: '0612345678', email: 'ada@example.com', spam: null, lead: true });
    expect(form.fields.message).toBe('<script>alert(1)</script>'); // kept as text
    expect(form.firstTouch).toMatchObject({ visitId: seen.visitId, source: 'paid:google' });
  });

  it('marks spam: the hidden field filled, or sent within 2 seconds of the page opening', async () => {
    const { visitId } = await view();
    const send = async (extra: Record<string, string | number>) => (await (await door('/t/form', { key: 'pk-test-key', visit_id: visitId, url: `${ORIGIN}/contact`, fields: JSON.stringify({ email: 'bot@example.com' }), ...extra })).json()) as { formId: number; lead: boolean };
    const honeypot = await send({ honeypot: 'http://spam.example', elapsed_ms: 9000 });
    const fast = await send({ elapsed_ms: 800 });
    expect([honeypot.lead, fast.lead]).toEqual([false, false]);
    expect((await s.t.c.forms.find({ _id: { $in: [honeypot.formId, fast.formId] } }).sort({ _id: 1 }).toArray()).map((f) => f.spam)).toEqual(['honeypot', 'too-fast']);
  });

  it('refuses what is not a flat list of text values (400), a body past the cap (413), another origin, and stores nothing', async () => {
    const before = await s.t.c.forms.countDocuments();
    const base = { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/contact` };
    for (const fields of ['not json', JSON.stringify({ nested: { a: 1 } }), JSON.stringify(['a']), JSON.stringify({ n: 5 }), JSON.stringify({ long: 'x'.repeat(2001) })]) {
      const refused = await door('/t/form', { ...base, fields });
      expect([refused.status, (await refused.json()).status]).toEqual([400, 'INVALID_PARAMETER']);
    }
    expect((await door('/t/form', { ...base, fields: JSON.stringify(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, 'v']))) })).status).toBe(400);
    expect((await door('/t/form', { ...base, fields: JSON.stringify({ big: 'é'.repeat(40_000) }) })).status).toBe(413);
    expect((await door('/t/form', base)).status).toBe(400);
    expect((await door('/t/form', { ...base, fields: '{}' }, 'https://evil.test')).status).toBe(403);
    expect(await s.t.c.forms.countDocuments()).toBe(before);
  });
});

describe('the form door of a domain without form tracking', () => {
  const s = useSeededCollector('form_door_off', trackingFixture());
  it('answers 403 and stores nothing; the view does not load the capture', async () => {
    const post = (path: string, fields: Record<string, string | number>) => browserPost(s.collector.baseUrl, path, fields);
    const seen = await (await post('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/`, page_title: 'Home', referer_url: '', phones: '' })).json();
    expect(seen.forms).toBeUndefined();
    const refused = await post('/t/form', { key: 'pk-test-key', visit_id: seen.visitId, url: `${ORIGIN}/contact`, fields: '{"email":"a@b.co"}' });
    expect([refused.status, (await refused.json()).errorMessage]).toEqual([403, 'Form tracking is off for this domain']);
    expect(await s.t.c.forms.countDocuments()).toBe(0);
  });
});

describe('forms in the data API (type=forms, ours)', () => {
  const s = useSeededCollector('form_data_api', trackingFixture({ settings: { formTracking: { enabled: true, fields: [] } } }));
  const post = (path: string, fields: Record<string, string | number>) => browserPost(s.collector.baseUrl, path, fields);
  const data = async (query: Record<string, string>) => (await fetch(`${s.collector.baseUrl}/data-api?${new URLSearchParams({ api_key: 'data-test-key', type: 'forms', start_date: new Date().toISOString().slice(0, 10), end_date: new Date().toISOString().slice(0, 10), page: '1', limit: '10', ...query })}`)).json();

  it('pages the submissions of a range, oldest first, with the same paging and errors as calls', async () => {
    const seen = await (await post('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/?utm_source=google&utm_medium=cpc&utm_term=tap&gclid=DATA1`, page_title: 'Home', referer_url: '', phones: '' })).json();
    for (let i = 0; i < 12; i++) await post('/t/form', { key: 'pk-test-key', visit_id: seen.visitId, url: `${ORIGIN}/contact`, fields: JSON.stringify({ email: `n${i}@example.com` }), elapsed_ms: 5000 });
    const first = await data({});
    expect(first).toMatchObject({ status: 'OK', total_results: 12, next_page: 2 });
    expect(first.results).toHaveLength(10);
    expect(first.results[0]).toEqual({
      form_id: expect.any(Number),
      start_date: expect.stringMatching(/^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d$/),
      source: 'paid:google',
      keyword: 'tap',
      page_url: `${ORIGIN}/contact`,
      form_name: null,
      fields: { email: 'n0@example.com' },
      lead: true,
      spam: null,
      visit_id: String(seen.visitId),
      gclid: 'DATA1',
      person_id: expect.any(Number), // the person of n0@example.com
      tags: [],
      value: null,
    });
    const second = await data({ page: '2' });
    expect(second.results.map((r: { fields: { email: string } }) => r.fields.email)).toEqual(['n10@example.com', 'n11@example.com']);
    expect(second.next_page).toBeUndefined();
    expect(await data({ caller_phone: '0611111111', group_by_day: 'true' })).toEqual({ status: 'ERROR', errors: ['Invalid parameter caller_phone: not for type=forms', 'Invalid parameter group_by_day: not for type=forms'] });
    expect(await data({ limit: '5' })).toEqual({ status: 'ERROR', errors: ['Limit must be between 10 and 5000'] });
  });
});
