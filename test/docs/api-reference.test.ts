// Each API page in docs/ holds the reference of its family as the OpenAPI document says it today
// (parameters, fields, a real answer, statuses): `npm run docs:api` writes it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_PAGES, withReference } from '../../collector/src/openapi/markdown.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the reference sections of the API pages', () => {
  for (const [page, tags] of Object.entries(REFERENCE_PAGES)) {
    it(`${page} holds the current reference of ${tags.join(', ')} (npm run docs:api)`, () => {
      const text = readFileSync(path.join(ROOT, page), 'utf8');
      expect(text).toContain('## Reference');
      expect(text, 'run npm run docs:api').toBe(withReference(text, tags));
    });
  }

  it('names every field of call tracking with its meaning', () => {
    const text = readFileSync(path.join(ROOT, 'docs/api-call-tracking.md'), 'utf8');
    for (const field of ['api_key', 'visit_id', 'surtaxPhones.*.surtaxPhoneNumber', 'surtaxPhone.surtaxPhoneCode', 'expiresAt', 'errorMessage']) expect(text).toMatch(new RegExp(`\\| \`${field.replace(/[.*]/g, '\\$&')}\` \\|[^\\n]*\\| [A-Z]`));
  });
});
