// The counts one step of `npm test` hands to the runner (test/run-all.ts), which adds them all up
// into the run's closing line. A step that leaves no result file failed to run.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

const DIR = path.resolve('test-artifacts', 'results');

export const resultFile = (step: string) => path.join(DIR, `${step}.json`);

export function writeStepResult(step: string, counts: Counts): void {
  mkdirSync(DIR, { recursive: true });
  writeFileSync(resultFile(step), JSON.stringify(counts));
}

export function readStepResult(step: string): Counts | null {
  const file = resultFile(step);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Counts) : null;
}

export function clearStepResult(step: string): void {
  rmSync(resultFile(step), { force: true });
}
