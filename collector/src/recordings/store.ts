// Recordings kept in the owner's own database, with MongoDB's GridFS (the driver's GridFSBucket,
// bucket `recordings`): written as the audio streams in, never held whole in memory, at most
// MAX_RECORDING_BYTES and audio types only; read back by byte ranges, so a player seeks without
// downloading the whole file. The same on the embedded database and on a replica set.
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { GridFSBucket, ObjectId, type Db, type Filter, type FindCursor, type FindOptions, type GridFSFile } from 'mongodb';

/** The largest recording kept (about 7 hours of dual-channel WAV at 8 kHz). */
export const MAX_RECORDING_BYTES = 200 * 1024 * 1024;
/** Audio the collector keeps; anything else is refused. */
export const AUDIO_TYPES = ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/mpeg', 'audio/mp3'];

export class RecordingRefused extends Error {}
/** Past the size allowed: HTTP's 413, whether the body said its length or came in chunks. */
export class RecordingTooLarge extends RecordingRefused {}

export interface StoredRecording {
  fileId: ObjectId;
  size: number;
  contentType: string;
}

/** An audio type as stored, or null when the type is no audio the collector keeps. */
export function audioType(header: string | null | undefined): string | null {
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase();
  if (!AUDIO_TYPES.includes(type)) return null;
  return type === 'audio/mp3' ? 'audio/mpeg' : type.endsWith('wav') || type === 'audio/wave' ? 'audio/wav' : type;
}

/** What an audio file of each kind starts with: WAV a RIFF header (RIFF, RIFX or RF64), MP3 an ID3
 * tag or a frame's sync bits (eleven 1s). */
export function looksLikeAudio(contentType: string, head: Buffer): boolean {
  if (contentType === 'audio/mpeg') return head.subarray(0, 3).toString('latin1') === 'ID3' || (head[0] === 0xff && (head[1]! & 0xe0) === 0xe0);
  return ['RIFF', 'RIFX', 'RF64'].includes(head.subarray(0, 4).toString('latin1'));
}

/** Bytes read before the audio's first bytes are checked. */
const HEAD_BYTES = 4;

export class RecordingStore {
  private readonly bucket: GridFSBucket;

  /** `bucketName`: the call flows' prompts are kept the same way, in a bucket of their own (flows/prompt-audio.ts). */
  constructor(db: Db, bucketName = 'recordings') {
    this.bucket = new GridFSBucket(db, { bucketName });
  }

  /** Streams a call's recording into GridFS (saveFile). */
  save(callId: number, audio: Readable, contentType: string, maxBytes = MAX_RECORDING_BYTES): Promise<StoredRecording> {
    return this.saveFile(`call-${callId}`, { callId }, audio, contentType, maxBytes);
  }

  /** Streams the audio into GridFS; refuses (and leaves nothing) past `maxBytes`, or when its first
   * bytes are not audio of its type (a page or a script sent as audio/wav is not kept). `id`: the
   * file's, when the caller chooses it (the driver's otherwise). */
  async saveFile(filename: string, metadata: Record<string, unknown>, audio: Readable, contentType: string, maxBytes: number, id?: ObjectId): Promise<StoredRecording> {
    const options = { metadata: { ...metadata, contentType } };
    const upload = id ? this.bucket.openUploadStreamWithId(id, filename, options) : this.bucket.openUploadStream(filename, options);
    let size = 0;
    let head: Buffer | null = Buffer.alloc(0);
    const notAudio = () => new RecordingRefused(`not audio: its first bytes are not those of ${contentType}`);
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new RecordingTooLarge(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB`));
        if (head) {
          head = Buffer.concat([head, chunk]);
          if (head.length < HEAD_BYTES) return done();
          const checked = head;
          head = null;
          return done(looksLikeAudio(contentType, checked) ? null : notAudio(), checked);
        }
        done(null, chunk);
      },
      flush(done) {
        done(head ? notAudio() : null);
      },
    });
    try {
      await pipeline(audio, counted, upload);
    } catch (err) {
      await this.bucket.delete(upload.id).catch(() => undefined); // the chunks written so far
      throw err;
    }
    return { fileId: upload.id, size, contentType };
  }

  /** The bytes `start`..`end` (included) of a recording. */
  read(fileId: ObjectId, range?: { start: number; end: number }): Readable {
    return this.bucket.openDownloadStream(fileId, range ? { start: range.start, end: range.end + 1 } : {});
  }

  /** A stored file's length and metadata, or null when there is none. */
  async fileOf(fileId: ObjectId): Promise<{ length: number; metadata?: Record<string, unknown> } | null> {
    return (await this.bucket.find({ _id: fileId }, { limit: 1 }).toArray())[0] ?? null;
  }

  /** The stored files `filter` names (GridFS's files collection), as `options` says. */
  files(filter: Filter<GridFSFile>, options: FindOptions = {}): FindCursor<GridFSFile> {
    return this.bucket.find(filter, options);
  }

  async delete(fileId: ObjectId): Promise<void> {
    await this.bucket.delete(fileId).catch((err: Error) => {
      if (!/FileNotFound|not found/i.test(err.message)) throw err;
    });
  }
}
