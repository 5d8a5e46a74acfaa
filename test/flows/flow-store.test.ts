// Call flows stored on the real database: refused with every problem named (a member not of the
// account or not seeing the domain, a name used twice, what flow-checks.ts finds), nothing stored then.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowRefused, FlowStore } from '../../collector/src/flows/flow-store.ts';
import { flowBodyIn } from '../../collector/src/flows/steps.ts';
import { testDatabase, type TestDatabase } from '../helpers/collector.ts';

const body = (targets: unknown[], name = 'Sales') =>
  flowBodyIn('FR').parse({ name, start: 'ring', steps: { ring: { kind: 'ring', strategy: 'round-robin', targets, noAnswer: 'voicemail' }, voicemail: { kind: 'voicemail' } } });
const acme = { _id: 'acme.example', accountId: 'acme', pools: [] };

describe('call flows stored', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await testDatabase('flow_store');
    const at = new Date();
    await t.c.users.insertMany([
      { _id: 'ada@acme.example', accountId: 'acme', role: 'agent', domains: ['acme.example'], createdAt: at },
      { _id: 'ben@acme.example', accountId: 'acme', role: 'agent', domains: ['other.example'], createdAt: at },
      { _id: 'eve@else.example', accountId: 'else', role: 'owner', createdAt: at },
    ]);
  });
  afterAll(() => t.close());

  it('stores a flow of members who see the domain, and refuses the others naming each', async () => {
    const store = new FlowStore(t.c);
    const flow = await store.create(acme, body([{ member: 'ada@acme.example' }, { number: '0611223344' }]), 'owner@acme.example');
    expect(await store.list('acme.example')).toEqual([expect.objectContaining({ _id: flow._id, name: 'Sales', start: 'ring' })]);
    const refused = await store.create(acme, body([{ member: 'ben@acme.example' }, { member: 'eve@else.example' }], 'Support'), 'owner@acme.example').catch((err) => err);
    expect(refused).toBeInstanceOf(FlowRefused);
    expect(refused.message).toBe('steps.ring.targets.0.member: ben@acme.example does not see this domain; steps.ring.targets.1.member: eve@else.example is not a member of the account');
    await expect(store.create(acme, body([{ number: '0611223344' }]), 'owner@acme.example')).rejects.toThrow('name: the domain has a flow named Sales already');
    expect(await store.list('acme.example')).toHaveLength(1);
    // Its own name is no clash when it is changed; another domain's flows are not its.
    expect(await store.update(acme, flow._id, body([{ number: '0699999999' }]), 'owner@acme.example')).toMatchObject({ steps: { ring: { targets: [{ number: '0699999999' }] } } });
    expect(await store.update({ _id: 'other.example', accountId: 'acme', pools: [] }, flow._id, body([{ number: '0611223344' }]), 'x')).toBeNull();
    expect(await store.delete('other.example', flow._id)).toBe(false);
    expect(await store.delete('acme.example', flow._id)).toBe(true);
  });
});
