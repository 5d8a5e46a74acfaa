// The house a newcomer finds (docs/layout.md): each family owns its collections and hands them out,
// db/ knows no family, no module imports itself through others, and the layers mostly hold.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, folderOf, folderShares, importsOf, layers, sourceFiles, SRC } from './import-graph.ts';

const files = sourceFiles();
/** Where the whole house is wired: only these may take every family's collections. */
const WIRING = /^(house\/|cli\/|demo\/|app\.ts$|main\.ts$|cluster\.ts$|start-banner\.ts$)/;
const FAMILY_HANDLES = /\b\w+Collections\b/g;

describe('the layout of the collector', () => {
  it('has no import circle', () => {
    expect(circles(files)).toEqual([]);
  });

  it('keeps db/ apart from every family: it imports only db/ and the ground (the logger, the parent watch)', () => {
    const ground = new Set(['logger.ts', 'parent-death.ts'].map((name) => path.join(SRC, name)));
    const outside = files.filter((f) => folderOf(f) === 'db').flatMap((f) => importsOf(f).filter((i) => !i.startsWith(path.join(SRC, 'db') + path.sep) && !ground.has(i)).map((i) => `${path.relative(SRC, f)} -> ${path.relative(SRC, i)}`));
    expect(outside).toEqual([]);
  });

  it('has each family make the handles and the index plan of its own collections', () => {
    for (const family of ['team', 'domains', 'tracking', 'offline', 'telephony', 'data', 'reports', 'forms', 'people', 'commerce', 'agent', 'webhooks', 'alerts']) {
      const documents = readFileSync(path.join(SRC, family, 'documents.ts'), 'utf8');
      expect(documents, family).toMatch(/^export interface \w+Collections \{/m);
      expect(documents, family).toMatch(/^export function \w+Collections\(db: Db\)/m);
    }
    for (const family of ['tracking', 'telephony', 'commerce', 'domains', 'webhooks']) {
      expect(readFileSync(path.join(SRC, family, 'documents.ts'), 'utf8'), family).toMatch(/export const \w+Indexes: IndexPlan/);
    }
  });

  it('gives no service every family: only the wiring takes AllCollections, and no other type names them all', () => {
    const families = (readFileSync(path.join(SRC, 'house/all-collections.ts'), 'utf8').match(/^export type AllCollections = [^;]*;/ms)![0].match(FAMILY_HANDLES) ?? []).length;
    expect(families).toBeGreaterThan(10);
    const offenders = files.flatMap((f) => {
      const name = path.relative(SRC, f);
      if (WIRING.test(name)) return [];
      const text = readFileSync(f, 'utf8');
      const all = /\bAllCollections\b/.test(text) ? [`${name}: AllCollections`] : [];
      const wide = [...text.matchAll(/\bc: (\w+Collections(?: & \w+Collections)*)/g)].filter((m) => new Set(m[1]!.match(FAMILY_HANDLES)).size >= families).map(() => `${name}: every family`);
      return [...all, ...wide];
    });
    expect(offenders).toEqual([]);
  });

  it('runs at most 20 imports from a lower layer to a higher one', () => {
    const { upward } = layers(files);
    expect(upward.length, upward.join('\n')).toBeLessThanOrEqual(20);
  });

  it('keeps every folder but the screens (manage/ui) under 10 % of the lines', () => {
    const big = [...folderShares(files)].filter(([folder, { share }]) => folder !== 'manage/ui' && share > 0.1).map(([folder]) => folder);
    expect(big).toEqual([]);
  });
});
