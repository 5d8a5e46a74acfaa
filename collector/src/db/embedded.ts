// Starts the embedded database, SecantusDB's Rust server, on a loopback port it picks itself (or
// DB_PORT), data under DATA_DIR, every commit synced to disk (without it, a write acknowledged just
// before a kill -9 can be lost). It is watched: a server that exits without being asked to is logged
// at error, with its exit code or signal, and started again on the same data and port (the driver
// reconnects by itself), after a back-off that grows while it keeps failing.
//
// One owner per data directory. The owner publishes the server beside the data (secantus.json: the
// server's pid, its own pid, the address), so that the command-line tools run next to a running
// collector connect to its server instead of starting another or killing it. The server never
// outlives its owner: it is started with a parent-death signal (util-linux's setpriv), and a server
// whose owner is gone all the same (no setpriv) is an orphan that the next start stops.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '../logger.ts';
import { ensureSecantusBinary } from './secantus-binary.ts';
import { withParentDeathSignal } from '../parent-death.ts';

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
  /** The server's port (DB_PORT); unset: one the server picks. */
  port?: number;
  /** A server that a live owner runs on this data directory is used, not refused (the command-line
   * tools beside a running collector); it is left running when this handle stops. */
  shareRunning?: boolean;
}

/** What the owner of a data directory's server publishes beside the data. */
export interface PublishedDatabase {
  /** The server's process. */
  pid: number;
  /** The process that started it and stops it: the collector, or a test run. */
  ownerPid: number;
  uri: string;
}

const PUBLISHED_FILE = 'secantus.json';
/** Where releases before 2026-11-25 kept only the server's pid. */
const LEGACY_PID_FILE = 'secantus.pid';

/** The server published in `dataDir`, or null when none is. */
export function publishedDatabase(dataDir: string): PublishedDatabase | null {
  try {
    return JSON.parse(readFileSync(path.join(dataDir, PUBLISHED_FILE), 'utf8')) as PublishedDatabase;
  } catch {
    return null;
  }
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

export async function startEmbeddedDatabase(dataDir: string, { cacheSize = DEFAULT_CACHE_SIZE, log, port: fixedPort, shareRunning = false }: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const binary = ensureSecantusBinary();
  const storage = path.join(dataDir, 'secantus');
  mkdirSync(storage, { recursive: true });
  const publishedFile = path.join(dataDir, PUBLISHED_FILE);
  const running = await runningOrStopOrphans(dataDir, storage);
  if (running && shareRunning) return { uri: running.uri, async stop() {} };
  if (running) {
    throw new Error(`The embedded database of ${dataDir} is already run by process ${running.ownerPid} (${running.uri}): stop that collector first, or start this one with another DATA_DIR`);
  }
  /** Starts a server on `port` (0: any), resolving with it once it accepts connections. */
  const launch = async (port: string): Promise<{ child: ChildProcess; address: string }> => {
    const args = [binary, '--host', '127.0.0.1', '--port', port, '--storage-path', storage, '--sync-on-commit', '--cache-size', cacheSize, '--log-level', 'WARNING'];
    const [command, ...rest] = withParentDeathSignal(args);
    const child = spawn(command!, rest, { stdio: ['ignore', 'pipe', 'pipe'], env: embeddedServerEnv() });
    const output = captureTail(child);
    try {
      const address = await boundAddress(child, output);
      const published: PublishedDatabase = { pid: child.pid!, ownerPid: process.pid, uri: `mongodb://${address}/` };
      writeFileSync(publishedFile, JSON.stringify(published));
      return { child, address };
    } catch (err) {
      child.kill('SIGKILL');
      throw err;
    }
  };

  const first = await launch(String(fixedPort ?? 0));
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
      rmSync(publishedFile, { force: true });
    },
  };
}

/**
 * The server published in `dataDir` when its owner still runs. A server whose owner is gone (or one
 * an earlier release left, which published no owner) is an orphan: stopped here with SIGKILL (its
 * commits are on disk already), and null is answered.
 */
async function runningOrStopOrphans(dataDir: string, storage: string): Promise<PublishedDatabase | null> {
  const published = publishedDatabase(dataDir);
  if (published && isOurServer(published.pid, storage)) {
    if (isAlive(published.ownerPid) && published.ownerPid !== process.pid) return published;
    await killServer(published.pid, storage);
  }
  const legacyFile = path.join(dataDir, LEGACY_PID_FILE);
  if (existsSync(legacyFile)) {
    const pid = Number(readFileSync(legacyFile, 'utf8'));
    if (isOurServer(pid, storage)) await killServer(pid, storage);
    rmSync(legacyFile, { force: true });
  }
  return null;
}

function isOurServer(pid: number, storage: string): boolean {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return cmdline.some((arg) => arg.endsWith('secantusd-rs')) && cmdline.includes(storage);
  } catch {
    return false; // gone, or no /proc to tell
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

async function killServer(pid: number, storage: string): Promise<void> {
  process.kill(pid, 'SIGKILL');
  const deadline = Date.now() + STOP_GRACE_MS;
  while (isOurServer(pid, storage) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
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
