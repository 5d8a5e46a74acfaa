// The demo history's transcripts: some answered calls get one of a few scripted conversations of a
// plumbing firm's line, as the bundled engine would write them, with the demo domain's key phrases
// spotted. Marked as made for the demo (`demo: true`; the call page says so); no engine ran.
import type { DomainDoc } from '../domains/documents.ts';
import type { TranscriptDoc, Turn } from '../transcripts/documents.ts';
import { labelsOf, spotPhrases } from '../transcripts/spotting.ts';
import type { TranscriptStore } from '../transcripts/transcript-store.ts';
import { transcriptText } from '../transcripts/turns.ts';

type Line = [speaker: 'caller' | 'agent', text: string];

const SCRIPTS: Line[][] = [
  [
    ['agent', 'Acme Plumbing, good morning, how can I help?'],
    ['caller', "Hi, my boiler stopped this morning and there's no hot water. Can you come today?"],
    ['agent', 'We can be there between two and four. What is the address?'],
    ['caller', 'Twelve Rue des Lilas. How much does a call-out cost?'],
    ['agent', 'Eighty euros for the visit, and the repair is quoted on site.'],
    ['caller', 'Perfect, please book an appointment.'],
  ],
  [
    ['agent', 'Acme Plumbing, hello.'],
    ['caller', 'Hello, I would like a quote for a new bathroom sink and tap.'],
    ['agent', 'Of course. Is it a simple replacement or are the pipes moving too?'],
    ['caller', 'Just a replacement. What does it cost, roughly?'],
    ['agent', 'Around two hundred and fifty euros with the parts. I can send you the quote by e-mail.'],
    ['caller', "Thanks, I'll think about it."],
  ],
  [
    ['agent', 'Acme Plumbing, how can I help you?'],
    ['caller', "It's an emergency, a pipe burst under the kitchen sink, there is water everywhere."],
    ['agent', 'Turn off the main valve under the meter. A plumber will be with you within the hour.'],
    ['caller', 'Thank you, the valve is off now.'],
  ],
  [
    ['agent', 'Acme Plumbing, good afternoon.'],
    ['caller', "You fixed my shower last week and the leak came back. I'm not happy about it."],
    ['agent', "I'm sorry. The repair is under warranty, we will come back at no cost. Is Thursday morning fine?"],
    ['caller', 'Thursday morning works.'],
  ],
];

/** Each answered call whose number `n` falls on it (one in three) gets a script; none for the others. */
export const scriptedFor = (n: number) => (n % 3 === 0 ? SCRIPTS[(n / 3) % SCRIPTS.length]! : null);

/** The call's demo transcript, its key phrases spotted, stored as an engine's would be. */
export async function demoTranscript(store: TranscriptStore, domain: DomainDoc, call: { _id: number; startedAt: Date }, script: Line[]): Promise<void> {
  let at = 0.5;
  const turns: Turn[] = script.map(([speaker, text]) => {
    const seconds = Math.max(1.5, text.split(' ').length / 2.6);
    const turn = { speaker, start: Math.round(at * 10) / 10, end: Math.round((at + seconds) * 10) / 10, text };
    at += seconds + 0.8;
    return turn;
  });
  const spotted = await spotPhrases(turns, domain.keyPhrases ?? []);
  const transcript: TranscriptDoc = { _id: call._id, domainId: domain._id, startedAt: call.startedAt, turns, spotted, text: transcriptText(turns), language: 'en', engine: 'demo', model: 'scripted', audioSeconds: Math.round(at), tookMs: 0, madeAt: call.startedAt, demo: true };
  await store.save(transcript, labelsOf(spotted, domain.keyPhrases ?? []));
}
