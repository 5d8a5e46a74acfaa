// Where the collector is reached. Every link it hands out (mails, pushes, the data API, the back end)
// starts with PUBLIC_URL, or where the process listens without it (development only: production
// refuses to start without PUBLIC_URL), never with a request's Host. Only a carrier's signature is
// checked against the address a request names, since the carrier signed the URL it called.
import type { Context } from 'koa';

export const DEFAULT_PORT = 8080;
export const DEFAULT_PUBLIC_URL = `http://127.0.0.1:${DEFAULT_PORT}`;

/** The address a signed carrier request was sent to (PUBLIC_URL, else this request's own), without a trailing slash. */
export function collectorAddress(ctx: Context, publicUrl: string | undefined): string {
  return publicUrl?.replace(/\/$/, '') ?? `${ctx.protocol}://${ctx.host}`;
}
