// Tags, values and the rules that set them (ours, issue 55): the shapes and indexes of their
// documents (house/all-collections.ts gathers every family's). What a rule or a person marked on a
// call or a form lives on that call or form (`Marks`, telephony/documents.ts).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { IndexPlan } from '../db/index-plan.ts';
import type { RuleAction, RuleCondition, RuleMoment } from './rule-input.ts';

/** An account's label for calls and forms. `_id` = `<accountId>|<name in lower case>`: a name once an account. */
export interface TagDoc {
  _id: string;
  accountId: string;
  name: string;
  /** `#rrggbb`. */
  colour: string;
  createdAt: Date;
  by: string;
}

/** A domain's rule: at its moment, when its conditions hold (all, or any), its actions are taken. */
export interface RuleDoc {
  _id: string;
  domainId: string;
  name: string;
  moment: RuleMoment;
  match: 'all' | 'any';
  conditions: RuleCondition[];
  actions: RuleAction[];
  enabled: boolean;
  /** Its place among the domain's rules: they run in this order. */
  position: number;
  createdAt: Date;
  updatedAt: Date;
  updatedBy: string;
}

export const ruleIndexes: IndexPlan = {
  // A domain's rules in order, at each moment of each call and form.
  rules: [[{ domainId: 1, position: 1 }]],
};

/** The rules family's collections, as its services receive them. */
export interface RuleCollections {
  tags: Collection<TagDoc>;
  rules: Collection<RuleDoc>;
}

export function ruleCollections(db: Db): RuleCollections {
  return collectionsNamed<RuleCollections>(db, { tags: 'tags', rules: 'rules' });
}
