// A flow's turn in Twilio's words: TwiML built with the official library's VoiceResponse. The
// prompts before a gather are said inside it (a key interrupts them); a gather with no key still
// comes back (actionOnEmptyResult), so the flow decides what silence means; a ring group rung at
// once is one <Dial> with a <Number> for each leg, one rung in turn a <Dial> per callback.
import { toE164 } from '@ringtrail/shared';
import twilio from 'twilio';

/** A leg of a ring group, its member or number resolved (ring-order.ts). */
export interface DialLeg {
  number: string;
  /** Twilio fetches it when the leg answers, to whisper to whoever picked up (telephony/whisper.ts). */
  whisperUrl: string | null;
}

/** What Twilio is asked to do, the flow's actions with their targets resolved and their callbacks named. */
export type TwilioStep =
  | { kind: 'say'; text: string }
  | { kind: 'play'; url: string }
  | { kind: 'gather'; timeoutSeconds: number; words: string[]; action: string }
  | { kind: 'dial'; legs: DialLeg[]; seconds: number; action: string; record: 'record-from-answer-dual' | 'record-from-answer' | null }
  | { kind: 'record'; maxSeconds: number; action: string; recordingCallback: string }
  | { kind: 'hangup' };

export function flowTwiml(steps: TwilioStep[], o: { language: string; callerId: string | null }): string {
  const twiml = new twilio.twiml.VoiceResponse();
  // Say and play go inside the gather that follows them, if one does.
  const gatherAt = steps.findIndex((s) => s.kind === 'gather');
  const gather = gatherAt >= 0 ? (steps[gatherAt] as Extract<TwilioStep, { kind: 'gather' }>) : null;
  const inside = gather
    ? twiml.gather({
        input: gather.words.length ? ['dtmf', 'speech'] : ['dtmf'],
        numDigits: 1,
        timeout: gather.timeoutSeconds,
        action: gather.action,
        method: 'POST',
        actionOnEmptyResult: true,
        ...(gather.words.length ? { hints: gather.words.join(', '), language: o.language as 'en-US' } : {}),
      })
    : null;
  steps.forEach((step, i) => {
    const target = inside && i < gatherAt ? inside : twiml;
    switch (step.kind) {
      case 'say':
        target.say({ language: o.language as 'en-US' }, step.text);
        return;
      case 'play':
        target.play(step.url);
        return;
      case 'gather':
        return;
      case 'dial': {
        const dial = twiml.dial({ ...(o.callerId ? { callerId: o.callerId } : {}), action: step.action, method: 'POST', timeout: step.seconds, ...(step.record ? { record: step.record, recordingStatusCallback: 'recording', recordingStatusCallbackMethod: 'POST' as const } : {}) });
        for (const leg of step.legs) dial.number(leg.whisperUrl ? { url: leg.whisperUrl, method: 'POST' } : {}, toE164(leg.number));
        return;
      }
      case 'record':
        twiml.record({ maxLength: step.maxSeconds, playBeep: true, action: step.action, method: 'POST', recordingStatusCallback: step.recordingCallback, recordingStatusCallbackMethod: 'POST' });
        return;
      case 'hangup':
        twiml.hangup();
        return;
    }
  });
  return twiml.toString();
}
