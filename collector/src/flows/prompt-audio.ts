// The call flows' recorded prompts (a menu's, a voicemail's greeting, a say step's): audio files a
// domain's owners upload, kept in GridFS like the recordings (bucket `flow_audio`, at most
// MAX_PROMPT_BYTES, audio only), each the domain's own. Twilio fetches them by <Play> (a GET of no
// signature: a prompt is what every caller hears anyway), a PBX by the same address.
import type { Readable } from 'node:stream';
import { ObjectId, type Db } from 'mongodb';
import { RecordingStore, type StoredRecording } from '../recordings/store.ts';
import type { FlowBody } from './steps.ts';

export const MAX_PROMPT_BYTES = 5 * 1024 * 1024;

/** The id of an uploaded file (24 hex digits), or null. */
const idOf = (id: string) => (/^[a-f0-9]{24}$/.test(id) ? new ObjectId(id) : null);

export class PromptAudio {
  private readonly store: RecordingStore;

  constructor(db: Db) {
    this.store = new RecordingStore(db, 'flow_audio');
  }

  upload(domainId: string, audio: Readable, contentType: string): Promise<StoredRecording> {
    return this.store.saveFile(`prompt-${domainId}`, { domainId }, audio, contentType, MAX_PROMPT_BYTES);
  }

  /** The file's type and size when it is one of the domain's (any domain's: `domainId` null), else null. */
  async fileOf(domainId: string | null, id: string): Promise<{ fileId: ObjectId; contentType: string; size: number } | null> {
    const fileId = idOf(id);
    const file = fileId && (await this.store.fileOf(fileId));
    if (!file || (domainId !== null && file.metadata?.domainId !== domainId)) return null;
    return { fileId: fileId!, contentType: String(file.metadata?.contentType ?? 'audio/wav'), size: file.length };
  }

  read(fileId: ObjectId): Readable {
    return this.store.read(fileId);
  }

  /** The prompts of a flow that name no file of the domain, each as its field. */
  async missing(domainId: string, flow: FlowBody): Promise<string[]> {
    const named = Object.entries(flow.steps).flatMap(([name, step]) => {
      const prompt = step.kind === 'menu' || step.kind === 'say' ? { field: `steps.${name}.prompt.audio`, p: step.prompt } : step.kind === 'voicemail' && step.greeting ? { field: `steps.${name}.greeting.audio`, p: step.greeting } : null;
      return prompt?.p.audio ? [{ field: prompt.field, id: prompt.p.audio }] : [];
    });
    const problems: string[] = [];
    for (const { field, id } of named) if (!(await this.fileOf(domainId, id))) problems.push(`${field}: no uploaded audio file ${id} in this domain`);
    return problems;
  }
}
