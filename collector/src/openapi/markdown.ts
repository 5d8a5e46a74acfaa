// The reference section of each API page in docs/, made from the OpenAPI document: every
// operation's parameters, answer fields, example answer and HTTP statuses, so a reader finds the
// whole contract on the page and it is written once (the zod schemas, the glossary, examples.json).
// `npm run docs:api` writes it between the page's markers; test/docs/api-reference.test.ts checks
// that it is current.
import { openApiDocument } from './document.ts';

type Json = Record<string, any>;

export const START = '<!-- reference: made by npm run docs:api from the OpenAPI document; do not edit by hand -->';
export const END = '<!-- reference end -->';

/** Each API page and the OpenAPI groups its reference holds. */
export const REFERENCE_PAGES: Record<string, string[]> = {
  'docs/api-call-tracking.md': ['Call tracking'],
  'docs/api-browser-doors.md': ['Browser doors'],
  'docs/api-offline-numbers.md': ['Offline numbers'],
  'docs/api-data.md': ['Call and SMS data'],
  'docs/api-carts-and-orders.md': ['Carts and orders'],
  'docs/api-call-center-agents.md': ['Call-center agents'],
  'docs/telephony.md': ['Telephony'],
};

const cell = (text: unknown) => String(text ?? '').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** A schema's type in a few words: `string`, `integer`, `one of a, b`, `array of object`. */
function typeOf(schema: Json | undefined): string {
  if (!schema) return '';
  if (schema.const !== undefined) return `\`${schema.const}\``;
  if (schema.enum) return `one of ${schema.enum.map((v: unknown) => `\`${v}\``).join(', ')}`;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return [...new Set(branches.map((b: Json) => typeOf(b)).filter(Boolean))].join(' or ');
  if (schema.type === 'array') return `array of ${typeOf(schema.items) || 'values'}`;
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  return schema.type ?? 'any';
}

/** Every property of a schema and of its branches, nested ones as `a.b` (arrays as `a[].b`). */
function fieldsOf(schema: Json | undefined, prefix = '', depth = 0): { name: string; schema: Json; required: boolean }[] {
  if (!schema || depth > 3) return [];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.flatMap((b: Json) => fieldsOf(b, prefix, depth));
  if (schema.type === 'array') return fieldsOf(schema.items, `${prefix}[]`, depth);
  const required = new Set<string>(schema.required ?? []);
  // A map keyed by the caller's values (`surtaxPhones`, keyed by phone): its values as `name.*`.
  const keyed = schema.additionalProperties && typeof schema.additionalProperties === 'object' ? fieldsOf(schema.additionalProperties, `${prefix}.*`, depth + 1) : [];
  return [...keyed, ...Object.entries((schema.properties ?? {}) as Record<string, Json>).flatMap(([name, child]) => [
    { name: prefix ? `${prefix}.${name}` : name, schema: child, required: required.has(name) },
    ...fieldsOf(child, prefix ? `${prefix}.${name}` : name, depth + 1),
  ])];
}

/** One row per field name (the branches of a union name some twice): every type, the first description. */
function merged(fields: ReturnType<typeof fieldsOf>): { name: string; type: string; required: boolean; description?: string }[] {
  const byName = new Map<string, (typeof fields)[number][]>();
  for (const f of fields) byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
  return [...byName].map(([name, all]) => ({
    name,
    type: [...new Set(all.map((f) => typeOf(f.schema)))].join(' or '),
    required: all.some((f) => f.required),
    description: all.find((f) => f.schema.description)?.schema.description,
  }));
}

function parametersTable(op: Json): string[] {
  const body = op.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
  const rows = [
    ...(op.parameters ?? []).map((p: Json) => ({ name: p.name, where: p.in, required: p.required, type: typeOf(p.schema), description: p.description ?? p.schema?.description })),
    ...merged(fieldsOf(body)).map((f) => ({ ...f, where: 'body', required: f.required && !f.name.includes('.') })),
  ];
  if (!rows.length) return [];
  return ['| Parameter | In | Required | Type | Meaning |', '|---|---|---|---|---|', ...rows.map((r) => `| \`${r.name}\` | ${r.where} | ${r.required ? 'yes' : 'no'} | ${cell(r.type)} | ${cell(r.description)} |`), ''];
}

function answerSection(status: string, answer: Json): string[] {
  const [type, content] = Object.entries((answer.content ?? {}) as Record<string, Json>)[0] ?? [];
  const lines = [`**HTTP ${status}**: ${answer.description}${type && type !== 'application/json' ? ` (\`${type}\`)` : ''}.`, ''];
  if (type === 'application/json') {
    const fields = merged(fieldsOf(content!.schema));
    if (fields.length) lines.push('| Field | Type | Meaning |', '|---|---|---|', ...fields.map((f) => `| \`${f.name}\` | ${cell(f.type)} | ${cell(f.description)} |`), '');
  }
  if (content?.example !== undefined) {
    const shown = typeof content.example === 'string' ? content.example : JSON.stringify(content.example, null, 2);
    lines.push('A real answer:', '', `\`\`\`${type === 'application/json' ? 'json' : type === 'text/xml' ? 'xml' : ''}`, shown.trimEnd(), '```', '');
  }
  return lines;
}

function operationSection(method: string, path: string, op: Json): string[] {
  const [success, ...others] = Object.entries(op.responses as Record<string, Json>).sort(([a], [b]) => a.localeCompare(b));
  return [
    `### \`${method.toUpperCase()} ${path}\``,
    '',
    `${op.summary}.`,
    '',
    ...parametersTable(op),
    ...answerSection(success![0], success![1]),
    ...(others.length ? ['Other answers:', '', ...others.map(([status, r]) => `- HTTP ${status}: ${r.description}`), ''] : []),
  ];
}

/** The reference section of the page that holds these groups. */
export function referenceMarkdown(tags: string[]): string {
  const doc = openApiDocument() as Json;
  const lines = [START, '', '## Reference', '', "Every request and answer, each with an answer the collector really gave: what the collector's `/docs` page shows (see [API description](api-description-fuzzing-metrics.md)).", ''];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(ops)) if (tags.includes(op.tags[0])) lines.push(...operationSection(method, path, op));
  }
  return [...lines, END].join('\n');
}

/** The page with its reference section made anew (added at the end the first time). */
export function withReference(page: string, tags: string[]): string {
  const section = referenceMarkdown(tags);
  const start = page.indexOf(START);
  if (start < 0) return `${page.trimEnd()}\n\n${section}\n`;
  const end = page.indexOf(END, start) + END.length;
  return page.slice(0, start) + section + page.slice(end);
}
