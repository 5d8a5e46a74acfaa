// A person's verdict on a call or a form submission, in the calls and forms logs and on a call's page
// (PUT .../calls/:callId/verdict, PUT .../forms/:formId/verdict).
import type { CallRow } from '../../reports/calls-log.ts';
import { api } from './api.ts';
import { may, useWho } from './who.ts';

const WORDS: Record<string, string> = { lead: 'Lead', 'not-lead': 'Not a lead', spam: 'Spam' };

/** What a person says of a contact: nothing (`undecided`: what decides without them, the first
 * option), Lead, Not a lead, Spam. `path`: the contact's, under /manage/api. */
export function VerdictChoice({ path, label, verdict, lead, undecided, changed }: { path: string; label: string; verdict: string | null; lead: boolean | null; undecided: string; changed: () => void }) {
  const who = useWho();
  // An analyst reads verdicts and gives none.
  if (!may.giveVerdicts(who)) return <span class={`verdict ${lead ? 'is-lead' : ''}`}>{verdict ? WORDS[verdict] : undecided}</span>;
  const choose = (value: string) => api('PUT', `${path}/verdict`, { verdict: value || null }).then(changed, (err: Error) => alert(err.message));
  return (
    <select class={`verdict ${lead ? 'is-lead' : ''}`} aria-label={label} value={verdict ?? ''} onChange={(e) => choose((e.target as HTMLSelectElement).value)}>
      <option value="">{undecided}</option>
      <option value="lead">Lead</option>
      <option value="not-lead">Not a lead</option>
      <option value="spam">Spam</option>
    </select>
  );
}

/** A call's: the lead rule decides without a verdict. */
export function VerdictSelect({ call, domain, changed }: { call: CallRow; domain: string; changed: () => void }) {
  const byRule = call.verdict ? 'by the rule' : call.lead === null ? 'going on' : call.lead ? 'lead (rule)' : 'no (rule)';
  return <VerdictChoice path={`/domains/${encodeURIComponent(domain)}/calls/${call.callId}`} label={`Verdict on call ${call.callId}`} verdict={call.verdict} lead={call.lead} undecided={byRule} changed={changed} />;
}
