// `npm test`: every step, each with its own output (the typecheck and the lint run beside the
// time-boxed fuzzing, their output printed after it), then one closing line that adds them up,
// `N passed, M failed` (`, K skipped` when any was), alone and last. What counts as one:
// - typecheck: 1 check (tsc over the whole tree);
// - vitest: each test;
// - container lint: each linted file (hadolint on the Dockerfile, the Compose schema on compose.yaml);
// - fuzzing: each API operation schemathesis exercised (one failed check in any of its cases fails it).
// A step that exits non-zero without a failed count, or leaves no counts, adds one failed: the run
// exits non-zero whenever anything failed or did not run.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { clearStepResult, readStepResult, type Counts } from './helpers/step-result.ts';

interface Step {
  name: string;
  command: string[];
  /** The step's counts once it has run, or null when it left none. */
  counts: (exit: number) => Counts | null;
}

const VITEST_JSON = path.resolve('test-artifacts', 'results', 'vitest-report.json');
const bin = (tool: string) => path.resolve('node_modules', '.bin', tool);

/** Vitest's JSON report: its tests, plus one failed for each file that failed without a failed test (it did not load). */
function vitestCounts(): Counts | null {
  if (!existsSync(VITEST_JSON)) return null;
  const report = JSON.parse(readFileSync(VITEST_JSON, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    testResults: { status: string; assertionResults: { status: string }[] }[];
  };
  const brokenFiles = report.testResults.filter((f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed')).length;
  return { passed: report.numPassedTests, failed: report.numFailedTests + brokenFiles, skipped: report.numPendingTests + report.numTodoTests };
}

const STEPS: Step[] = [
  { name: 'typecheck', command: [bin('tsc'), '-p', 'tsconfig.json', '--noEmit'], counts: (exit) => ({ passed: exit === 0 ? 1 : 0, failed: exit === 0 ? 0 : 1, skipped: 0 }) },
  { name: 'vitest', command: [bin('vitest'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`], counts: vitestCounts },
  { name: 'container-lint', command: [bin('tsx'), 'test/deploy/lint.ts'], counts: () => readStepResult('container-lint') },
  { name: 'fuzzing', command: [bin('tsx'), 'test/fuzz/schemathesis.ts'], counts: () => readStepResult('fuzzing') },
];

/** Runs a step's command; `quiet` keeps its output to print later (a step run beside another). */
function run(command: string[], quiet = false): Promise<{ exit: number; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command[0]!, command.slice(1), { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', () => resolve({ exit: 127, output }));
    child.on('exit', (code, signal) => resolve({ exit: code ?? (signal ? 128 : 1), output }));
  });
}

/** The steps, each with its exit and output (null: printed as it ran) and seconds. */
async function runStep(step: Step, quiet = false): Promise<{ step: Step; exit: number; output: string | null; seconds: number }> {
  clearStepResult(step.name);
  if (step.name === 'vitest') rmSync(VITEST_JSON, { force: true });
  const started = performance.now();
  if (!quiet) console.log(`\n=== ${step.name} ===`);
  const { exit, output } = await run(step.command, quiet);
  return { step, exit, output: quiet ? output : null, seconds: (performance.now() - started) / 1000 };
}

const byName = (name: string) => STEPS.find((s) => s.name === name)!;
// The fuzzing step runs for a fixed time (FUZZ_SECONDS), whatever else the machine does: the
// typecheck and the lint run beside it instead of before the tests, taking none of the suite's time.
const vitest = await runStep(byName('vitest'));
const beside = Promise.all([runStep(byName('typecheck'), true), runStep(byName('container-lint'), true)]);
const results = [vitest, await runStep(byName('fuzzing')), ...(await beside)];
for (const { step, output } of results) {
  if (output !== null) console.log(`\n=== ${step.name} (run beside the fuzzing) ===\n${output.trimEnd()}`);
}

const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const lines: string[] = [];
for (const { step, exit, seconds } of STEPS.map((s) => results.find((r) => r.step === s)!)) {
  const counts = step.counts(exit) ?? { passed: 0, failed: 0, skipped: 0 };
  // Exited non-zero, yet counted no failure: something failed outside the counted tests (a crash, a setup error).
  if (exit !== 0 && counts.failed === 0) counts.failed = 1;
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
  console.log(`${step.name} took ${Math.round(seconds)} s`);
  lines.push(`${step.name}: ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}${exit !== 0 ? ` (exit ${exit})` : ''}`);
}

console.log(`\n${lines.join('\n')}`);
process.exitCode = total.failed > 0 ? 1 : 0;
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
