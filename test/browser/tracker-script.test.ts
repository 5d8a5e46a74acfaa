// GET /tracker.js: the built bundle, compressed, cacheable, revalidated.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { trackerBundlePath } from '../../tracker/bundle-path.ts';
import { BUDGET_GZIP_BYTES } from '../../tracker/build.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';

const s = useSeededCollector('tracker_script', trackingFixture());

/** A GET as a browser sends it (fetch would decompress the body and add Cache-Control: no-cache to a conditional request). */
function get(headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${s.collector.baseUrl}/tracker.js`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('/tracker.js', () => {
  it('serves the built bundle gzipped, within its size budget, with an ETag and a max-age', async () => {
    const res = await get({ 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'content-type': 'application/javascript; charset=utf-8',
      'content-encoding': 'gzip',
      'cache-control': 'public, max-age=300',
      etag: expect.stringMatching(/^"[\w-]{22}"$/),
      vary: expect.stringContaining('Accept-Encoding'),
    });
    expect(res.body.length).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
    expect(gunzipSync(res.body).toString()).toBe(readFileSync(trackerBundlePath, 'utf8'));
  });

  it('serves it plain to a client that takes no gzip', async () => {
    const res = await get({ 'accept-encoding': 'identity' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(readFileSync(trackerBundlePath, 'utf8'));
  });

  it('answers 304 to a browser that has this version', async () => {
    const etag = (await get({})).headers.etag!;
    const res = await get({ 'if-none-match': etag });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
  });
});
