// A chat action's incoming-webhook URL carries its secret in its path (Slack's `/services/T…/B…/…`):
// shown as its host and last four characters (`hooks.slack.com …X9Zq`) to everyone, whole only to
// who may edit the rule (manage/rule-routes.ts), never in the activity log.

/** The URL as every reader sees it; a text that is no URL (already shown so) as it is. */
export function webhookShown(url: string): string {
  try {
    return `${new URL(url).host} …${url.slice(-4)}`;
  } catch {
    return url;
  }
}
