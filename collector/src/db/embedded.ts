// Starts the embedded FerretDB on a free loopback port, data under DATA_DIR, telemetry off.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { ensureFerretdbBinary } from './ferretdb-binary.ts';

export interface EmbeddedDatabase {
  uri: string;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

export async function startEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  const binary = ensureFerretdbBinary();
  const sqliteDir = path.join(dataDir, 'ferretdb');
  mkdirSync(sqliteDir, { recursive: true });
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freeLoopbackPort();
    const child = spawn(
      binary,
      [
        '--handler=sqlite',
        `--sqlite-url=file:${sqliteDir}/`,
        `--state-dir=${sqliteDir}`,
        `--listen-addr=127.0.0.1:${port}`,
        '--telemetry=disable',
        '--debug-addr=-',
        '--log-level=warn',
        '--log-format=json',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const output = captureTail(child);
    const uri = `mongodb://127.0.0.1:${port}/`;
    try {
      await waitUntilReady(uri, child, output);
      return { uri, stop: stopper(child) };
    } catch (err) {
      lastError = err;
      child.kill('SIGKILL');
    }
  }
  throw lastError;
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Keeps the last lines FerretDB wrote, for the error message when it fails to start. */
function captureTail(child: ChildProcess): () => string {
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  });
  return () => tail;
}

async function waitUntilReady(uri: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`FerretDB exited during start:\n${output()}`);
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 500, connectTimeoutMS: 500 });
    try {
      await client.db('admin').command({ ping: 1 });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.close();
    }
  }
  throw new Error(`FerretDB did not answer on ${uri} within ${READY_TIMEOUT_MS / 1000} s:\n${output()}`);
}

function stopper(child: ChildProcess): () => Promise<void> {
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  return async () => {
    process.off('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
}
