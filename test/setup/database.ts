// One database server for the whole run: the embedded SecantusDB in a temporary folder, or MONGODB_URI.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedDatabase } from '../../collector/src/db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    mongodbUri: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.MONGODB_URI) {
    project.provide('mongodbUri', process.env.MONGODB_URI);
    return async () => {};
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-test-db-'));
  const embedded = await startEmbeddedDatabase(dataDir);
  project.provide('mongodbUri', embedded.uri);
  return async () => {
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
