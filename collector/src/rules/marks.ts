// What a rule's actions make of a call's or a form's marks (tags, value, verdict), on the document
// as it is, changing nothing a person set by hand: a verdict they gave, a value they set, a tag they
// took off. Pure: the same for a run, a preview and an apply to past calls.
import type { MarkEntry, Marks } from '../telephony/documents.ts';
import type { RuleDoc } from './documents.ts';
import type { RuleAction } from './rule-input.ts';

/** The history a call or form keeps: its last entries. */
export const MAX_HISTORY = 50;

export type Verdict = Extract<RuleAction, { type: 'verdict' }>['verdict'];

/** A document's marks as a rule sees them: its tags, value, what a person set, and its verdict's
 * value and whether a person gave it. */
export interface MarkState {
  tags: string[];
  value: number | null;
  byHand: NonNullable<Marks['byHand']>;
  verdict: Verdict | null;
  verdictByHand: boolean;
}

/** What rules changed: the new state and what each did, in words (`tagged Booked`). */
export interface MarkChange {
  state: MarkState;
  entries: MarkEntry[];
}

export function markState(doc: Marks, verdict: { value: Verdict; byHand: boolean } | null): MarkState {
  return { tags: doc.tags ?? [], value: doc.value ?? null, byHand: doc.byHand ?? {}, verdict: verdict?.value ?? null, verdictByHand: verdict?.byHand ?? false };
}

/** The marks after `rule`'s actions; the entries say what changed (nothing: no entry). */
export function applyRule(state: MarkState, rule: Pick<RuleDoc, '_id' | 'name' | 'actions'>, now: Date): MarkChange {
  let next = state;
  const entries: MarkEntry[] = [];
  const said = (what: string) => entries.push({ at: now, by: `rule ${rule.name}`, rule: rule._id, what });
  for (const action of rule.actions) {
    if (action.type === 'tag' && !next.tags.includes(action.tag) && !next.byHand.untagged?.includes(action.tag)) {
      next = { ...next, tags: [...next.tags, action.tag] };
      said(`tagged ${action.tag}`);
    } else if (action.type === 'value' && !next.byHand.value && next.value !== action.amount) {
      next = { ...next, value: action.amount };
      said(`value ${action.amount}`);
    } else if (action.type === 'verdict' && !next.verdictByHand && next.verdict !== action.verdict) {
      next = { ...next, verdict: action.verdict };
      said(`verdict ${action.verdict}`);
    }
  }
  return { state: next, entries };
}

/** History with `entries` added, its last MAX_HISTORY kept. */
export const withEntries = (history: MarkEntry[] | undefined, entries: MarkEntry[]) => [...(history ?? []), ...entries].slice(-MAX_HISTORY);
