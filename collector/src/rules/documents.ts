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
  /** The recipients of its mails who left them by the mails' unsubscribe link: mailed no more by it. */
  unsubscribed?: string[];
}

/** A rule applied to a period's past calls or forms by a person (rule-runs.ts), and its undo. */
export interface RuleRunDoc {
  _id: string;
  domainId: string;
  ruleId: string;
  ruleName: string;
  /** What it runs over: the moment's calls, or forms (a `form-sent` rule's). */
  of: 'calls' | 'forms';
  /** The period, [from, to). */
  from: Date;
  to: Date;
  state: 'running' | 'done' | 'undoing' | 'undone';
  by: string;
  startedAt: Date;
  finishedAt: Date | null;
  /** Calls or forms tested, and those it changed. */
  checked: number;
  changed: number;
  /** MAX_APPLIED were tested before the end of the period. */
  capped: boolean;
  undoneBy: string | null;
  undoneAt: Date | null;
  /** Calls or forms whose marks the undo put back. */
  restored: number;
}

export const ruleIndexes: IndexPlan = {
  // A domain's rules in order, at each moment of each call and form; the rules mailing an address
  // (the outbox's check before a rule's mail goes out of the team).
  rules: [[{ domainId: 1, position: 1 }], [{ 'actions.address': 1 }]],
  // A rule's runs, newest first.
  ruleRuns: [[{ domainId: 1, ruleId: 1, startedAt: -1 }]],
};

/** The rules family's collections, as its services receive them. */
export interface RuleCollections {
  tags: Collection<TagDoc>;
  rules: Collection<RuleDoc>;
  ruleRuns: Collection<RuleRunDoc>;
}

export function ruleCollections(db: Db): RuleCollections {
  return collectionsNamed<RuleCollections>(db, { tags: 'tags', rules: 'rules', ruleRuns: 'rule_runs' });
}
