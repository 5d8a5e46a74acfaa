// npm run docs:api: writes the reference section of each API page in docs/ from the OpenAPI
// document (openapi/markdown.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REFERENCE_PAGES, withReference } from '../openapi/markdown.ts';

const root = path.resolve(import.meta.dirname, '../../..');
for (const [page, tags] of Object.entries(REFERENCE_PAGES)) {
  const file = path.join(root, page);
  writeFileSync(file, withReference(readFileSync(file, 'utf8'), tags));
  console.log(`${page}: reference of ${tags.join(', ')} written`);
}
