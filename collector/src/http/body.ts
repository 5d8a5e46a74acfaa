// Request bodies: form-encoded with bracket arrays (`client_data[0123456789]=...`), or JSON.
import { koaBody } from 'koa-body';

export const parseBody = koaBody({
  urlencoded: true,
  json: true,
  multipart: false,
  text: false,
  formLimit: '256kb',
  jsonLimit: '256kb',
  // Phone numbers as keys stay keys: never turn `client_data[0123456789]` into a sparse array.
  queryString: { parseArrays: true, arrayLimit: 100, depth: 5 },
});

/** The parsed body as a plain record (koa-body leaves `{}` when there is none). */
export function bodyOf(request: { body?: unknown }): Record<string, unknown> {
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
