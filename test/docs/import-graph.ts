// The collector's imports as a graph, measured as test/docs/house.test.ts checks it and as
// docs/layout.md reports it (`npx tsx test/docs/measure-house.ts` prints the figures).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const SRC = path.resolve(import.meta.dirname, '../../collector/src');

export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

/** The modules a file imports (type imports too: a circle of types is a circle to read). */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)].map((m) => path.resolve(path.dirname(file), m[1]!));
}

/** The groups of files that import each other round (strongly connected, Tarjan), each as its files. */
export function circles(files: string[]): string[][] {
  const known = new Set(files);
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((i) => known.has(i))]));
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(path.relative(SRC, w));
    } while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const file of files) if (!index.has(file)) strong(file);
  return found;
}

/** A file's folder under collector/src (manage/ui apart from manage); a file at the root is its own. */
export function folderOf(file: string): string {
  const parts = path.relative(SRC, file).split('/');
  if (parts.length === 1) return parts[0]!;
  return parts[0] === 'manage' && parts[1] === 'ui' ? 'manage/ui' : parts[0]!;
}

export interface Layers {
  /** Imports from one folder into another. */
  crossFolder: number;
  /** The folders from the top (main.ts) to the ground, in the order with the fewest imports against it. */
  order: string[];
  /** The imports that run from a lower layer to a higher one in that order, as `from -> to`. */
  upward: string[];
}

/** Orders the folders so that as few file imports as possible run upward (a local search: each
 * folder moved to the place that lowers the count, until none does), and lists those that still do. */
export function layers(files = sourceFiles()): Layers {
  const known = new Set(files);
  const edges: [string, string, string][] = [];
  for (const file of files) for (const target of importsOf(file)) if (known.has(target) && folderOf(file) !== folderOf(target)) edges.push([folderOf(file), folderOf(target), `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`]);
  const against = (order: string[]) => {
    const at = new Map(order.map((folder, i) => [folder, i]));
    return edges.filter(([from, to]) => at.get(from)! > at.get(to)!);
  };
  let order = [...new Set(files.map(folderOf))];
  let best = against(order).length;
  for (let improved = true; improved; ) {
    improved = false;
    for (const folder of [...order]) {
      const rest = order.filter((f) => f !== folder);
      for (let i = 0; i <= rest.length; i++) {
        const tried = [...rest.slice(0, i), folder, ...rest.slice(i)];
        const count = against(tried).length;
        if (count < best) [best, order, improved] = [count, tried, true];
      }
    }
  }
  return { crossFolder: edges.length, order, upward: against(order).map(([, , line]) => line) };
}

/** Lines per folder, and each folder's share of the whole. */
export function folderShares(files = sourceFiles()): Map<string, { lines: number; share: number }> {
  const lines = new Map<string, number>();
  for (const file of files) {
    const parts = path.relative(SRC, file).split('/');
    const folder = parts.length === 1 ? '(root)' : folderOf(file);
    lines.set(folder, (lines.get(folder) ?? 0) + readFileSync(file, 'utf8').split('\n').length);
  }
  const total = [...lines.values()].reduce((a, b) => a + b, 0);
  return new Map([...lines].map(([folder, n]) => [folder, { lines: n, share: n / total }]));
}
