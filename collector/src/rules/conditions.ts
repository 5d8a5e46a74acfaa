// A rule's conditions tested on a subject (subject.ts: a call, a form or a text): each a comparison
// of plain values, text compared in lower case by equality or `includes` (no regular expression from
// what a person typed).
import type { RuleDoc } from './documents.ts';
import type { RuleCondition } from './rule-input.ts';
import type { RuleSubject } from './subject.ts';

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
/** The number called or texted, and the caller's or texter's. */
const lineOf = (s: RuleSubject) => s.call ?? s.text;

export function conditionHolds(condition: RuleCondition, s: RuleSubject): boolean {
  switch (condition.field) {
    case 'sourceClass':
    case 'source':
    case 'medium':
    case 'campaign':
    case 'keyword':
    case 'landingPage': {
      const wanted = condition.value.toLowerCase();
      const value = s[condition.field];
      if (condition.op === 'contains') return value.includes(wanted);
      return value === wanted || (condition.field === 'source' && s.sourceName === wanted);
    }
    case 'trackingNumber':
      // Kept in the canonical form when the rule was written (rule-store.ts).
      return lineOf(s)?.trackingNumber === condition.value;
    case 'pool':
      return lineOf(s)?.pool === condition.value;
    case 'duration':
      return s.call !== undefined && (condition.op === 'atLeast' ? s.call.duration >= condition.value : s.call.duration <= condition.value);
    case 'answered':
      return s.call?.answered === condition.value;
    case 'firstCall':
      return s.call !== undefined && (s.call.firstCall === true) === condition.value;
    case 'hadLead':
      return s.hadLead === condition.value;
    case 'callerCountry':
      return lineOf(s)?.callerCountry === condition.value;
    case 'callerArea':
      return Boolean(lineOf(s)?.callerNational?.startsWith(condition.value));
    case 'dayOfWeek':
      return (condition.value as string[]).includes(s.day);
    case 'timeOfDay': {
      const from = minutesOf(condition.value.from);
      const to = minutesOf(condition.value.to);
      // 22:00 to 06:00 runs over midnight.
      return from <= to ? s.minutes >= from && s.minutes < to : s.minutes >= from || s.minutes < to;
    }
    case 'keyPhrase': {
      const wanted = condition.value.toLowerCase();
      return Boolean(s.call?.heard[condition.speaker].some((label) => label.toLowerCase() === wanted));
    }
    case 'outcome':
      return s.call?.analysis?.outcomes[condition.name] === condition.value;
    case 'leadScore': {
      const score = s.call?.analysis?.leadScore;
      return score !== undefined && (condition.op === 'atLeast' ? score >= condition.value : score <= condition.value);
    }
    case 'sentiment':
      return s.call?.analysis?.sentiment === condition.value;
    case 'answer':
      return s.call?.analysis?.answers[condition.question.toLowerCase()] === condition.value;
    case 'formField': {
      const value = s.fields?.[condition.name.toLowerCase()];
      return value !== undefined && value.includes(condition.value.toLowerCase());
    }
    case 'words': {
      const words = s.text?.words;
      const wanted = condition.value.toLowerCase();
      return words !== undefined && (condition.op === 'contains' ? words.includes(wanted) : words.trim() === wanted);
    }
  }
}

/** Whether a rule's conditions hold: all of them, or any (a rule without conditions always matches). */
export function ruleMatches(rule: Pick<RuleDoc, 'match' | 'conditions'>, s: RuleSubject): boolean {
  if (rule.conditions.length === 0) return true;
  return rule.match === 'all' ? rule.conditions.every((c) => conditionHolds(c, s)) : rule.conditions.some((c) => conditionHolds(c, s));
}
