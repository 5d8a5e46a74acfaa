// The call flows' recorded prompts (a menu's, a voicemail's greeting, a say step's): audio files a
// domain's owners upload, kept in GridFS like the recordings (bucket `flow_audio`, at most
// MAX_PROMPT_BYTES, audio only), each the domain's own. Twilio fetches them by <Play> (a GET of no
// signature: a prompt is what every caller hears anyway), a PBX by the same address, so an id is
// 12 random bytes (ObjectId's form, nothing of its time or counter): nobody guesses another's from
// their own (issue 79). A domain keeps at most MAX_PROMPTS_PER_DOMAIN files and
// MAX_PROMPT_BYTES_PER_DOMAIN bytes; a file no flow of its domain names is removed a day after its upload.
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ObjectId, type Collection, type Db } from 'mongodb';
import type { Logger } from '../logger.ts';
import { RecordingStore, type StoredRecording } from '../recordings/store.ts';
import { Rounds } from '../rounds.ts';
import type { CallFlowDoc } from './documents.ts';
import type { FlowBody } from './steps.ts';

export const MAX_PROMPT_BYTES = 5 * 1024 * 1024;
export const MAX_PROMPTS_PER_DOMAIN = 50;
export const MAX_PROMPT_BYTES_PER_DOMAIN = 100 * 1024 * 1024;
/** A file no flow names is removed this long after its upload (time to save the flow that names it). */
export const UNUSED_PROMPT_MS = 86_400_000;
const CLEANUP_EVERY_MS = 3_600_000;

/** An upload past the domain's quota. */
export class PromptQuotaReached extends Error {}

/** The id of an uploaded file (24 hex digits), or null. */
const idOf = (id: string) => (/^[a-f0-9]{24}$/.test(id) ? new ObjectId(id) : null);

/** The prompts a flow names: each with its field. */
export function promptsOf(flow: Pick<FlowBody, 'steps'>): { field: string; id: string }[] {
  return Object.entries(flow.steps).flatMap(([name, step]) => {
    const prompt = step.kind === 'menu' || step.kind === 'say' ? { field: `steps.${name}.prompt.audio`, p: step.prompt } : step.kind === 'voicemail' && step.greeting ? { field: `steps.${name}.greeting.audio`, p: step.greeting } : null;
    return prompt?.p.audio ? [{ field: prompt.field, id: prompt.p.audio }] : [];
  });
}

const quotaWords = `A domain keeps at most ${MAX_PROMPTS_PER_DOMAIN} audio files and ${MAX_PROMPT_BYTES_PER_DOMAIN / 1024 / 1024} MB: a file no flow names is removed a day after its upload`;

export class PromptAudio {
  private readonly store: RecordingStore;
  private readonly rounds: Rounds;

  constructor(
    db: Db,
    private readonly flows: Collection<CallFlowDoc>,
    log?: Logger,
  ) {
    this.store = new RecordingStore(db, 'flow_audio');
    this.rounds = new Rounds(() => this.removeUnused().then(() => undefined), 'removing unused prompts', log);
  }

  start(): void {
    this.rounds.start(CLEANUP_EVERY_MS);
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** Streams the file in; PromptQuotaReached past the domain's quota, checked before (a full domain
   * streams nothing) and after, where of uploads at once only those within it by upload order stay. */
  async upload(domainId: string, audio: Readable, contentType: string): Promise<StoredRecording> {
    if (!(await this.withinQuota(domainId, null))) throw new PromptQuotaReached(quotaWords);
    const stored = await this.store.saveFile(`prompt-${domainId}`, { domainId }, audio, contentType, MAX_PROMPT_BYTES, new ObjectId(randomBytes(12)));
    if (await this.withinQuota(domainId, stored.fileId)) return stored;
    await this.store.delete(stored.fileId);
    throw new PromptQuotaReached(quotaWords);
  }

  /** Whether the domain's files up to `last` (in upload order; null: all, with room for one more) keep within its quota. */
  private async withinQuota(domainId: string, last: ObjectId | null): Promise<boolean> {
    const files = await this.store.files({ 'metadata.domainId': domainId }, { sort: { uploadDate: 1, _id: 1 }, projection: { _id: 1, length: 1 }, limit: MAX_PROMPTS_PER_DOMAIN + 1 }).toArray();
    const upTo = last ? files.findIndex((f) => f._id.equals(last)) : files.length;
    if (upTo < 0) return false; // past the first MAX + 1: over the count
    const kept = files.slice(0, upTo + (last ? 1 : 0));
    const bytes = kept.reduce((sum, f) => sum + f.length, 0);
    return last ? kept.length <= MAX_PROMPTS_PER_DOMAIN && bytes <= MAX_PROMPT_BYTES_PER_DOMAIN : kept.length < MAX_PROMPTS_PER_DOMAIN && bytes < MAX_PROMPT_BYTES_PER_DOMAIN;
  }

  /** Removes the files uploaded more than a day before `now` that no flow of their domain names; how many.
   * Domain by domain (index metadata.domainId, uploadDate), each domain's flows read once. */
  async removeUnused(now = new Date()): Promise<number> {
    const old = this.store.files({ 'metadata.domainId': { $exists: true }, uploadDate: { $lt: new Date(now.getTime() - UNUSED_PROMPT_MS) } }, { projection: { _id: 1, metadata: 1 }, sort: { 'metadata.domainId': 1, uploadDate: 1 } });
    let domain = { id: '', named: new Set<string>() };
    let removed = 0;
    for await (const file of old) {
      const domainId = String(file.metadata?.domainId);
      if (domain.id !== domainId) {
        const flows = await this.flows.find({ domainId }, { projection: { steps: 1 } }).toArray();
        domain = { id: domainId, named: new Set(flows.flatMap((f) => promptsOf(f).map((p) => p.id))) };
      }
      if (domain.named.has(file._id.toHexString())) continue;
      await this.store.delete(file._id);
      removed++;
    }
    return removed;
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
    const problems: string[] = [];
    for (const { field, id } of promptsOf(flow)) if (!(await this.fileOf(domainId, id))) problems.push(`${field}: no uploaded audio file ${id} in this domain`);
    return problems;
  }
}
