// The OpenAPI document describes every route the app serves, and nothing it does not; it is served
// at /openapi.json and readable at /docs.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../collector/src/app.ts';
import { createLogger } from '../../collector/src/logger.ts';
import { openApiDocument, openApiPath } from '../../collector/src/openapi/document.ts';
import { testDatabase, useSeededCollector } from '../helpers/collector.ts';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown>; tags: string[]; description: string }>>; tags: { name: string; description: string }[]; servers: unknown[] };

const described = (doc: Doc) => Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`)).sort();

describe('the OpenAPI document', () => {
  it('describes exactly the routes the app serves, with and without the demo pages', async () => {
    const t = await testDatabase('openapi_routes');
    try {
      for (const demoPages of [false, true]) {
        const { routes, stop } = createApp({ db: t.db, log: createLogger('silent'), demoPages, delivery: { run: false } });
        await stop();
        const served = [...new Set(routes.map((r) => `${r.method} ${openApiPath(r.path)}`))].sort();
        expect(described(openApiDocument({ demoPages }) as Doc)).toEqual(served);
      }
    } finally {
      await t.close();
    }
  });

  it('gives every operation a tag, a 2xx answer and, for JSON families, its error envelope', () => {
    const doc = openApiDocument() as Doc;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.tags, `${method} ${path}`).toHaveLength(1);
        expect(op.description, `${method} ${path}`).toMatch(/\. \S/); // its summary, then how its family answers
        expect(Object.keys(op.responses).some((s) => /^[23]/.test(s)), `${method} ${path}`).toBe(true);
      }
    }
    expect(doc.servers).toEqual([{ url: '/', description: 'This collector' }]);
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    expect(doc.tags.map((t) => t.name).join()).not.toMatch(/spec document/);
    expect(doc.paths['/ospView']!.post!.responses['500']).toMatchObject({ content: { 'application/json': { schema: { properties: { status: { enum: expect.arrayContaining(['SYSTEM_ERROR']) } } } } } });
    expect(doc.paths['/data-api']!.get!.responses['500']).toMatchObject({ content: { 'application/json': { schema: { properties: { status: { const: 'ERROR' } } } } } });
  });
});

describe('/openapi.json and /docs', () => {
  const s = useSeededCollector('openapi_served', { accounts: [] });

  it('serves the document, and Swagger UI from the collector itself', async () => {
    const doc = await (await fetch(`${s.collector.baseUrl}/openapi.json`)).json();
    expect(doc).toEqual(openApiDocument());
    const page = await fetch(`${s.collector.baseUrl}/docs`);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    for (const asset of html.match(/\/docs\/assets\/[\w.-]+/g)!) expect((await fetch(`${s.collector.baseUrl}${asset}`)).status).toBe(200);
    expect(html).not.toMatch(/https?:\/\//);
    expect((await fetch(`${s.collector.baseUrl}/docs/assets/package.json`)).status).toBe(404);
  });
});

describe('methods no route takes', () => {
  const s = useSeededCollector('openapi_methods', { accounts: [] });

  it('answer 405 with Allow, not a 5xx (schemathesis sent TRACE and got 501)', async () => {
    for (const path of ['/ospView', '/tracker.js', '/manage/api/domains']) {
      const res = await fetch(`${s.collector.baseUrl}${path}`, { method: 'PROPFIND' });
      expect([path, res.status, res.headers.get('allow')]).toEqual([path, 405, 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS']);
    }
  });

  it('describes at least 90 % of the fields: parameters, bodies and answers', () => {
    const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, any>> };
    const counts = { fields: 0, described: 0 };
    const undescribed: string[] = [];
    const walk = (schema: any, where: string): void => {
      if (!schema || typeof schema !== 'object') return;
      for (const [name, property] of Object.entries<any>(schema.properties ?? {})) {
        counts.fields++;
        if (property?.description) counts.described++;
        else undescribed.push(`${where}.${name}`);
        walk(property, `${where}.${name}`);
      }
      for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties']) for (const child of [schema[key]].flat()) walk(child, where);
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const p of op.parameters ?? []) {
          counts.fields++;
          if (p.description) counts.described++;
          else undescribed.push(`${method} ${path} ${p.name}`);
        }
        walk(Object.values<any>(op.requestBody?.content ?? {})[0]?.schema, `${method} ${path} body`);
        for (const answer of Object.values<any>(op.responses)) for (const content of Object.values<any>(answer.content ?? {})) walk(content.schema, `${method} ${path} answer`);
      }
    }
    expect(counts.fields).toBeGreaterThan(600);
    expect(counts.described / counts.fields, undescribed.slice(0, 20).join('\n')).toBeGreaterThanOrEqual(0.9);
    expect(doc.paths['/ospView']!.post.requestBody.content['application/x-www-form-urlencoded'].schema.properties.visit_id.description).toMatch(/visit/);
  });
});
