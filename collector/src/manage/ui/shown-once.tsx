// A secret or a link answered once by the server (a key, a webhook secret, an invitation, a shared
// link): shown with a copy button and a warning, and gone when the user leaves the screen.
import { useState } from 'preact/hooks';

export function ShownOnce({ label, value, note = 'copy it now, it is not shown again.', testId = 'secret' }: { label: string; value: string; note?: string; testId?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="shown-once" role="status">
      <p>
        {label}: {note}
      </p>
      <code data-testid={testId}>{value}</code>
      <button type="button" onClick={() => navigator.clipboard?.writeText(value).then(() => setCopied(true))}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

/** A link to hand to someone (an invitation, a reset, a shared report). */
export function LinkToCopy({ label, url }: { label: string; url: string }) {
  return <ShownOnce label={label} value={url} note="it is not shown again." testId="link" />;
}
