// GA4's own cookies as tracker.js sends them to /t/view, under their names and as they are: `_ga`
// (GA1.1.<random>.<time>: the client id is its last two parts) and `_ga_<stream>` (GS1.1.<id>.… or
// GS2.1.s<id>$…: the session id). They are read here, not in the tracker, so every page is spared
// the bytes, and a cookie of another shape is ignored instead of refusing the view.

const DIGITS = /^\d{1,20}$/;
const SESSION_ID = /^GS\d\.\d\.s?(\d{1,20})/;
const GA_COOKIE = /^_ga(_|$)/;
/** Longer than any cookie GA4 writes (about 30 characters for `_ga`, 60 for a session's): a longer
 * value is no GA4 cookie, and is not read at all. */
const MAX_COOKIE_LENGTH = 200;

/** `GA1.1.<random>.<time>` -> `<random>.<time>`, by splitting, not by a regular expression at the end
 * of the value (unanchored, `\d+\.\d+$` took seconds on a long run of digits). */
function clientIdOf(cookie: string): string | undefined {
  const parts = cookie.split('.');
  const id = parts.slice(-2);
  return parts.length >= 4 && id.every((part) => DIGITS.test(part)) ? id.join('.') : undefined;
}

/** Replaces GA4's cookies in a /t/view body by the `ga_client_id` and `ga_session_id` they hold;
 * ids the body names itself are kept. */
export function gaIdsFromCookies(body: Record<string, unknown>): void {
  const cookies = Object.keys(body).filter((name) => GA_COOKIE.test(name));
  const text = (name: string | undefined) => {
    const value = name === undefined ? undefined : body[name];
    return typeof value === 'string' && value.length <= MAX_COOKIE_LENGTH ? value : '';
  };
  const client = clientIdOf(text('_ga'));
  const session = SESSION_ID.exec(text(cookies.find((name) => name !== '_ga')))?.[1];
  for (const name of cookies) delete body[name];
  if (client && body.ga_client_id === undefined) Object.assign(body, { ga_client_id: client }, session && body.ga_session_id === undefined ? { ga_session_id: session } : {});
}
