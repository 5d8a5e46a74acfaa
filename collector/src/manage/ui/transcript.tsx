// A call's transcript under its recording: each turn with its speaker and time, a click plays the
// recording from there, the turns where a key phrase was heard marked with its label, the turn being
// played shown as a caption under the player (the captions track's cue playing, caption-sized, else
// the turn); downloads as text or WebVTT (the player's captions track).
import type { RetryingJob } from '../../reports/retrying-jobs.ts';
import { RetryingLine } from './retrying.tsx';
import type { Clock } from './format.ts';
import { useEffect, useState } from 'preact/hooks';
import type { CallRow } from '../../reports/calls-log.ts';
import type { SpottedPhrase, Turn } from '../../transcripts/documents.ts';
import { get } from './api.ts';
import { useLoad } from './hooks.ts';

interface TranscriptAnswer {
  turns: Turn[];
  spotted: SpottedPhrase[];
  language: string | null;
  engine: string;
  model: string;
  demo?: true;
}

interface Caption {
  speaker: string | null;
  lines: string[];
}

/** A WebVTT cue's text as captions.ts writes it: `<v caller>` then its lines, `<` and `&` escaped. */
function captionOf(text: string): Caption {
  const voice = /^<v ([^>]+)>/.exec(text);
  const body = voice ? text.slice(voice[0].length) : text;
  return { speaker: voice?.[1] ?? null, lines: body.split('\n').map((line) => line.replace(/&lt;/g, '<').replace(/&amp;/g, '&')) };
}

/** `12:05`: a turn's time from the recording's start. */
const at = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** The recording's player on the page (RecordingCard). */
const player = () => document.querySelector<HTMLAudioElement>('[data-testid="recording"] audio');

/** `transcript`: what the call says of it (null: none yet); `retrying`: its making, failing and retried. */
export function TranscriptCard({ domain, callId, transcript, retrying, clock }: { domain: string; callId: number; transcript: CallRow['transcript']; retrying: RetryingJob | null; clock: Clock }) {
  const path = `/domains/${encodeURIComponent(domain)}/calls/${callId}/transcript`;
  const { data, error } = useLoad(() => (transcript?.status === 'ready' ? get<TranscriptAnswer>(path) : Promise.resolve(null)), [path, transcript?.status]);
  const [playing, setPlaying] = useState<number | null>(null);
  const [cue, setCue] = useState<Caption | null>(null);
  useEffect(() => {
    const audio = player();
    if (!audio || !data) return;
    const follow = () => setPlaying(data.turns.findIndex((t) => audio.currentTime >= t.start && audio.currentTime <= t.end + 0.3));
    audio.addEventListener('timeupdate', follow);
    const track = audio.textTracks[0];
    const onCue = () => setCue(track?.activeCues?.length ? captionOf((track.activeCues[0] as VTTCue).text) : null);
    track?.addEventListener('cuechange', onCue);
    return () => {
      audio.removeEventListener('timeupdate', follow);
      track?.removeEventListener('cuechange', onCue);
    };
  }, [data]);
  const playFrom = (turn: Turn) => {
    const audio = player();
    if (!audio) return;
    audio.currentTime = turn.start;
    void audio.play().catch(() => undefined);
  };
  return (
    <div class="card" data-testid="transcript">
      <h2>Transcript</h2>
      {retrying && <RetryingLine job={retrying} clock={clock} />}
      {transcript?.status === 'failed' && <p class="warn-text">{transcript.error ?? 'The transcript could not be made.'}</p>}
      {transcript?.status === 'deleted' && <p class="muted">Deleted with the recording.</p>}
      {error && <p class="warn-text">{error}</p>}
      {data && (
        <>
          {(() => {
            const shown = cue ?? (playing !== null && playing >= 0 && data.turns[playing] ? { speaker: data.turns[playing]!.speaker, lines: [data.turns[playing]!.text] } : null);
            return (
              shown && (
                <p class="caption" data-testid="caption">
                  {shown.speaker && <strong>{shown.speaker}: </strong>}
                  {shown.lines.map((line, i) => (
                    <>
                      {i > 0 && <br />}
                      {line}
                    </>
                  ))}
                </p>
              )
            );
          })()}
          {transcript!.keyPhrases.length > 0 && (
            <p>
              Heard:{' '}
              {transcript!.keyPhrases.map((label) => (
                <span class="status key-phrase">{label}</span>
              ))}
            </p>
          )}
          {data.turns.length === 0 ? (
            <p class="muted">Nothing was said.</p>
          ) : (
            <ol class="turns">
              {data.turns.map((turn, i) => {
                const heard = data.spotted.filter((s) => s.turn === i);
                return (
                  <li class={`turn ${turn.speaker ?? 'mono'}${heard.length ? ' spotted' : ''}${playing === i ? ' playing' : ''}`}>
                    <button type="button" class="link turn-time" title="Play from here" onClick={() => playFrom(turn)}>
                      {at(turn.start)}
                    </button>
                    {turn.speaker && <span class="speaker">{turn.speaker}</span>}
                    {/* A click on the words plays from there too; selecting them to copy does not. */}
                    <span class="turn-text" title="Play from here" onClick={() => !window.getSelection()?.toString() && playFrom(turn)}>
                      {turn.text}
                    </span>
                    {heard.map((s) => (
                      <span class="status key-phrase" title={`“${s.phrase}”`}>
                        {s.label}
                      </span>
                    ))}
                  </li>
                );
              })}
            </ol>
          )}
          <p class="muted">
            {data.demo ? 'Made for the demo. ' : `Made by ${data.engine === 'local' ? 'the bundled engine' : data.engine} (${data.model}${data.language ? `, ${data.language}` : ''}). `}
            Download as{' '}
            <a href={`/manage/api${path}?format=txt&download=1`} download>
              text
            </a>{' '}
            or{' '}
            <a href={`/manage/api${path}?format=vtt&download=1`} download>
              WebVTT
            </a>
            .
          </p>
        </>
      )}
    </div>
  );
}
