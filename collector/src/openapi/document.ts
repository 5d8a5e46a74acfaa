// The OpenAPI 3.1 document of the collector, made from OPERATIONS with zod's own JSON Schema output
// (requests as their input, answers as their output), once per process.
import { z, type ZodType } from 'zod';
import { exampleOf } from './examples.ts';
import { describeField } from './glossary.ts';
import { DEMO_OPERATIONS, OPERATIONS, TAG_DESCRIPTIONS, type Operation } from './operations.ts';

type Json = Record<string, unknown>;

const FORM = 'application/x-www-form-urlencoded';

function schemaOf(schema: ZodType, io: 'input' | 'output'): Json {
  // `any` for what JSON Schema cannot say (a refinement's rule, a transform's output): the check
  // stays with the collector, which answers in its envelope.
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  return rest;
}

/** Gives each property without a description of its own the glossary's, through the whole schema. */
function described(schema: unknown, family: string): void {
  if (!schema || typeof schema !== 'object') return;
  const node = schema as Json;
  for (const [name, property] of Object.entries((node.properties as Record<string, Json> | undefined) ?? {})) {
    const text = describeField(family, name);
    if (text && property && typeof property === 'object' && !property.description) property.description = text;
    described(property, family);
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties', 'prefixItems']) {
    const value = node[key];
    for (const child of Array.isArray(value) ? value : [value]) described(child, family);
  }
}

/** `/domains/:domain` -> `/domains/{domain}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function parameters(op: Operation): Json[] {
  const inPath = [...op.path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description: describeField(op.tag, name!) }));
  const query = op.query
    ? Object.entries(op.query.shape).map(([name, field]) => {
        const schema = schemaOf(field as ZodType, 'input');
        return { name, in: 'query', required: !(field as ZodType).safeParse(undefined).success, schema, description: (schema.description as string | undefined) ?? describeField(op.tag, name) };
      })
    : [];
  const csrf = op.auth === 'session' && op.method !== 'get' ? [{ name: 'X-CSRF-Token', in: 'header', required: true, schema: { type: 'string' }, description: 'The token the sign-in answered' }] : [];
  return [...inPath, ...query, ...csrf];
}

function answerSchema(schema: ZodType, family: string): Json {
  const json = schemaOf(schema, 'output');
  described(json, family);
  return json;
}

function operation(op: Operation): Json {
  const params = parameters(op);
  const body = op.body && schemaOf(op.body, 'input');
  described(body, op.tag);
  return {
    tags: [op.tag],
    summary: op.summary,
    description: `${op.summary}. ${TAG_DESCRIPTIONS[op.tag] ?? ''}`.trim(),
    operationId: `${op.method}${op.path.replace(/[^A-Za-z0-9]+(\w)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: { required: true, content: { [FORM]: { schema: body }, 'application/json': { schema: body } } } } : {}),
    ...(op.binaryBody ? { requestBody: { required: true, content: Object.fromEntries(op.binaryBody.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) } } : {}),
    ...(op.auth ? { security: [{ [op.auth]: [] }] } : {}),
    responses: Object.fromEntries(
      Object.entries(op.responses).map(([status, r]) => {
        const example = exampleOf(`${op.method} ${openApiPath(op.path)}`, Number(status));
        const shown = example === undefined ? {} : { example };
        const content = r.schema ? { 'application/json': { schema: answerSchema(r.schema, op.tag), ...shown } } : r.type ? { [r.type]: { schema: { type: 'string' }, ...shown } } : undefined;
        return [status, { description: r.description, ...(content ? { content } : {}) }];
      }),
    ),
  };
}

export function openApiDocument({ demoPages = false }: { demoPages?: boolean } = {}): Json {
  const paths: Record<string, Json> = {};
  for (const op of [...OPERATIONS, ...(demoPages ? DEMO_OPERATIONS : [])]) (paths[openApiPath(op.path)] ??= {})[op.method] = operation(op);
  return {
    openapi: '3.1.0',
    info: {
      title: 'RingTrail collector',
      version: '1.0.0',
      description:
        "Call tracking, offline numbers, call and SMS data, carts and orders, call-center agents, the browser doors of tracker.js, the telephony side, and the site owner's back end. Each family answers in its own envelope, as its group says.",
    },
    servers: [{ url: '/', description: 'This collector' }],
    tags: [...new Set(OPERATIONS.map((op) => op.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'TELEPHONY_API_KEY' },
        session: { type: 'apiKey', in: 'cookie', name: 'rt_session', description: 'Set by POST /manage/api/session' },
        twilio: { type: 'apiKey', in: 'header', name: 'X-Twilio-Signature', description: "Twilio's signature of the request (TWILIO_AUTH_TOKEN)" },
      },
    },
    paths,
  };
}
