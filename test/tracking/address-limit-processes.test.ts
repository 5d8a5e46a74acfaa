// The address cap across processes (issue 44): each collector process decides from its own memory
// of the holds it gave, read from the slots at its first claim and again for an address whose
// remembered hold seems ended. Two apps on one database stand for two processes (WORKERS=2): a
// restarted process counts what it gave before; a hold the other process kept alive still counts;
// one address holds at most numbersPerAddress × 2, the documented bound, and each process gives it
// at most numbersPerAddress.
import { afterAll, describe, expect, it } from 'vitest';
import { startCollector, useSeededCollector, type RunningCollector } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { until } from '../helpers/until.ts';

const LIMIT = 4;
const WORKERS = 2;
const ADDRESS_LIMIT = 'No tracking number available: this address already holds as many numbers as one address may';

describe('numbers per address across processes', () => {
  const s = useSeededCollector('address_limit_processes', trackingFixture({ numbersPerAddress: LIMIT, exclusive: Array.from({ length: 60 }, (_, i) => `08000001${String(i).padStart(2, '0')}`) }));
  const others: RunningCollector[] = [];
  const another = async () => {
    const started = await startCollector(s.t.db);
    others.push(started);
    return started;
  };
  afterAll(async () => {
    for (const other of others) await other.close();
  });
  const viewAt = async (collector: RunningCollector, ip: string, extra: Record<string, string | number | boolean> = {}) => (await collector.post('/ospView', viewParams({ ip, ...extra }))).body;
  const heldBy = async (visitIds: number[]) => s.t.c.leases.countDocuments({ visitId: { $in: visitIds }, expiresAt: { $gt: new Date() } });

  it('gives one address at most the limit from each process, and after a restart counts what it gave before', async () => {
    const second = await another();
    // The second process's first claim: it reads what every address holds then, and not after.
    expect((await viewAt(second, '198.51.100.20')).status).toBe('OK');
    const ip = '198.51.100.21';
    const views = [];
    for (let i = 0; i < 3 * LIMIT; i++) views.push(await viewAt(i < LIMIT ? s.collector : second, ip));
    // The first process gave its limit; the second, which did not see them given, gives its own.
    expect(views.map((a) => a.status)).toEqual([...Array(2 * LIMIT).fill('OK'), ...Array(LIMIT).fill('WARNING')]);
    expect(await heldBy(views.map((a) => a.visitId))).toBe(LIMIT * WORKERS);
    expect((await viewAt(s.collector, ip)).errorMessage).toBe(ADDRESS_LIMIT);

    // A process that gave an address its numbers, restarted: it reads them from the slots.
    const first = await another();
    for (let i = 0; i < LIMIT; i++) expect((await viewAt(first, '198.51.100.22')).status).toBe('OK');
    await first.close();
    others.splice(others.indexOf(first), 1);
    const restarted = await another();
    expect((await viewAt(restarted, '198.51.100.22')).errorMessage).toBe(ADDRESS_LIMIT);
  });

  it('counts a hold kept alive by another process past the end the first one knew', async () => {
    const second = await another();
    const ip = '198.51.100.23';
    const held = [];
    for (let i = 0; i < LIMIT; i++) held.push(await viewAt(s.collector, ip, { expiration: 2 }));
    // The visits come back through the other process, which keeps their numbers for ten minutes.
    for (const view of held) expect((await viewAt(second, ip, { visit_id: view.visitId, expiration: 600 })).surtaxPhones).toEqual(view.surtaxPhones);
    const firstEnd = Date.now() + 2000;
    await until(() => Date.now() > firstEnd, 'the holds to pass the end the first process knew');
    // The first process reads the address's holds again: still held.
    expect((await viewAt(s.collector, ip)).errorMessage).toBe(ADDRESS_LIMIT);
  });

  it('lets one address hold at most numbersPerAddress × WORKERS under simultaneous views spread over the processes, and exactly the limit in one', async () => {
    const second = await another();
    const processes = [s.collector, second];
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => viewAt(processes[i % WORKERS]!, '198.51.100.24')));
    const given = answers.filter((a) => a.status === 'OK');
    expect(given.length).toBeGreaterThanOrEqual(LIMIT);
    expect(given.length).toBeLessThanOrEqual(LIMIT * WORKERS);
    expect(await heldBy(answers.map((a) => a.visitId))).toBe(given.length);
    // Each process alone never passes the limit.
    for (let p = 0; p < WORKERS; p++) expect(answers.filter((a, i) => i % WORKERS === p && a.status === 'OK').length).toBeLessThanOrEqual(LIMIT);

    const alone = await Promise.all(Array.from({ length: 20 }, () => viewAt(second, '198.51.100.25')));
    expect(alone.filter((a) => a.status === 'OK')).toHaveLength(LIMIT);
  });
});
