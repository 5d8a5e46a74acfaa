// The one way the tracker talks to the collector: a POST of form fields (URLSearchParams, sent as
// application/x-www-form-urlencoded: a CORS simple request, so no preflight, the same in every
// browser), 2 s at most, never retried, never throwing into the page.
export const TIMEOUT_MS = 2000;

/** The collector's parsed answer whatever its status; null when it is down, slow or unreadable. */
export function post<T>(base: string, path: string, fields: Record<string, string | number>): Promise<T | null> {
  return new Promise<T | null>((resolve) => {
    const x = new XMLHttpRequest();
    x.open('POST', base + path);
    x.timeout = TIMEOUT_MS;
    // After a load, an error or a timeout alike: null but for a load of JSON.
    x.responseType = 'json';
    x.onloadend = () => resolve(x.response);
    x.send(new URLSearchParams(fields as Record<string, string>));
  });
}
