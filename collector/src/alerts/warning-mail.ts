// The mail of a warning that starts or ends: the subject says it (`RingTrail: no views from
// acme.example for 24 hours`, then `RingTrail: views from acme.example again`), the body what it
// means, its facts, and the back end's page where it is mended.
import { facts, html, mailPage } from '../mail/layout.ts';
import { unsubscribeHeaders, type MailBody } from '../mail/message.ts';
import type { Facts, Warning } from './warnings.ts';

interface Wording {
  start: string;
  end: string;
  why: string;
  /** The back end's screen where it is mended, under the domain (or the account's). */
  screen: string;
  label: string;
}

const WORDING: Record<Warning, (name: string) => Wording> = {
  'tag-stopped': (d) => ({ start: `no views from ${d} for 24 hours`, end: `views from ${d} again`, why: `The tag on ${d}'s pages, which sent views every day, has sent none for 24 hours: calls from the site are not attributed. Check that the script tag is still in the pages and that its key is the domain's.`, screen: 'settings', label: 'Open the Install settings' }),
  'pool-exhausted': (d) => ({ start: `${d}'s tracking numbers ran out`, end: `${d}'s tracking numbers are enough again`, why: `Every tracking number was held: visitors were shown the site's own number (or the overflow number), and their calls cannot be attributed. Add numbers to the pool, or shorten how long a visitor keeps one.`, screen: 'pools', label: 'Open the pools report' }),
  'refused-origins': (d) => ({ start: `views refused from an address not allowed on ${d}`, end: `no views refused on ${d} for a day`, why: `Pages at these addresses send views with ${d}'s key and are refused. If they are the site's, allow them; if not, nothing to do.`, screen: 'settings', label: 'Open the Install settings' }),
  'webhook-failing': (a) => ({ start: `the webhook of ${a} has failed for over an hour`, end: `the webhook of ${a} works again`, why: `Pushes to the account's webhook have been failing for more than an hour: they are kept and retried for 24 hours, then given up. Check the receiver.`, screen: 'account', label: 'Open the delivery log' }),
  'numbers-miswired': (d) => ({ start: `calls to some of ${d}'s numbers are not tracked`, end: `${d}'s numbers send their calls here again`, why: `The daily check found numbers wired through the carrier whose calls now go elsewhere (changed in the carrier's console), or that left the carrier account: their calls are not tracked. Fix them on the pools screen.`, screen: 'settings', label: 'Open the Number pools' }),
  'carrier-broken': (a) => ({ start: `the carrier account of ${a} refuses its credentials`, end: `the carrier account of ${a} works again`, why: `The carrier refused the stored credentials (changed or revoked), or the account is suspended: numbers cannot be bought, imported or checked. If the carrier takes them again (a suspension lifted), it mends by itself and you get a mail saying so; if they were changed or revoked, connect it again with new credentials.`, screen: 'account', label: 'Open the Carrier settings' }),
  'transcription-failing': (a) => ({ start: `transcription failing for ${a}`, end: `transcription works again for ${a}`, why: `A call's transcript failed several attempts in a row: the speech-to-text engine (TRANSCRIBE_URL) is down, refuses the requests, or is too slow. Each call waiting says so, with the engine's last error, on its page and in the calls log; they are retried for 24 hours, then each call says why it has none.`, screen: 'settings', label: 'Open the Transcripts settings' }),
  'analysis-failing': (a) => ({ start: `call analysis failing for ${a}`, end: `call analysis works again for ${a}`, why: `A call's analysis failed several attempts in a row: the language model (ANALYZE_URL) is down, refuses the requests, or is too slow. The calls wait, retried for 24 hours; then each call says why it has none, on its page.`, screen: 'settings', label: 'Open the Settings' }),
  'ads-broken': (d) => ({ start: `an ad platform refuses ${d}'s conversions`, end: `${d}'s ad platforms take its conversions again`, why: `The ad platform refused the stored credentials (an expired token, revoked access): ${d}'s leads wait and are not sent. If the platform takes them again (a passing refusal, access given back), the connection mends by itself at the next send and you get a mail saying so; if they expired or were revoked, connect it again with new credentials. Either way the leads waiting are sent then, within the platform's accepted age.`, screen: 'conversions', label: 'Open the Conversions screen' }),
  'crm-broken': (d) => ({ start: `the CRM refuses ${d}'s calls and forms`, end: `${d}'s CRM takes its calls and forms again`, why: `The CRM refused the stored credentials (an expired or revoked token): ${d}'s calls and forms wait and are not sent. When it takes them again (access given back), the connection mends by itself at the next delivery, or at once with the CRM card's Test, and you get a mail saying so; if the token was revoked, connect it again with a new one. The deliveries waiting go then, retried for 24 hours.`, screen: 'settings', label: 'Open the CRM settings' }),
  'flow-failing': (d) => ({ start: `call flow failing for ${d}`, end: `${d}'s call flows work again`, why: `A step of a call flow failed (a member removed since, an audio file gone, a flow deleted while a call was in it): the caller never heard it, the call was forwarded to the destination as if the number had no flow. Each such call says why on its page. Open the flow and test it with the simulator.`, screen: 'flows', label: 'Open the Call flows screen' }),
  'carrier-silent': (d) => ({ start: `no call outcome from the carrier for ${d}`, end: `the carrier reports ${d}'s calls again`, why: `Calls were routed over an hour ago and the carrier never reported how they ended: its status callback (/telephony/calls, or Twilio's) may have stopped reaching the collector. Their outcome, duration and lead are unknown until it does.`, screen: 'calls', label: 'Open the calls log' }),
};

export interface WarningMail {
  warning: Warning;
  phase: 'start' | 'end';
  to: string;
  /** The domain, or the account for an account's warning. */
  scope: { domainId: string | null; accountId: string };
  facts: Facts;
  publicUrl: string;
  unsubscribeUrl: string;
}

export function warningMail({ warning, phase, to, scope, facts: list, publicUrl, unsubscribeUrl }: WarningMail): MailBody {
  const name = scope.domainId ?? scope.accountId;
  const w = WORDING[warning](name);
  const subject = `RingTrail: ${phase === 'start' ? w.start : w.end}`;
  const url = scope.domainId ? `${publicUrl}/manage/#/${encodeURIComponent(scope.domainId)}/${w.screen}` : `${publicUrl}/manage/#/${w.screen}`;
  const lead = phase === 'start' ? w.why : `It has ended: ${w.start} no longer holds.`;
  const footer = `You receive this because the warnings that tracking is broken are on for you${scope.domainId ? ` for ${scope.domainId}` : ''} in RingTrail (Profile). Each is sent once when it starts and once when it ends.`;
  const text = [lead, '', ...(phase === 'start' ? list.map(([label, value]) => `${label}: ${value}`) : []), '', `${w.label}: ${url}`, '', footer, `Unsubscribe: ${unsubscribeUrl}`, ''].join('\n');
  return {
    to,
    subject,
    text,
    html: mailPage({ heading: subject.replace(/^RingTrail: /, '').replace(/^./, (c) => c.toUpperCase()), body: html`<p style="margin:0 0 8px">${lead}</p>${phase === 'start' && list.length ? facts(list) : ''}`, link: { url, label: w.label }, footer, unsubscribeUrl }),
    headers: unsubscribeHeaders(unsubscribeUrl),
  };
}
