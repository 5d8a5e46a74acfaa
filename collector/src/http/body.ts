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

/** The browser doors take form fields as x-www-form-urlencoded (how tracker.js sends them since
 * issue 81) or text/plain (how it sent them before, still in browsers' caches): both CORS simple
 * requests (no preflight) with the same body in every browser. */
export const parseBrowserBody = koaBody({
  urlencoded: true,
  json: true,
  text: true,
  multipart: false,
  formLimit: '64kb',
  jsonLimit: '64kb',
  textLimit: '64kb',
});

/** The parsed body as a plain record (koa-body leaves `{}` when there is none); a text body is read as form fields. */
export function bodyOf(request: { body?: unknown }): Record<string, unknown> {
  const body = typeof request.body === 'string' ? Object.fromEntries(new URLSearchParams(request.body)) : request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
