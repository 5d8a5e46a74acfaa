// At most MAX_KEYS values per table of a counters document (dimensions.ts): a process knows the
// values each document holds (read once from it, then kept as it adds), and counts a new value past
// the limit under OTHER. Processes do not share what they know, so with WORKERS processes one table
// holds at most MAX_KEYS × WORKERS values: still a bound. Only visits are limited: a table's calls
// and sales are those of its visits' values, as many as real calls and orders.
import { setRecent } from '../recent-map.ts';
import { MAX_KEYS, OTHER } from './dimensions.ts';

/** Documents whose values a process keeps in memory (the busiest ones: today's and this month's). */
const MAX_DOCUMENTS = 500;

type Tables = Map<string, Set<string>>;

export class KeyLimits {
  private readonly documents = new Map<string, Promise<Tables>>();

  /** `read` gives the values each table of a document holds now (none for a document not yet made). */
  constructor(private readonly read: (docId: string) => Promise<Record<string, string[]>>) {}

  /** The key a value counts under in one table of a document: its own, or OTHER once the table is full. */
  async admit(docId: string, table: string, key: string): Promise<string> {
    let tables = this.documents.get(docId);
    if (!tables) {
      tables = this.read(docId).then((held) => new Map(Object.entries(held).map(([name, keys]) => [name, new Set(keys)])));
      setRecent(this.documents, docId, tables, MAX_DOCUMENTS);
      tables.catch(() => this.documents.delete(docId)); // read again next time
    }
    return admitInto(await tables, table, key);
  }
}

/** Admits `key` into one of a document's tables of known keys (made when missing). */
export function admitInto(tables: Map<string, Set<string>>, table: string, key: string): string {
  return admitKey(tables.get(table) ?? tables.set(table, new Set()).get(table)!, key);
}

/** Admits `key` into a table's known keys while it has room; OTHER otherwise. */
export function admitKey(keys: Set<string>, key: string): string {
  if (keys.has(key)) return key;
  if (keys.size - (keys.has(OTHER) ? 1 : 0) >= MAX_KEYS) return OTHER;
  keys.add(key);
  return key;
}
