// Recordings kept in the owner's own database, with MongoDB's GridFS (the driver's GridFSBucket,
// bucket `recordings`): written as the audio streams in, never held whole in memory, at most
// MAX_RECORDING_BYTES and audio types only; read back by byte ranges, so a player seeks without
// downloading the whole file. The same on the embedded database and on a replica set.
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { GridFSBucket, ObjectId, type Db } from 'mongodb';

/** The largest recording kept (about 7 hours of dual-channel WAV at 8 kHz). */
export const MAX_RECORDING_BYTES = 200 * 1024 * 1024;
/** Audio the collector keeps; anything else is refused. */
export const AUDIO_TYPES = ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/mpeg', 'audio/mp3'];

export class RecordingRefused extends Error {}

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

export class RecordingStore {
  private readonly bucket: GridFSBucket;

  constructor(db: Db) {
    this.bucket = new GridFSBucket(db, { bucketName: 'recordings' });
  }

  /** Streams the audio into GridFS; refuses (and leaves nothing) past `maxBytes`. */
  async save(callId: number, audio: Readable, contentType: string, maxBytes = MAX_RECORDING_BYTES): Promise<StoredRecording> {
    const upload = this.bucket.openUploadStream(`call-${callId}`, { metadata: { callId, contentType } });
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(size > maxBytes ? new RecordingRefused(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB`) : null, chunk);
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

  async delete(fileId: ObjectId): Promise<void> {
    await this.bucket.delete(fileId).catch((err: Error) => {
      if (!/FileNotFound|not found/i.test(err.message)) throw err;
    });
  }
}
