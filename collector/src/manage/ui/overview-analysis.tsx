// The overview's "What happened on the calls" card (issue 66): of the calls the domain's language
// model read, the appointments booked, the sales made and the average lead score, by source class,
// campaign and keyword as the touch model credits them. Shown once a call was analysed.
import type { AnalysisFigures, AnalysisRow } from '../../reports/overview.ts';
import { SOURCE_NAMES } from '../../reports/figures.ts';
import { count } from './format.ts';

const score = (r: AnalysisRow) => (r.averageLeadScore === null ? '–' : String(r.averageLeadScore));

function Rows({ first, rows }: { first: string; rows: (AnalysisRow & { name: string })[] }) {
  return (
    <table class="stacked">
      <thead>
        <tr>
          <th>{first}</th>
          <th class="num">Analysed</th>
          <th class="num">Appointments</th>
          <th class="num">Sales</th>
          <th class="num" title="0 to 100, as the language model scored the callers">Lead score</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr>
            <td data-label={first}>{r.name}</td>
            <td class="num" data-label="Analysed">{count(r.analysed)}</td>
            <td class="num" data-label="Appointments">{count(r.appointments)}</td>
            <td class="num" data-label="Sales">{count(r.sales)}</td>
            <td class="num" data-label="Lead score">{score(r)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function AnalysisFiguresCard({ figures }: { figures: AnalysisFigures }) {
  if (!figures.analysed) return null;
  const sources = Object.entries(figures.sources).map(([source, r]) => ({ ...r, name: SOURCE_NAMES[source] ?? source }));
  return (
    <div class="card flush" data-testid="analysis-figures">
      <h2>What happened on the calls</h2>
      <p class="muted">
        Of {count(figures.analysed)} call{figures.analysed === 1 ? '' : 's'} read by the language model: {count(figures.appointments)} appointment{figures.appointments === 1 ? '' : 's'} booked, {count(figures.sales)} sale{figures.sales === 1 ? '' : 's'} made, an average lead score of {score(figures)}.
      </p>
      <Rows first="Source" rows={sources} />
      {figures.campaigns.length > 0 && <Rows first="Campaign" rows={figures.campaigns.map((r) => ({ ...r, name: r.campaign }))} />}
      {figures.keywords.length > 0 && <Rows first="Keyword" rows={figures.keywords.map((r) => ({ ...r, name: r.keyword }))} />}
    </div>
  );
}
