// Reads and validates a fixture file, with messages that name the file and the field.
import { readFile } from 'node:fs/promises';
import { fixtureSchema, type Fixture } from './fixture.ts';
import { SeedError } from './seed-service.ts';

export async function readFixtureFile(file: string): Promise<Fixture> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new SeedError(`Cannot read fixture ${file}: ${(err as Error).message}`);
  }
  const parsed = fixtureSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new SeedError(`Invalid fixture ${file}:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
