// CORS for the browser doors: only the pages of a domain's allowedOrigins may call them with its
// public key. The tracker sends CORS simple requests (form bodies, no preflight), so the browser
// does not ask first: the collector itself refuses a request from any other origin, before
// anything is stored, and names the origin in Access-Control-Allow-Origin only when allowed.
import type { Context } from 'koa';
import type { DomainDoc } from '../domains/documents.ts';
import { TrackingFailure } from '../http/tracking-failure.ts';

/** Longer than any origin a browser sends (a host name is at most 253 characters). */
export const MAX_ORIGIN_LENGTH = 255;

export function admitOrigin(ctx: Context, domain: DomainDoc): void {
  const origin = ctx.get('Origin');
  ctx.vary('Origin');
  if (!origin || !domain.allowedOrigins.some((allowed) => new URL(allowed).origin === origin)) {
    // Quoted as sent, up to a length no real origin reaches: anyone may send a forged one of 15 KB.
    const quoted = origin.length > MAX_ORIGIN_LENGTH ? `${origin.slice(0, MAX_ORIGIN_LENGTH)}...` : origin;
    throw new TrackingFailure('AUTHENTICATION_ERROR', `Origin ${quoted || '(none)'} is not allowed for this key`, {}, { status: 403 });
  }
  ctx.set('Access-Control-Allow-Origin', origin);
}
