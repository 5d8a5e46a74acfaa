// Slow clients: a request that has not arrived whole within REQUEST_TIMEOUT_MS is answered 408 and
// its connection closed, so slow connections cannot pile up on the collector.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitOf, startMain } from '../helpers/main-process.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-slow-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A connection that sends `head` and then nothing: what the server answers before it closes it. */
function trickle(base: string, head: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(head));
    socket.setEncoding('utf8').on('data', (chunk) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(20_000, () => reject(new Error('the server kept a slow connection open 20 s')));
  });
}

describe('slow clients', () => {
  it('closes connections whose request has not arrived whole, and still serves the others', async () => {
    const main = await startMain(dataDir, { REQUEST_TIMEOUT_MS: '2000' });
    try {
      const slow = [
        ...Array.from({ length: 20 }, () => trickle(main.baseUrl, 'GET /healthz HTTP/1.1\r\nHost: collector\r\n')), // headers never end
        ...Array.from({ length: 20 }, () => trickle(main.baseUrl, 'POST /ospView HTTP/1.1\r\nHost: collector\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\napi_key=')), // body never ends
      ];
      expect((await fetch(`${main.baseUrl}/healthz`)).status).toBe(200); // meanwhile
      const answers = await Promise.all(slow);
      for (const answer of answers) expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    } finally {
      main.child.kill('SIGTERM');
      await exitOf(main.child);
    }
  }, 60_000);
});
