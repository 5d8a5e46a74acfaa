// A domain's call recording (ours): off by default; when on, the caller hears an announcement (in the
// domain's language) before the call is forwarded, and the forwarded leg is recorded from its
// answer, both parties on their own channel (`dual`) or mixed (`mono`). Without an announcement,
// only once the person has said they have another lawful basis: many places require telling the
// caller. Recordings are kept `recordingRetentionDays` (0: kept until deleted); the carrier's copy
// is deleted once ours is stored when the domain says so (`deleteAtCarrier`).
import { z } from 'zod';

export const RECORDING_CHANNELS = ['dual', 'mono'] as const;
export const DEFAULT_RECORDING_RETENTION_DAYS = 365;

/** The announcement said unless the domain sets another: French for a French domain, else English. */
export function defaultAnnouncement(country: string): string {
  return country === 'FR' ? 'Cet appel peut être enregistré pour la qualité du service.' : 'This call may be recorded for quality purposes.';
}

/** The language the carrier's text-to-speech says the announcement in. */
export function announcementLanguage(country: string): 'fr-FR' | 'en-US' | 'en-GB' {
  return country === 'FR' ? 'fr-FR' : country === 'US' ? 'en-US' : 'en-GB';
}

export const recordingSettingsIn = (country: string) =>
  z
    .object({
      enabled: z.boolean().default(false),
      announcement: z.string().trim().max(500, 'must be at most 500 characters').default(defaultAnnouncement(country)),
      channels: z.enum(RECORDING_CHANNELS, { error: `must be one of ${RECORDING_CHANNELS.join(', ')}` }).default('dual'),
      /** Ours: no announcement, because the owner has another lawful basis to record (they said so). */
      otherLawfulBasis: z.boolean().default(false),
      /** Ours: once a recording is stored here, delete the carrier's copy (Twilio's), so it is kept in one place. */
      deleteAtCarrier: z.boolean().default(false),
    })
    .strict()
    .refine((r) => r.announcement !== '' || r.otherLawfulBasis, { message: 'an empty announcement needs otherLawfulBasis: true (many places require telling the caller)', path: ['announcement'] });

export type RecordingSettings = z.infer<ReturnType<typeof recordingSettingsIn>>;

export const recordingRetentionDays = z.number().int().min(0, 'must be 0 (kept) to 3650 days').max(3650, 'must be 0 (kept) to 3650 days');

/** What a carrier does for a call of the domain: record it, after saying the announcement (null: nothing to say). */
export interface RecordingPlan {
  announcement: string | null;
  /** The announcement's language, for the carrier's text-to-speech (`fr-FR`, `en-US`). */
  language: ReturnType<typeof announcementLanguage>;
  channels: (typeof RECORDING_CHANNELS)[number];
}

/** The domain's plan for a call forwarded somewhere; null when it does not record, or when the call
 * is to an offline number that turned recording off for itself. */
export function recordingPlan(domain: { recording?: RecordingSettings; country?: string } | null, forwarded: boolean, offline: { recording?: boolean } | null = null): RecordingPlan | null {
  const recording = domain?.recording;
  if (!domain || !recording?.enabled || !forwarded || offline?.recording === false) return null;
  return { announcement: recording.announcement || null, language: announcementLanguage(domain.country ?? 'FR'), channels: recording.channels };
}
