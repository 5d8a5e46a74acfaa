// E-mail, as a member sees it: their alert choices per domain (Profile), and whether the server
// sends mail at all, a test e-mail to themselves and the mails that could not be sent (Settings).
import { useState } from 'preact/hooks';
import type { AlertChoices, CallAlert, Delivery } from '../../alerts/documents.ts';
import { api, get } from './api.ts';
import { BROWSER_CLOCK, when, type Clock } from './format.ts';
import { useAction, useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';

const CALL_ALERT_NAMES: [CallAlert, string][] = [
  ['missedCall', 'Missed calls'],
  ['newLead', 'New leads (calls and forms)'],
  ['firstCaller', 'First-time callers'],
  ['spamBlocked', 'Spam blocked'],
  ['newText', 'New texts'],
];
const DELIVERY_NAMES: Record<Delivery, string> = { immediate: 'At once', hourly: 'Hourly digest', off: 'Off' };
const OTHER_NAMES: ['missedOutsideHours' | 'warnings' | 'weekly' | 'monthly', string][] = [
  ['missedOutsideHours', 'Missed calls outside opening hours too'],
  ['warnings', 'Warnings that tracking is broken'],
  ['weekly', 'Weekly summary (Mondays)'],
  ['monthly', 'Monthly summary (on the 1st)'],
];

interface Alerts {
  mail: boolean;
  domains: { domain: string; choices: AlertChoices }[];
}

/** Profile: what each domain's alerts send this member. */
export function AlertsCard() {
  const alerts = useLoad(() => get<Alerts>('/alerts'), []);
  const action = useAction(alerts.reload);
  const change = (domain: string, choice: Partial<AlertChoices>) => action.run(() => api('PUT', `/domains/${encodeURIComponent(domain)}/alerts`, choice));
  if (!alerts.data) return alerts.error ? <Failure message={alerts.error} /> : null;
  return (
    <div class="card" data-testid="alerts">
      <h2>E-mail alerts</h2>
      {!alerts.data.mail && <p class="warn-text">This server sends no e-mail (SMTP_URL is not set): your choices are kept for when it does.</p>}
      {action.error && <Failure message={action.error} />}
      {alerts.data.domains.map(({ domain, choices }) => (
        <fieldset class="alerts" data-domain={domain}>
          <legend>{domain}</legend>
          {CALL_ALERT_NAMES.map(([alert, name]) => (
            <label class="inline-choice">
              {name}
              <select value={choices[alert] ?? choices.missedCall} onChange={(e) => change(domain, { [alert]: (e.target as HTMLSelectElement).value as Delivery })}>
                {Object.entries(DELIVERY_NAMES).map(([value, label]) => (
                  <option value={value}>{label}</option>
                ))}
              </select>
            </label>
          ))}
          {OTHER_NAMES.map(([choice, name]) => (
            <label class="check">
              <input type="checkbox" checked={choices[choice]} onChange={(e) => change(domain, { [choice]: (e.target as HTMLInputElement).checked })} /> {name}
            </label>
          ))}
        </fieldset>
      ))}
    </div>
  );
}

interface Mail {
  configured: boolean;
  from: string | null;
  retrying?: { since: string; waiting: number; lastError: string | null };
  failures: { at: string; kind: string; to: string; subject: string; error: string }[];
}

/** Settings: whether mail goes out, a test e-mail, and what could not be sent; dates in the domain's
 * locale where the screen is a domain's. */
export function MailCard({ clock = BROWSER_CLOCK }: { clock?: Clock }) {
  const mail = useLoad(() => get<Mail>('/mail'), []);
  const [sent, setSent] = useState<string | null>(null);
  const action = useAction(mail.reload);
  if (!mail.data) return mail.error ? <Failure message={mail.error} /> : null;
  return (
    <div class="card" data-testid="mail">
      <h2>E-mail</h2>
      {mail.data.configured ? (
        <p>
          Mail goes out from <span class="mono">{mail.data.from}</span>. Each person chooses their alerts under Profile.
        </p>
      ) : (
        <p class="muted">This server sends no e-mail: its operator sets SMTP_URL (and MAIL_FROM) to turn on alerts, warnings and summaries.</p>
      )}
      {action.error && <Failure message={action.error} />}
      {mail.data.retrying && (
        <p class="warn-text" role="status" data-testid="mail-retrying">
          The mail server is not taking mail: retrying since {when(mail.data.retrying.since, clock)}, {mail.data.retrying.waiting} {mail.data.retrying.waiting === 1 ? 'mail' : 'mails'} waiting.
          {mail.data.retrying.lastError && <> Last error: {mail.data.retrying.lastError}</>}
        </p>
      )}
      {mail.data.configured && (
        <p>
          <button type="button" onClick={() => action.run(async () => setSent((await api<{ to: string }>('POST', '/mail/test')).to))}>
            Send me a test e-mail
          </button>
          {sent && <span class="ok-text" role="status"> Sent to {sent}: it arrives within a minute, or shows below if the mail server refuses it.</span>}
        </p>
      )}
      {mail.data.failures.length > 0 && (
        <table>
          <thead><tr><th>When</th><th>To</th><th>Subject</th><th>The mail server's answer</th></tr></thead>
          <tbody>
            {mail.data.failures.map((f) => (
              <tr>
                <td class="nowrap">{when(f.at, clock)}</td>
                <td>{f.to}</td>
                <td>{f.subject}</td>
                <td class="name">{f.error}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
