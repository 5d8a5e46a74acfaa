// Who answered through call flows (issue 81), as the Agents screen reads them: over every domain the
// member sees, each in its own days, members by username and plain numbers by name, in one answer.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { domainNamed, trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';

const OWNER = { username: 'owner@shop.test', password: 'flow answerers owner password' };
const fixture = trackingFixture({ users: [OWNER] });
fixture.accounts[0]!.domains.push({ ...domainNamed('uptown', '0100000077'), timeZone: 'America/New_York' } as never);
const s = useSeededCollector('flow_answerers', fixture);

const call = (_id: number, domainId: string, answeredBy: object | null, duration: number, startedAt = new Date()) =>
  s.t.c.calls.insertOne({ _id, domainId, trackingNumber: '0800000001', startedAt, status: 'SUCCESS', duration, flowId: 'f1', answeredBy } as never);

describe('who answered through call flows', () => {
  it('counts members and numbers over every domain, each in its own days', async () => {
    const ana = { member: 'ana@shop.test', number: '0611000001', name: 'ana@shop.test' };
    await call(1, 'shop.test', { ...ana, afterSeconds: 4 }, 60);
    await call(2, 'uptown.test', { ...ana, afterSeconds: 8 }, 30);
    await call(3, 'uptown.test', { member: null, number: '0611000099', name: 'Front desk' }, 20);
    await call(4, 'shop.test', null, 0);
    // Two years ago: outside the range.
    await call(5, 'shop.test', { ...ana, afterSeconds: 1 }, 500, new Date(Date.now() - 730 * 86_400_000));
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.get('/reports/agents')).body.flowAnswerers).toEqual([
      { member: 'ana@shop.test', name: 'ana@shop.test', callsAnswered: 2, talkSeconds: 90, averageRingSeconds: 6 },
      { member: null, name: 'Front desk', callsAnswered: 1, talkSeconds: 20, averageRingSeconds: null },
    ]);
  });
});
