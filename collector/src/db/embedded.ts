// Starts the embedded database, SecantusDB's Rust server, on a loopback port it picks itself, data
// under DATA_DIR, every commit synced to disk (without it, a write acknowledged just before a
// kill -9 can be lost). It is watched: a server that exits without being asked to is logged at
// error, with its exit code or signal, and started again on the same data and port (the driver
// reconnects by itself), after a back-off that grows while it keeps failing.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '../logger.ts';
import { ensureSecantusBinary } from './secantus-binary.ts';

export interface EmbeddedDatabase {
  uri: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** WiredTiger's cache (`4G`, `512M`): at 1G or less, building an index on a million documents
   * retries forever on write conflicts; 4G builds it in seconds. The cache grows only as used. */
  cacheSize?: string;
  /** Where the watcher says that the server died and was started again; unset: nobody is told. */
  log?: Pick<Logger, 'error' | 'warn'>;
}

export const DEFAULT_CACHE_SIZE = '4G';

/**
 * WiredTiger's eviction threads: half the machine's cores, 1 to 4. SecantusDB starts 4, and
 * when a page of a collection that views append to outgrows 5 MB, they write it out together: on 2
 * cores that took both cores for 100 to 300 ms (200 to 470 blocks written), and every view waited
 * behind them. One thread writes the same pages without taking the cores that answer views
 * (docs/benchmarks.md, "The database's page writes").
 */
export function evictionThreads(cores = os.availableParallelism()): number {
  return Math.min(4, Math.max(1, Math.floor(cores / 2)));
}

/** The server's environment: our WiredTiger settings first, an operator's SECANTUS_WT_CONFIG_EXTRA
 * after them (WiredTiger keeps the last value of a setting, so the operator's wins). */
export function embeddedServerEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const threads = evictionThreads();
  const ours = `eviction=(threads_min=${threads},threads_max=${threads})`;
  const theirs = env.SECANTUS_WT_CONFIG_EXTRA;
  return { ...env, SECANTUS_WT_CONFIG_EXTRA: theirs ? `${ours},${theirs}` : ours };
}

const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;
/** Restarts of a server that keeps dying wait longer each time, up to this. */
const RESTART_FIRST_MS = 250;
const RESTART_MAX_MS = 30_000;

export async function startEmbeddedDatabase(dataDir: string, { cacheSize = DEFAULT_CACHE_SIZE, log }: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const binary = ensureSecantusBinary();
  const storage = path.join(dataDir, 'secantus');
  mkdirSync(storage, { recursive: true });
  const pidFile = path.join(dataDir, 'secantus.pid');
  await stopOrphan(pidFile, storage);
  /** Starts a server on `port` (0: any), resolving with it once it accepts connections. */
  const launch = async (port: string): Promise<{ child: ChildProcess; address: string }> => {
    const child = spawn(
      binary,
      ['--host', '127.0.0.1', '--port', port, '--storage-path', storage, '--sync-on-commit', '--cache-size', cacheSize, '--log-level', 'WARNING'],
      { stdio: ['ignore', 'pipe', 'pipe'], env: embeddedServerEnv() },
    );
    const output = captureTail(child);
    try {
      const address = await boundAddress(child, output);
      writeFileSync(pidFile, String(child.pid));
      return { child, address };
    } catch (err) {
      child.kill('SIGKILL');
      throw err;
    }
  };

  const first = await launch('0');
  const port = first.address.split(':').pop()!;
  let current = first.child;
  let stopping = false;
  let restarting: Promise<void> | null = null;
  const watch = (child: ChildProcess) =>
    child.once('exit', (code, signal) => {
      if (stopping) return;
      log?.error({ databasePid: child.pid, code, signal }, 'the embedded database exited: starting it again on the same data');
      restarting = restart();
    });
  const restart = async () => {
    for (let attempt = 0; !stopping; attempt++) {
      await new Promise((r) => setTimeout(r, Math.min(RESTART_FIRST_MS * 2 ** attempt, RESTART_MAX_MS)));
      if (stopping) return;
      try {
        current = (await launch(port)).child;
        watch(current);
        log?.warn({ databasePid: current.pid, port }, 'the embedded database is running again');
        return;
      } catch (err) {
        log?.error({ err, attempt: attempt + 1 }, 'the embedded database did not start again: retrying');
      }
    }
  };
  watch(current);
  const killOnExit = () => current.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    uri: `mongodb://${first.address}/`,
    async stop() {
      stopping = true;
      process.off('exit', killOnExit);
      await restarting;
      await stopServer(current);
      rmSync(pidFile, { force: true });
    },
  };
}

/**
 * A collector killed with SIGKILL cannot stop its database, which goes on holding the data
 * directory: the next start on that directory kills it (its commits are on disk already).
 */
async function stopOrphan(pidFile: string, storage: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8'));
  } catch {
    return;
  }
  const isOurServer = () => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return cmdline.some((arg) => arg.endsWith('secantusd-rs')) && cmdline.includes(storage);
    } catch {
      return false; // gone, or no /proc to tell
    }
  };
  if (!isOurServer()) return;
  process.kill(pid, 'SIGKILL');
  const deadline = Date.now() + STOP_GRACE_MS;
  while (isOurServer() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/** The server prints `secantusd-rs listening on <host:port>` once it accepts connections. */
function boundAddress(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`SecantusDB did not start within ${READY_TIMEOUT_MS / 1000} s:\n${output()}`)), READY_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`SecantusDB exited during start (${signal ?? `code ${code}`}):\n${output()}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1]!);
    });
  });
}

/** Keeps the last lines the server wrote, for the error message when it fails to start. */
function captureTail(child: ChildProcess): () => string {
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  });
  return () => tail;
}

/** SIGTERM lets WiredTiger close cleanly; a server busy past the grace period is killed. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}
