// Callers as a domain's `callerPrivacy` lets them be shown: `none` whole, `partial` without the
// last four digits, `full` not at all. The number is stored whole (call-center matching needs it).
export type CallerPrivacy = 'none' | 'partial' | 'full';

export function maskCaller(caller: string | null, privacy: string): string {
  if (caller === null) return 'anonymous';
  if (privacy === 'full') return 'hidden';
  if (privacy === 'partial') return `${caller.slice(0, -4)}XXXX`;
  return caller;
}
