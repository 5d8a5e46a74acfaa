// A person's verdict on a call, in the calls log and on the call's page (PUT .../calls/:callId/verdict).
import type { CallRow } from '../../reports/calls-log.ts';
import { api } from './api.ts';
import { may, useWho } from './who.ts';

const WORDS: Record<string, string> = { lead: 'Lead', 'not-lead': 'Not a lead', spam: 'Spam' };

/** What a person says of a call: nothing (the rule decides, shown as the first option), Lead, Not a lead, Spam. */
export function VerdictSelect({ call, domain, changed }: { call: CallRow; domain: string; changed: () => void }) {
  const who = useWho();
  const byRule = call.verdict ? 'by the rule' : call.lead === null ? 'going on' : call.lead ? 'lead (rule)' : 'no (rule)';
  // An analyst reads verdicts and gives none.
  if (!may.giveVerdicts(who)) return <span class={`verdict ${call.lead ? 'is-lead' : ''}`}>{call.verdict ? WORDS[call.verdict] : byRule}</span>;
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
