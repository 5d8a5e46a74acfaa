// The ad platforms and a lead's states with them, by name: what the collector keeps, and what the
// back end and the warning mails write. No imports: the back end's pages bundle it.
export const ADS_PLATFORMS = ['google', 'microsoft', 'meta'] as const;
export type AdsPlatform = (typeof ADS_PLATFORMS)[number];

/** Each platform as people call it. */
export const PLATFORM_NAMES: Record<AdsPlatform, string> = { google: 'Google Ads', microsoft: 'Microsoft Advertising', meta: 'Meta' };

/** Where a lead's conversion is with one platform: `accepted` once Google processed the request it
 * took (`sent`); `retracting` and `retracted` once a sent lead became "not a lead" (where the
 * platform can take it back); `restating` while a sent lead's changed value is told again (then
 * `sent`). */
export const CONVERSION_STATES = ['queued', 'sent', 'accepted', 'rejected', 'not-sent', 'retracting', 'retracted', 'restating'] as const;
export type ConversionState = (typeof CONVERSION_STATES)[number];
