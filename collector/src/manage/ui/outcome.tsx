// A call's outcome in words: what happened to it (answered, no answer...), and, for a number nobody
// held, that the call could not be attributed: its status code (NOTASSIGNED) says only that.
import type { CallRow } from '../../reports/calls-log.ts';
import { outcomeShown } from '../../telephony/outcome.ts';
import { STATUS_LABELS } from './format.ts';

export function Outcome({ call }: { call: Pick<CallRow, 'status' | 'outcome' | 'abandoned'> }) {
  // A caller who hung up in a flow before any phone rang (issue 80): where, after how long.
  if (call.outcome === 'abandoned')
    return (
      <span class="status abandoned" title={`${call.status}: the caller hung up before anybody answered or any phone rang`}>
        Abandoned{call.abandoned ? ` at ${call.abandoned.name ?? call.abandoned.step}, ${call.abandoned.seconds} s` : ''}
      </span>
    );
  // A caller nobody answered who left a message (call flows): said as such, the status in its title.
  if (call.outcome === 'voicemail')
    return (
      <span class="status voicemail" title={`${call.status}: nobody answered, the caller left a voicemail`}>
        Voicemail
      </span>
    );
  const { outcome, unattributed } = outcomeShown(call as Pick<CallRow, 'status'> & { outcome?: Exclude<CallRow['outcome'], 'voicemail' | 'abandoned'> });
  return (
    <>
      <span class={`status ${outcome!.toLowerCase()}`} title={call.status}>
        {STATUS_LABELS[outcome!] ?? outcome}
      </span>
      {unattributed && (
        <>
          {' '}
          <span class="status unheld" title="Nobody held the number when the call came: the call is not attributed to a visit">
            not attributed
          </span>
        </>
      )}
    </>
  );
}
