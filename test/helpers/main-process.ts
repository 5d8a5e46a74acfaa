// The collector as `npm start` runs it (collector/src/main.ts), in a child process: start, exit, and
// whether its embedded database still answers.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { MongoClient } from 'mongodb';

export interface Started {
  child: ChildProcess;
  baseUrl: string;
  databaseUri: string;
  output: () => string;
}

/** Starts main.ts on the embedded database in `dataDir`; `detached` puts it in a process group of its
 * own; `entry` runs another entry point (`npm start`'s: collector/src/supervisor.ts). */
export function startMain(dataDir: string, env: Record<string, string> = {}, { detached = false, entry = 'collector/src/main.ts' } = {}): Promise<Started> {
  // No demo history unless a test asks for it: it would write in the background of every start.
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'warn', DATA_DIR: dataDir, DEMO_HISTORY_DAYS: '0', ...env };
  delete childEnv.MONGODB_URI;
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached });
  let out = '';
  const output = () => out;
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const base = /collector on (http:\/\/\S+)/.exec(out)?.[1];
      const db = /SecantusDB at (mongodb:\/\/\S+)/.exec(out)?.[1];
      if (base && db && out.includes('Back end:')) resolve({ child, baseUrl: base, databaseUri: db, output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
}

/** `npm run admin -- ARGS` beside a collector started on `dataDir` (on its database): what it printed. */
export async function runAdmin(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env };
  delete childEnv.MONGODB_URI;
  return (await promisify(execFile)(process.execPath, ['--import', 'tsx', 'collector/src/cli/admin.ts', ...args], { env: childEnv })).stdout;
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

export async function answers(uri: string): Promise<boolean> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 500 });
  try {
    await client.db('admin').command({ ping: 1 });
    return true;
  } catch {
    return false;
  } finally {
    await client.close();
  }
}

/** The collector processes (main.ts) a process runs now: the supervisor's one, or WORKERS's workers
 * (Linux: /proc lists a process's children; one that has just exited is left out). */
export function collectorProcesses(parentPid: number): number[] {
  const children = readFileSync(`/proc/${parentPid}/task/${parentPid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('collector/src/main.ts');
    } catch {
      return false;
    }
  });
}
