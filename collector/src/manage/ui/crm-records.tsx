// A call's or form's records in the team's CRM (issue 67): each with a link into the CRM and its
// state (sent, updated, failed: why). Shown once it was sent to one.
import { CRM_NAMES } from '../../crm/crm-client.ts';
import type { CrmRecordMark } from '../../telephony/documents.ts';

const OBJECT_NAMES: Record<string, string> = { contact: 'Contact', call: 'Call', note: 'Note', lead: 'Lead', task: 'Task', campaignMember: 'Campaign member' };

/** `state` absent: a person's records (their contact and activities), listed without one. */
export function CrmRecordsCard({ records }: { records: (Omit<CrmRecordMark, 'state'> & { state?: string })[] }) {
  return (
    <div class="card" data-testid="crm-records">
      <h2>In the CRM</h2>
      <dl class="facts">
        {records.map((r) => (
          <>
            <dt>
              {CRM_NAMES[r.crm as keyof typeof CRM_NAMES] ?? r.crm} {OBJECT_NAMES[r.object] ?? r.object}
            </dt>
            <dd>
              {r.link && r.id ? (
                <a href={r.link} target="_blank" rel="noopener noreferrer">
                  {r.id}
                </a>
              ) : (
                <span class="muted">not made</span>
              )}{' '}
              {r.state && <span class={`status state-${r.state}`}>{r.state === 'failed' ? `failed: ${r.error ?? 'unknown'}` : r.state}</span>}
            </dd>
          </>
        ))}
      </dl>
    </div>
  );
}
