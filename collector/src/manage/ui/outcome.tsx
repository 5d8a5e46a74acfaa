// A call's outcome in words: what happened to it (answered, no answer...), and, for a number nobody
// held, that the call could not be attributed: its status code (NOTASSIGNED) says only that.
import type { CallRow } from '../../reports/calls-log.ts';
import { STATUS_LABELS } from './format.ts';

export function Outcome({ call }: { call: Pick<CallRow, 'status' | 'outcome'> }) {
  const outcome = call.outcome ?? call.status;
  return (
    <>
      <span class={`status ${outcome.toLowerCase()}`} title={call.status}>
        {STATUS_LABELS[outcome] ?? outcome}
      </span>
      {call.status === 'NOTASSIGNED' && outcome !== 'NOTASSIGNED' && ' '}
      {call.status === 'NOTASSIGNED' && outcome !== 'NOTASSIGNED' && (
        <span class="status unheld" title="Nobody held the number when the call came: the call is not attributed to a visit">
          not attributed
        </span>
      )}
    </>
  );
}
