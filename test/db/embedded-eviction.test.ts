// The embedded database's WiredTiger runs the eviction threads we chose for the machine (half its
// cores, 1 to 4), and an operator's own SECANTUS_WT_CONFIG_EXTRA still has the last word.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { evictionThreads, startEmbeddedDatabase } from '../../collector/src/db/embedded.ts';

const dataDirs: string[] = [];
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The eviction threads of a freshly started embedded database, from its serverStatus. */
async function activeEvictionThreads(): Promise<number> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-eviction-'));
  dataDirs.push(dataDir);
  const db = await startEmbeddedDatabase(dataDir);
  const client = new MongoClient(db.uri);
  try {
    const status = await client.db('admin').command({ serverStatus: 1 });
    return status.wiredTiger.cache['eviction worker thread active'];
  } finally {
    await client.close();
    await db.stop();
  }
}

describe('the embedded database on this machine', () => {
  it('runs half the cores as eviction threads, 1 to 4', async () => {
    expect(evictionThreads(1)).toBe(1);
    expect(evictionThreads(2)).toBe(1);
    expect(evictionThreads(6)).toBe(3);
    expect(evictionThreads(64)).toBe(4);
    expect(await activeEvictionThreads()).toBe(evictionThreads());
  });

  it("keeps an operator's own SECANTUS_WT_CONFIG_EXTRA, which has the last word", async () => {
    const before = process.env.SECANTUS_WT_CONFIG_EXTRA;
    const theirs = evictionThreads() + 1;
    process.env.SECANTUS_WT_CONFIG_EXTRA = `eviction=(threads_min=${theirs},threads_max=${theirs})`;
    try {
      expect(await activeEvictionThreads()).toBe(theirs);
    } finally {
      if (before === undefined) delete process.env.SECANTUS_WT_CONFIG_EXTRA;
      else process.env.SECANTUS_WT_CONFIG_EXTRA = before;
    }
  });
});
