// What the core's extra scripts share (forms.ts, ads-consent.ts): their own address, whose query
// holds the page's key (and what else the collector put there) and whose origin is the collector's;
// and a beacon to a browser door, text/plain as the other doors take it, that outlives the page.
const script = document.currentScript as HTMLScriptElement;
export const own = new URL(script.src);

export function beacon(path: string, fields: Record<string, string>): void {
  navigator.sendBeacon(`${own.origin}${path}`, new Blob([`${new URLSearchParams(fields)}`], { type: 'text/plain;charset=UTF-8' }));
}
