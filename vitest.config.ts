import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/database.ts', 'test/setup/bundles.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Three files at once on two cores: many of the slow files wait (a collector process starting,
    // a supervisor's back-off, a browser), and a third worker fills those waits: 804 tests in 362 s
    // instead of 405 s with two, all green. More would starve the shared database.
    maxWorkers: 3,
    // Each worker keeps the modules it imported between files: every file imported the whole collector
    // anew (271 s of imports in a run); without isolation, 804 tests in 393 s instead of 599 s, all green.
    // Every file makes its own database and collector, so no state is shared through a module.
    isolate: false,
    // expect.poll waits for a condition: its deadline is only there to fail a test that never gets
    // there, so it is generous (vitest's own 1 s is shorter than a busy machine's pauses).
    expect: { poll: { timeout: 15_000 } },
  },
});
