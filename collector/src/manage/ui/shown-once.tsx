// A secret answered once by the server (a key, a webhook secret): shown with a copy button and a
// warning, and gone when the user leaves the screen.
import { useState } from 'preact/hooks';

export function ShownOnce({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="shown-once" role="status">
      <p>
        {label}: copy it now, it is not shown again.
      </p>
      <code data-testid="secret">{value}</code>
      <button type="button" onClick={() => navigator.clipboard?.writeText(value).then(() => setCopied(true))}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
