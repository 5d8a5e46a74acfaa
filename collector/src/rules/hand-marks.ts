// What a person marks on a call or a form: its tags (the whole list, as the logs' and the call
// page's tag picker sends it) and a call's value. Both are theirs from then on: a tag they took off
// and a value they set (or cleared) are never changed by a rule. Each change is in the history.
import type { DomainDoc } from '../domains/documents.ts';
import type { FormDoc } from '../forms/documents.ts';
import type { FormWrites } from '../forms/form-writes.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import type { CallDoc, Marks } from '../telephony/documents.ts';
import type { RuleCollections } from './documents.ts';
import { withEntries } from './marks.ts';
import { TagRefused, Tags } from './tags.ts';

export const MAX_TAGS_ON_ONE = 20;

/** The fields of `doc` with its tags set to `names` by a person; null when they are the same. */
export function taggedByHand(doc: Marks, names: string[], by: string, now: Date): Partial<Marks> | null {
  const before = doc.tags ?? [];
  const added = names.filter((n) => !before.includes(n));
  const removed = before.filter((n) => !names.includes(n));
  if (!added.length && !removed.length) return null;
  const untagged = [...(doc.byHand?.untagged ?? []).filter((n) => !added.includes(n)), ...removed];
  const entries = [...added.map((n) => ({ at: now, by, what: `tagged ${n}` })), ...removed.map((n) => ({ at: now, by, what: `untagged ${n}` }))];
  return { tags: names, byHand: { ...doc.byHand, untagged }, history: withEntries(doc.history, entries) };
}

/** The fields of `doc` with its value set by a person (null clears it). */
export function valuedByHand(doc: Marks, value: number | null, by: string, now: Date): Partial<Marks> {
  return { value, byHand: { ...doc.byHand, value: true }, history: withEntries(doc.history, [{ at: now, by, what: value === null ? 'value cleared' : `value ${value}` }]) };
}

export class HandMarks {
  private readonly tags: Tags;

  constructor(
    c: RuleCollections,
    private readonly calls: CallWrites,
    private readonly forms: FormWrites,
  ) {
    this.tags = new Tags(c);
  }

  /** The account's names of `names`, each once; refused when one is not the account's. */
  private async known(accountId: string, names: string[]): Promise<string[]> {
    if (names.length > MAX_TAGS_ON_ONE) throw new TagRefused(`tags: at most ${MAX_TAGS_ON_ONE} on one call or form`);
    const { names: found, unknown } = await this.tags.named(accountId, [...new Set(names)]);
    if (unknown) throw new TagRefused(`tags: the account has no tag ${unknown}`);
    return [...new Set(found)];
  }

  /** The call after, or null when it is not the domain's. */
  async tagCall(domain: DomainDoc, callId: number, names: string[], by: string, now = new Date()): Promise<CallDoc | null> {
    const tags = await this.known(domain.accountId, names);
    let found: CallDoc | null = null;
    const after = await this.calls.change(callId, (call) => {
      if (call.domainId !== domain._id) return null;
      found = call;
      return taggedByHand(call, tags, by, now);
    });
    return after ?? found;
  }

  async valueCall(domain: DomainDoc, callId: number, value: number | null, by: string, now = new Date()): Promise<CallDoc | null> {
    return this.calls.change(callId, (call) => (call.domainId === domain._id ? valuedByHand(call, value, by, now) : null));
  }

  async tagForm(domain: DomainDoc, formId: number, names: string[], by: string, now = new Date()): Promise<FormDoc | null> {
    const tags = await this.known(domain.accountId, names);
    let found: FormDoc | null = null;
    const after = await this.forms.change(domain, formId, (form) => {
      found = form;
      return taggedByHand(form, tags, by, now);
    });
    return after ?? found;
  }
}
