// A person's verdict on a call, in the calls log and on the call's page (PUT .../calls/:callId/verdict).
import type { CallRow } from '../../reports/calls-log.ts';
import { api } from './api.ts';

/** What a person says of a call: nothing (the rule decides, shown as the first option), Lead, Not a lead, Spam. */
export function VerdictSelect({ call, domain, changed }: { call: CallRow; domain: string; changed: () => void }) {
  const byRule = call.verdict ? 'by the rule' : call.lead === null ? 'going on' : call.lead ? 'lead (rule)' : 'no (rule)';
  const choose = (value: string) =>
    api('PUT', `/domains/${encodeURIComponent(domain)}/calls/${call.callId}/verdict`, { verdict: value || null }).then(changed, (err: Error) => alert(err.message));
  return (
    <select class={`verdict ${call.lead ? 'is-lead' : ''}`} aria-label={`Verdict on call ${call.callId}`} value={call.verdict ?? ''} onChange={(e) => choose((e.target as HTMLSelectElement).value)}>
      <option value="">{byRule}</option>
      <option value="lead">Lead</option>
      <option value="not-lead">Not a lead</option>
      <option value="spam">Spam</option>
    </select>
  );
}
