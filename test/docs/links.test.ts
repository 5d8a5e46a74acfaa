// Every relative link of the README and docs/ leads somewhere: the file exists, and an anchor names
// one of its headings (GitHub's slugs).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const pages = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

/** `[text](target)` and `![alt](target)` outside code blocks and spans. */
function linksOf(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

describe('documentation links', () => {
  it('finds links to check', () => {
    expect(pages.length).toBeGreaterThan(10);
    expect(linksOf(path.join(ROOT, 'README.md')).length).toBeGreaterThan(10);
  });

  for (const page of pages) {
    it(`${page}: every relative link resolves`, () => {
      const file = path.join(ROOT, page);
      const broken = linksOf(file)
        .filter((target) => !/^[a-z]+:/i.test(target))
        .filter((target) => {
          const [pathPart, anchor] = target.split('#') as [string, string | undefined];
          const resolved = pathPart ? path.resolve(path.dirname(file), decodeURIComponent(pathPart)) : file;
          if (!existsSync(resolved)) return true;
          return anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor);
        });
      expect(broken).toEqual([]);
    });
  }
});
