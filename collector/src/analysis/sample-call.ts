// The call the Settings card's "Try it" sends to the owner's model (issue 66): a short booking, in
// the domain's language where we wrote one (English otherwise), so that an owner sees what their
// model answers before a real call is read.
import type { Turn } from '../transcripts/documents.ts';

const turn = (speaker: Turn['speaker'], start: number, end: number, text: string): Turn => ({ speaker, start, end, text });

const SAMPLES: Record<string, Turn[]> = {
  en: [
    turn('agent', 0, 3, 'Good morning, Northside Plumbing, this is Dana.'),
    turn('caller', 3, 11, 'Hi, my boiler stopped working last night and there is water on the floor. Can someone come today?'),
    turn('agent', 11, 17, 'I am sorry to hear that. We have a technician free at two this afternoon. The call-out is 89 dollars.'),
    turn('caller', 17, 21, 'That works, please book me for two o clock.'),
    turn('agent', 21, 27, 'Done, you are booked for two today at 14 Elm Street. He will call when he is on his way.'),
    turn('caller', 27, 29, 'Great, thank you so much.'),
  ],
  fr: [
    turn('agent', 0, 3, 'Bonjour, Plomberie du Nord, Dana à l’appareil.'),
    turn('caller', 3, 11, 'Bonjour, ma chaudière est tombée en panne cette nuit et il y a de l’eau par terre. Quelqu’un peut passer aujourd’hui ?'),
    turn('agent', 11, 17, 'Désolée pour vous. Un technicien est libre à quatorze heures. Le déplacement est à 89 euros.'),
    turn('caller', 17, 21, 'Très bien, réservez-moi pour quatorze heures.'),
    turn('agent', 21, 27, 'C’est noté, vous êtes réservé pour quatorze heures, 14 rue des Ormes. Il vous appellera en route.'),
    turn('caller', 27, 29, 'Parfait, merci beaucoup.'),
  ],
};

/** The sample call in `language` (a two-letter code), or in English. */
export function sampleCall(language: string): { language: string; turns: Turn[] } {
  const code = SAMPLES[language] ? language : 'en';
  return { language: code, turns: SAMPLES[code]! };
}
