// The Rules card's line syntax (manage/ui/rule-text.ts): each action written as the card shows it
// is read back as the same action, a mail's members and address among them.
import { describe, expect, it } from 'vitest';
import { actionText, conditionText, parseActions, parseConditions, type Action, type Condition } from '../../collector/src/manage/ui/rule-text.ts';

describe("the rules card's actions as lines", () => {
  it('reads back every action it writes', () => {
    const actions: Action[] = [
      { type: 'tag', tag: 'Booked' },
      { type: 'value', amount: 120 },
      { type: 'verdict', verdict: 'lead' },
      { type: 'chat', url: 'https://hooks.slack.com/services/T0/B0/X' },
      { type: 'push' },
      { type: 'mail', members: ['ada@acme.example', 'bob@acme.example'], address: 'sales@partner.example' },
      { type: 'mail', members: ['ada@acme.example'] },
      { type: 'mail', members: [], address: 'sales@partner.example' },
    ];
    const text = actions.map((a) => actionText(a, true)).join('\n');
    expect(text).toContain('mail members ada@acme.example, bob@acme.example address sales@partner.example');
    expect(parseActions(text)).toEqual(actions);
  });

  it("reads back the analysis's conditions it writes, a question of several words among them", () => {
    const conditions: Condition[] = [
      { field: 'outcome', name: 'appointmentBooked', op: 'is', value: 'yes' },
      { field: 'leadScore', op: 'atLeast', value: 70 },
      { field: 'sentiment', op: 'is', value: 'negative' },
      { field: 'answer', question: 'Did the caller ask for emergency service?', op: 'is', value: 'no' },
    ];
    const text = conditions.map(conditionText).join('\n');
    expect(text).toBe('outcome appointmentBooked is yes\nleadScore atLeast 70\nsentiment is negative\nanswer Did the caller ask for emergency service? is no');
    expect(parseConditions(text)).toEqual(conditions);
  });

  it('takes bare addresses after mail as members', () => {
    expect(parseActions('mail ada@acme.example bob@acme.example')).toEqual([{ type: 'mail', members: ['ada@acme.example', 'bob@acme.example'] }]);
  });
});
