// A stored recording as HTTP: the whole file (200) or the byte range a player asks for (206, with
// Content-Range), `Accept-Ranges: bytes` always, so an <audio> element seeks without downloading the
// whole file; `download` adds Content-Disposition. The caller has checked who may hear it.
import type { Context } from 'koa';
import type { CallDoc } from '../telephony/documents.ts';
import type { RecordingStore } from './store.ts';

/** `bytes=start-end`, `bytes=start-` or `bytes=-suffix` of a file of `size` bytes; null: the whole
 * file; 'unsatisfiable' when it asks for nothing inside it (one range only). */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'unsatisfiable';
  const [start, end] = match[1] === '' ? [Math.max(0, size - Number(match[2])), size - 1] : [Number(match[1]), match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)];
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

export function serveRecording(ctx: Context, store: RecordingStore, call: Pick<CallDoc, '_id' | 'recording'>, download: boolean): boolean {
  const recording = call.recording;
  // Its size was kept as it was stored: a player's many range requests read no file document.
  if (recording?.status !== 'stored' || !recording.fileId || recording.size === undefined) return false;
  const size = recording.size;
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Cache-Control', 'private, no-store');
  // Audio only, never read as a page: whatever bytes a source sent, no browser runs them.
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = recording.contentType ?? 'audio/wav';
  if (download) ctx.set('Content-Disposition', `attachment; filename="call-${call._id}.${ctx.type === 'audio/mpeg' ? 'mp3' : 'wav'}"`);
  const range = byteRange(ctx.get('range') || undefined, size);
  if (range === 'unsatisfiable') {
    ctx.status = 416;
    ctx.set('Content-Range', `bytes */${size}`);
    ctx.body = '';
    return true;
  }
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
    ctx.length = range.end - range.start + 1;
  } else {
    ctx.status = 200;
    ctx.length = size;
  }
  ctx.body = store.read(recording.fileId, range ?? undefined);
  return true;
}
