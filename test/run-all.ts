// `npm test`: every step in turn, each with its own output, then one closing line that adds them up,
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

function run(command: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit' });
    child.on('error', () => resolve(127));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const lines: string[] = [];
for (const step of STEPS) {
  clearStepResult(step.name);
  rmSync(VITEST_JSON, { force: true });
  console.log(`\n=== ${step.name} ===`);
  const exit = await run(step.command);
  const counts = step.counts(exit) ?? { passed: 0, failed: 0, skipped: 0 };
  // Exited non-zero, yet counted no failure: something failed outside the counted tests (a crash, a setup error).
  if (exit !== 0 && counts.failed === 0) counts.failed = 1;
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
  lines.push(`${step.name}: ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}${exit !== 0 ? ` (exit ${exit})` : ''}`);
}

console.log(`\n${lines.join('\n')}`);
process.exitCode = total.failed > 0 ? 1 : 0;
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
