// Waiting for a condition, never for a fixed time: checks `done` every `everyMs` until it holds,
// and fails, naming what it waited for (and what `said` tells of the state then), once `timeoutMs`
// has passed.
export async function until(done: () => boolean | Promise<boolean>, what: string, { timeoutMs = 60_000, everyMs = 20, said = (): string => '' } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${said()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
