// The house a newcomer finds: each family owns the shapes and indexes of its documents, db/ keeps
// the connection, the engine and the registry, and no module imports itself through others.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../collector/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

/** The modules a file imports (type imports too: a circle of types is a circle to read). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)].map((m) => path.resolve(path.dirname(file), m[1]!));
}

/** Each import circle once, as the files around it. */
function circles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((i) => files.includes(i))]));
  const found = new Map<string, string[]>();
  const visit = (file: string, trail: string[]) => {
    const at = trail.indexOf(file);
    if (at >= 0) {
      const circle = trail.slice(at);
      found.set([...circle].sort().join(), circle.map((f) => path.relative(SRC, f)));
      return;
    }
    if (trail.length > 40) return;
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
  };
  for (const file of files) visit(file, []);
  return [...found.values()];
}

describe('the layout of the collector', () => {
  it('has no import circle in the back end', () => {
    expect(circles(sourceFiles(path.join(SRC, 'manage/ui')))).toEqual([]);
  });

  it('keeps no document shape in db/collections.ts: each family owns its own', () => {
    const registry = readFileSync(path.join(SRC, 'db/collections.ts'), 'utf8');
    expect(registry).not.toMatch(/^export interface (?!Collections\b)/m);
    expect(registry).not.toMatch(/createIndex\(\{/);
    for (const family of ['tracking', 'telephony', 'commerce', 'domains', 'webhooks']) {
      expect(readFileSync(path.join(SRC, family, 'documents.ts'), 'utf8'), family).toMatch(/export const \w+Indexes: IndexPlan/);
    }
  });
});
