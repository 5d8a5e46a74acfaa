// The fields of a settings form, started again from what is stored.
import type { ComponentChildren } from 'preact';

/**
 * A settings form's fields. They are uncontrolled, so a refused save keeps what was typed; they
 * start again from the stored settings whenever those change (a save, normalized), while the form
 * around them, and its message, stays.
 */
export function StoredFields({ domain, children }: { domain: object; children: ComponentChildren }) {
  return <div key={JSON.stringify(domain)}>{children}</div>;
}
