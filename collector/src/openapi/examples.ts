// Real answers of the collector, one per operation, shown as the OpenAPI document's examples.
// Recorded by test/openapi/examples.test.ts (RECORD_EXAMPLES=1), which also checks that each one
// still fits its schema and has the shape of today's answer.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Operation } from './operations.ts';

export const EXAMPLES_FILE = fileURLToPath(new URL('./examples.json', import.meta.url));

/** `post /ospView` -> the status and body it answered. */
export type Examples = Record<string, { status: number; body: unknown }>;

const examples: Examples = existsSync(EXAMPLES_FILE) ? JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) : {};

/** The operation's success: its first 2xx answer. */
export const successStatus = (op: Operation): number => Number(Object.keys(op.responses).find((status) => status.startsWith('2')));

/** The recorded answer of `method path` (OpenAPI path) with this status, if there is one. */
export function exampleOf(operationKey: string, status: number): unknown {
  const example = examples[operationKey];
  return example && example.status === status ? example.body : undefined;
}
