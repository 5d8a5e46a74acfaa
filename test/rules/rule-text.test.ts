// The Rules card's line syntax (manage/ui/rule-text.ts): each action written as the card shows it
// is read back as the same action, a mail's members and address among them.
import { describe, expect, it } from 'vitest';
import { actionText, parseActions, type Action } from '../../collector/src/manage/ui/rule-text.ts';

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

  it('takes bare addresses after mail as members', () => {
    expect(parseActions('mail ada@acme.example bob@acme.example')).toEqual([{ type: 'mail', members: ['ada@acme.example', 'bob@acme.example'] }]);
  });
});
