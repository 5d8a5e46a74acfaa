// Request bodies: form-encoded with bracket arrays (`client_data[0123456789]=...`), or JSON.
import { koaBody } from 'koa-body';

export const parseBody = koaBody({
  urlencoded: true,
  json: true,
  multipart: false,
  text: false,
  formLimit: '256kb',
  jsonLimit: '256kb',
  // Bracket keys above arrayLimit, and any with a leading zero, stay object keys: phone numbers
  // in `client_data[0123456789]` never become array indexes.
  queryString: { parseArrays: true, arrayLimit: 100, depth: 5 },
});

/** The parsed body as a plain record (koa-body leaves `{}` when there is none). */
export function bodyOf(request: { body?: unknown }): Record<string, unknown> {
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
