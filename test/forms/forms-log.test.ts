// The back end's forms log (issue 43): a range's submissions newest first with a count, filtered;
// one submission's page with the visitor's pages; a person's verdict, which wins over the spam
// signals until undone; the CSV, with script as text and formulas neutralised; form leads with a
// click id in the Google and Microsoft Ads files, in time order with the calls.
import { browserPost } from '../helpers/site-page.ts';
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';

const ORIGIN = 'https://shop.test';
const OWNER = { username: 'owner@shop.test', password: 'forms log owner password' };
const ANALYST = { username: 'analyst@shop.test', password: 'forms log analyst password', role: 'analyst', domains: ['shop.test'] };

describe('the forms log', () => {
  const s = useSeededCollector('forms_log', trackingFixture({ users: [OWNER, ANALYST], settings: { formTracking: { enabled: true, fields: [] } } }));
  const post = (path: string, fields: Record<string, string | number>) => browserPost(s.collector.baseUrl, path, fields);

  it('lists the submissions newest first, shows one with its pages, and takes a verdict over the signals', async () => {
    const began = await post('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/?utm_source=google&utm_medium=cpc&utm_term=tap`, page_title: 'Home', referer_url: '', phones: '' });
    const seen = await began.json();
    // The visit goes on with its key, as the tracker keeps it (issue 79).
    await post('/t/view', { key: 'pk-test-key', visit_id: seen.visitId, visit_key: began.headers.get('x-visit-key') ?? '', url: `${ORIGIN}/contact`, page_title: 'Contact', referer_url: `${ORIGIN}/`, phones: '' });
    const first = (await (await post('/t/form', { key: 'pk-test-key', visit_id: seen.visitId, url: `${ORIGIN}/contact`, fields: JSON.stringify({ email: 'ada@example.com' }), elapsed_ms: 9000 })).json()).formId;
    const fast = (await (await post('/t/form', { key: 'pk-test-key', visit_id: seen.visitId, url: `${ORIGIN}/contact`, fields: JSON.stringify({ email: 'quick@example.com' }), elapsed_ms: 900 })).json()).formId;

    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const log = (await owner.get('/domains/shop.test/reports/forms')).body;
    expect(log).toMatchObject({ total: 2, totalCapped: false, pageSize: 50, hasMore: false });
    expect(log.forms.map((f: { formId: number; spam: string | null; lead: boolean }) => [f.formId, f.spam, f.lead])).toEqual([[fast, 'too-fast', false], [first, null, true]]);

    const page = (await owner.get(`/domains/shop.test/forms/${first}`)).body;
    expect(page).toMatchObject({ formId: first, source: 'paid:google', keyword: 'tap', fields: { email: 'ada@example.com' } });
    expect(page.pages.map((p: { title: string }) => p.title)).toEqual(['Home', 'Contact']);

    // A person says the quick one is a lead after all; undone, the signal counts again.
    expect((await owner.call('PUT', `/domains/shop.test/forms/${fast}/verdict`, { verdict: 'lead' })).body).toMatchObject({ verdict: 'lead', lead: true, spam: null });
    expect((await owner.call('PUT', `/domains/shop.test/forms/${first}/verdict`, { verdict: 'spam' })).body).toMatchObject({ verdict: 'spam', lead: false, spam: 'verdict' });
    expect((await owner.call('PUT', `/domains/shop.test/forms/${fast}/verdict`, { verdict: null })).body).toMatchObject({ verdict: null, lead: false, spam: 'too-fast' });
    expect((await owner.call('PUT', `/domains/shop.test/forms/${fast}/verdict`, { verdict: 'maybe' })).status).toBe(400);
    expect((await owner.get('/domains/shop.test/forms/999999')).status).toBe(404);
    // An analyst reads the log and gives no verdict.
    const analyst = await signedInClient(s.collector.baseUrl, ANALYST.username, ANALYST.password);
    const read = await analyst.get('/domains/shop.test/reports/forms');
    expect([read.status, read.body.total, read.body.error]).toEqual([200, 2, undefined]);
    expect((await analyst.call('PUT', `/domains/shop.test/forms/${fast}/verdict`, { verdict: 'lead' })).status).toBe(403);
  });

  it('filters the log, and downloads it as CSV with values as text', async () => {
    const seen = await (await post('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/?gclid=FORM-GCLID&msclkid=FORM-MSCLKID&utm_source=google&utm_medium=cpc`, page_title: 'Home', referer_url: '', phones: '' })).json();
    const sent = (fields: Record<string, string>, elapsed = 9000) => post('/t/form', { key: 'pk-test-key', visit_id: seen.visitId, url: `${ORIGIN}/contact`, fields: JSON.stringify(fields), elapsed_ms: elapsed });
    await sent({ name: '=HYPERLINK("https://evil.test")', message: '<script>alert(1)</script>', email: 'csv@example.com' });
    await sent({ email: 'robot@example.com' }, 100);
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const emails = async (query: string) => (await owner.get(`/domains/shop.test/reports/forms?${query}`)).body.forms.map((f: { fields: { email?: string } }) => f.fields.email);
    expect(await emails('source=paid&lead=true')).toEqual(['csv@example.com']); // Ada's was judged spam above
    expect(await emails('spam=true')).toEqual(expect.arrayContaining(['robot@example.com']));
    expect(await emails('spam=false')).not.toContain('robot@example.com');
    expect((await owner.get('/domains/shop.test/reports/forms?lead=maybe')).status).toBe(400);

    const csv = await owner.get('/domains/shop.test/reports/forms.csv?source=paid');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe('Form id,Submitted,Page,Form,Source,Keyword,Campaign,Phone,E-mail,Fields,Lead,Spam,Verdict,gclid,msclkid,Person');
    const row = lines.find((l) => l.includes('csv@example.com'))!;
    // Stored and sent as text: the script as written, the formula made inert.
    expect(row).toContain('<script>alert(1)</script>');
    expect(row).toContain(`name: =HYPERLINK(""https://evil.test"")`);
    expect(row).toContain('FORM-GCLID,FORM-MSCLKID');
    expect(csv.text).toContain('robot@example.com'); // spam is listed, marked
    expect(lines.find((l) => l.includes('robot@example.com'))).toContain(',false,too-fast,');

    // The form lead, a conversion in both ad platforms' files; the spam one is none.
    const google = (await owner.get('/domains/shop.test/reports/google-ads.csv')).text;
    expect(google.split('\r\n').filter((l) => l.startsWith('FORM-GCLID,'))).toEqual([expect.stringMatching(/^FORM-GCLID,RingTrail lead,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,,$/)]);
    const microsoft = (await owner.get('/domains/shop.test/reports/microsoft-ads.csv')).text;
    expect(microsoft.split('\r\n').filter((l) => l.endsWith(',FORM-MSCLKID'))).toEqual([expect.stringMatching(/^Offline Conversion,,,,,,EUR,RingTrail lead,.+,0,FORM-MSCLKID$/)]);
  });
});
