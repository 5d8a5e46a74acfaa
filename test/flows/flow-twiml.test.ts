// A flow's turns as TwiML, parsed as XML (jsdom) and read element by element: the prompts inside the
// gather, every leg of a simultaneous ring in one Dial, the voicemail's Record.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { flowTwiml } from '../../collector/src/flows/flow-twiml.ts';

const parse = (xml: string) => new JSDOM(xml, { contentType: 'text/xml' }).window.document;
const attrs = (el: Element) => Object.fromEntries([...el.attributes].map((a) => [a.name, a.value]));

describe('a flow turn as TwiML', () => {
  it('says the prompt inside a one-key gather that comes back even with no key, with its spoken words as hints', () => {
    const doc = parse(flowTwiml([{ kind: 'say', text: 'Welcome.' }, { kind: 'say', text: 'Press 1 for sales.' }, { kind: 'gather', timeoutSeconds: 5, words: ['sales'], action: 'flow?call=7&step=menu&tries=0' }], { language: 'en-US', callerId: '+33611223344' }));
    const response = doc.documentElement;
    expect(response.tagName).toBe('Response');
    expect([...response.children].map((e) => e.tagName)).toEqual(['Gather']);
    const gather = response.children[0]!;
    expect(attrs(gather)).toEqual({ input: 'dtmf speech', numDigits: '1', timeout: '5', action: 'flow?call=7&step=menu&tries=0', method: 'POST', actionOnEmptyResult: 'true', hints: 'sales', language: 'en-US' });
    expect([...gather.children].map((e) => `${e.tagName}: ${e.textContent}`)).toEqual(['Say: Welcome.', 'Say: Press 1 for sales.']);
    // Keys only: no speech, no hints.
    const keys = parse(flowTwiml([{ kind: 'play', url: 'https://collector.example/telephony/flows/audio/abc' }, { kind: 'gather', timeoutSeconds: 8, words: [], action: 'flow' }], { language: 'fr-FR', callerId: null })).documentElement.children[0]!;
    expect(attrs(keys)).toMatchObject({ input: 'dtmf' });
    expect(keys.getAttribute('hints')).toBeNull();
    expect(keys.children[0]!.tagName).toBe('Play');
  });

  it('rings every leg of a simultaneous group in one Dial, whispering and recording the leg that answers', () => {
    const doc = parse(flowTwiml([{ kind: 'dial', legs: [{ number: '0611223344', whisperUrl: 'whisper?call=7' }, { number: '0622334455', whisperUrl: null }], seconds: 25, action: 'flow?call=7&step=support', record: 'record-from-answer-dual' }], { language: 'fr-FR', callerId: '+33699887766' }));
    const dial = doc.documentElement.children[0]!;
    expect(attrs(dial)).toEqual({ callerId: '+33699887766', action: 'flow?call=7&step=support', method: 'POST', timeout: '25', record: 'record-from-answer-dual', recordingStatusCallback: 'recording', recordingStatusCallbackMethod: 'POST' });
    expect([...dial.children].map((n) => [n.tagName, n.textContent, n.getAttribute('url')])).toEqual([
      ['Number', '+33611223344', 'whisper?call=7'],
      ['Number', '+33622334455', null],
    ]);
  });

  it('greets, records a voicemail with a beep and its callbacks, and hangs up', () => {
    const doc = parse(flowTwiml([{ kind: 'say', text: 'Leave a message.' }, { kind: 'record', maxSeconds: 60, action: 'flow?call=7&step=voicemail', recordingCallback: 'recording?voicemail=1' }], { language: 'en-GB', callerId: null }));
    expect([...doc.documentElement.children].map((e) => e.tagName)).toEqual(['Say', 'Record']);
    expect(doc.documentElement.children[0]!.getAttribute('language')).toBe('en-GB');
    expect(attrs(doc.documentElement.children[1]!)).toEqual({ maxLength: '60', playBeep: 'true', action: 'flow?call=7&step=voicemail', method: 'POST', recordingStatusCallback: 'recording?voicemail=1', recordingStatusCallbackMethod: 'POST' });
    expect(parse(flowTwiml([{ kind: 'hangup' }], { language: 'en-US', callerId: null })).documentElement.children[0]!.tagName).toBe('Hangup');
  });
});
