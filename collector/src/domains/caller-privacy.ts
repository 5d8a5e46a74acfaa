// Callers as a domain's `callerPrivacy` lets them be shown: `none` whole, `partial` without the
// last four digits, `full` not at all. The number is stored whole (call-center matching needs it).
export type CallerPrivacy = 'none' | 'partial' | 'full';

export function maskCaller(caller: string | null, privacy: string): string {
  if (caller === null) return 'anonymous';
  if (privacy === 'full') return 'hidden';
  if (privacy === 'partial') return `${caller.slice(0, -4)}XXXX`;
  return caller;
}

/** The destination a call shows (issue 79): a call received goes to the domain's own number, shown
 * whole; a call placed (click-to-call) goes to the person, whose number is a caller's, masked as
 * callers are. `national`: the number as the answer carries it. */
export function destinationShown(call: { direction?: string; destination: string | null }, privacy: string, national: (canonical: string) => string): string | null {
  if (call.destination === null) return null;
  return call.direction === 'outbound' ? maskCaller(national(call.destination), privacy) : national(call.destination);
}
