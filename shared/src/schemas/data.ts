// Answers of the data service (spec document 2): call records, daily rows, SMS records.

export interface CallRecord {
  start_date: string; // DD/MM/YYYY HH:MM:SS
  caller: string;
  tracking_number: string;
  phone: string;
  trigger_type: number;
  source: string;
  url: string;
  referer: string;
  keyword: string;
  call_path: string;
  status: string;
  duration: number;
  billing_duration: number;
  revenue: number;
  postcode: string;
  keypad: string;
  is_redirect: boolean;
  expired_redirect: boolean;
  answer_time: number;
  visit_id?: string;
  gclid?: string;
  client_data?: string;
  /** Ours (not in the spec): how sure the visit match is, and how many visits held the number before the call. */
  match_confidence?: 'certain' | 'likely' | 'possible' | 'none';
  match_candidates?: number;
}

export interface DailyRow {
  date: string; // YYYY-MM-DD
  calls: number;
  duration: number;
  revenue: number;
}

export interface SmsRecord {
  sent_date: string; // YYYY-MM-DD HH:MM:SS
  caller_phone: string;
  tracking_phone: string;
  id: number;
  message_content: string | string[];
}

export type DataAnswer =
  | { status: 'OK'; total_results: number; next_page?: number; results: (CallRecord | SmsRecord)[] }
  | { status: 'OK'; results: DailyRow[] };
