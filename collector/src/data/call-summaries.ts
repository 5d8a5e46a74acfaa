// A call's summaries span the data API's rollups, the reports' counters and the people's contacts:
// the house keeps them (house/call-summaries.ts); this name stays for what imported it here.
export { CallSummaries } from '../house/call-summaries.ts';
