// A domain as the back end's API answers it (GET /manage/api/domains/:domain): what every settings card reads.
import type { TimetableEntry } from './timetable.ts';

export interface DomainView {
  name: string;
  offlineApiEnabled: boolean;
  allowedOrigins: string[];
  sitePhones: string[];
  displayMode: 'direct' | 'click';
  antiFlickerMs: number;
  defaultExpiration: number;
  numbersPerAddress: number;
  timeZone: string;
  country: string;
  currency: string;
  callerPrivacy: 'none' | 'partial' | 'full';
  orderStatuses: { name: string; isSale: boolean }[];
  ga4MeasurementId?: string;
  /** Write-only: whether it is set, never its value. */
  ga4ApiSecretSet: boolean;
  redirectPhone: string | null;
  redirect: { enabled: boolean; timetable: TimetableEntry[] };
  redirectAfterSeconds: number;
  whisper: boolean;
  leadRule: { minDuration: number; answeredOnly: boolean; firstTimeOnly: boolean };
  recording: { enabled: boolean; announcement: string; channels: 'dual' | 'mono'; otherLawfulBasis: boolean; deleteAtCarrier: boolean };
  recordingRetentionDays: number;
  formTracking: { enabled: boolean; fields: string[] };
  /** Ours (issue 54): transcripts of recorded calls, in a language (null: the country's), and the key phrases spotted. */
  transcription: { enabled: boolean; language: string | null };
  keyPhrases: { label: string; phrases: string[]; speaker: 'caller' | 'agent' | 'any' }[];
  pools: { type: number; usage: 'online' | 'offline'; codeDigits: number; costGroup?: string }[];
  keys: Record<string, boolean>;
  publicKey: string | null;
  numbers: { number: string; type: number; usage: string; inUse: boolean; description: string | null; redirect?: { allowRedirect: boolean; timetable: TimetableEntry[] }; recording?: boolean; carrier?: { origin: string; check: { ok: boolean; voiceUrl: string | null } | null } }[];
  /** Numbers can be bought and imported through the account's carrier account. */
  carrierConnected?: boolean;
}
