// Where the collector is reached, for the links it hands out. PUBLIC_URL when set; otherwise a
// request's own scheme and host (behind a trusted proxy, what the proxy says), and, with no request
// at hand (mails, pushes), where the process listens, by default the default PORT on this machine.
import type { Context } from 'koa';

export const DEFAULT_PORT = 8080;
export const DEFAULT_PUBLIC_URL = `http://127.0.0.1:${DEFAULT_PORT}`;

/** The collector's address as this request reached it, without a trailing slash. */
export function collectorAddress(ctx: Context, publicUrl: string | undefined): string {
  return publicUrl?.replace(/\/$/, '') ?? `${ctx.protocol}://${ctx.host}`;
}
