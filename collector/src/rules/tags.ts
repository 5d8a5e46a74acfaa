// An account's tags: a name (once an account, whatever its case) and a colour. Calls and forms keep
// the names; a tag a rule or a person puts on must be one of the account's.
import { z } from 'zod';
import { isDuplicateKey } from '../db/writes.ts';
import { keysUnder } from '../db/key-ranges.ts';
import type { RuleCollections, TagDoc } from './documents.ts';

export const MAX_TAGS = 200;

/** The colours a tag is given when none is asked for, in turn. */
const PALETTE = ['#2563eb', '#16a34a', '#dc2626', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];

/** Characters no tag name may hold: controls, format characters (zero-width spaces, direction
 * marks), line separators and the blank fillers that look like nothing (issue 70). */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0\u2800]/u;

/** A tag's name, NFKC-normalised so that a look-alike (`Ｂｏｏｋｅｄ`, `ﬁxed`) is the name it looks like,
 * and so the same tag as it (names are one an account, whatever their case). */
export const tagName = z
  .string()
  .refine((name) => !INVISIBLE.test(name), 'must not hold control or invisible characters')
  .transform((name) => name.normalize('NFKC').trim())
  .pipe(z.string().min(1, 'is required').max(40, 'must be at most 40 characters').refine((name) => !/[|,;]/.test(name), 'must not hold | , or ;'))
  .describe("A tag's name");
export const tagBody = z.object({ name: tagName, colour: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour, #rrggbb').transform((c) => c.toLowerCase()).optional().describe('#rrggbb; one is given when absent') }).strict();

export class TagRefused extends Error {}

const tagId = (accountId: string, name: string) => `${accountId}|${name.toLowerCase()}`;

export class Tags {
  constructor(private readonly c: RuleCollections) {}

  list(accountId: string): Promise<TagDoc[]> {
    return this.c.tags.find({ _id: keysUnder(`${accountId}|`) }, { sort: { _id: 1 }, limit: MAX_TAGS }).toArray();
  }

  async create(accountId: string, body: z.infer<typeof tagBody>, by: string, now = new Date()): Promise<TagDoc> {
    const existing = await this.c.tags.countDocuments({ _id: keysUnder(`${accountId}|`) }, { limit: MAX_TAGS });
    if (existing >= MAX_TAGS) throw new TagRefused(`an account has at most ${MAX_TAGS} tags`);
    const doc: TagDoc = { _id: tagId(accountId, body.name), accountId, name: body.name, colour: body.colour ?? PALETTE[existing % PALETTE.length]!, createdAt: now, by };
    try {
      await this.c.tags.insertOne(doc);
    } catch (err) {
      if (isDuplicateKey(err)) throw new TagRefused(`name: the tag ${body.name} exists`);
      throw err;
    }
    return doc;
  }

  /** The account's tags of these names, as the account writes them; the first name it has not, if any. */
  async named(accountId: string, names: string[]): Promise<{ names: string[]; unknown: string | null }> {
    const found = await this.c.tags.find({ _id: { $in: names.map((n) => tagId(accountId, n)) } }, { projection: { name: 1 } }).toArray();
    const byId = new Map(found.map((t) => [t._id, t.name]));
    const unknown = names.find((n) => !byId.has(tagId(accountId, n))) ?? null;
    return { names: names.flatMap((n) => byId.get(tagId(accountId, n)) ?? []), unknown };
  }
}
