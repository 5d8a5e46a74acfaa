// The /data-api page gate: one domain's pages are read one at a time per process, in arrival
// order, while another domain's are not held behind them.
import { describe, expect, it } from 'vitest';
import { PageGate } from '../../collector/src/data/page-gate.ts';

describe('the data API page gate', () => {
  it('reads one page of a domain at a time, in order, and never holds another domain behind it', async () => {
    const gate = new PageGate(1);
    let active = 0;
    let most = 0;
    const order: string[] = [];
    const release: (() => void)[] = [];
    const read = (label: string) => async () => {
      active++;
      most = Math.max(most, active);
      order.push(label);
      await new Promise<void>((resolve) => release.push(resolve));
      active--;
      return label;
    };
    const pages = ['a1', 'a2', 'a3'].map((label) => gate.run('a.test', read(label)));
    const other = gate.run('b.test', read('b1'));
    await expect.poll(() => order).toEqual(['a1', 'b1']); // b.test is not behind a.test's pages
    release.shift()!(); // a1 done
    release.shift()!(); // b1 done
    expect(await other).toBe('b1');
    for (let n = 0; n < 2; n++) {
      await expect.poll(() => release.length).toBe(1);
      release.shift()!();
    }
    expect(await Promise.all(pages)).toEqual(['a1', 'a2', 'a3']);
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
    expect(most).toBe(2); // one per domain
  });

  it('passes the turn on when a page fails', async () => {
    const gate = new PageGate(1);
    const failed = gate.run('a.test', async () => {
      throw new Error('database gone');
    });
    const next = gate.run('a.test', async () => 'served');
    await expect(failed).rejects.toThrow('database gone');
    expect(await next).toBe('served');
  });
});
