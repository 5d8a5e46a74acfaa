// The forms log: each submission with what led to it, its contact fields (as text), lead or spam and
// a person's verdict, pages with a count, and a link to the person's timeline.
import { TagChips, useAccountTags } from './call-marks.tsx';
import type { FormRow } from '../../reports/forms-log.ts';
import type { RetryingJob } from '../../reports/retrying-jobs.ts';
import { RetryingLines } from './retrying.tsx';
import { get, withQuery } from './api.ts';
import { count, UNATTRIBUTED, when } from './format.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import { rangeQuery, ReportHeading } from './range.tsx';
import { navigate, type Route } from './route.ts';
import { VerdictChoice } from './verdict.tsx';
import { Pager } from './pager.tsx';
import { useClock } from './clock.ts';
import { may, useWho } from './who.ts';
import { LEAD_CHOICES, QuerySelect, sourceChoices, SOURCES } from './query-select.tsx';

const SPAM_WORDS: Record<string, string> = { honeypot: 'spam: the hidden field was filled', 'too-fast': 'spam: sent within 2 s', verdict: 'spam (a person said so)' };

export function FormsScreen({ route }: { route: Route }) {
  const clock = useClock(route.domain);
  const domain = encodeURIComponent(route.domain!);
  const page = Number(route.query.page || 1);
  const filters = { ...rangeQuery(route), source: route.query.source, lead: route.query.lead, spam: route.query.spam, tag: route.query.tag };
  const { data, error, reload } = useLoad(() => get<{ forms: (FormRow & { retrying: RetryingJob[] })[]; hasMore: boolean; total: number; totalCapped: boolean; pageSize: number }>(withQuery(`/domains/${domain}/reports/forms`, { ...filters, page })), [route.domain, JSON.stringify(filters), page]);
  const set = (query: Record<string, string>) => navigate({ ...route, query: { ...route.query, page: '', ...query } });
  const who = useWho();
  const tags = useAccountTags();
  return (
    <section>
      <ReportHeading title="Forms" route={route} />
      <div class="toolbar">
        <QuerySelect label="Source" name="source" route={route} set={set} choices={sourceChoices(SOURCES.filter((s) => s !== 'offline'))} />
        <QuerySelect label="Leads" name="lead" route={route} set={set} choices={LEAD_CHOICES} />
        <QuerySelect label="Spam" name="spam" route={route} set={set} choices={[['', 'Spam or not'], ['false', 'No spam'], ['true', 'Spam only']]} />
        {(tags.data?.tags.length ?? 0) > 0 && <QuerySelect label="Tag" name="tag" route={route} set={set} choices={[['', 'Any tag'], ...tags.data!.tags.map((t): [string, string] => [t.name, t.name])]} />}
        <span class="spacer" />
        {may.readReports(who) && (
          <a class="button" href={withQuery(`/manage/api/domains/${domain}/reports/forms.csv`, filters)} download>
            Download CSV
          </a>
        )}
      </div>
      {error && <Failure message={error} />}
      {data && <p class="muted" role="status">{data.totalCapped ? `More than ${count(data.total)} form submissions` : `${count(data.total)} form submission${data.total === 1 ? '' : 's'}`} in this range</p>}
      {data && !data.forms.length && <p class="muted">No form submission in this range. Form tracking is turned on in Settings, Forms.</p>}
      {data && data.forms.length > 0 && (
        <div class="card flush">
          <table class="forms-log">
            <thead><tr><th>When</th><th>Source</th><th>Keyword</th><th>Fields</th><th>Page</th><th>Lead</th><th></th></tr></thead>
            <tbody>
              {data.forms.map((f) => (
                <tr data-form={f.formId}>
                  <td class="nowrap">
                    {when(f.submittedAt as unknown as string, clock)}
                    <RetryingLines jobs={f.retrying} clock={clock} />
                  </td>
                  <td>
                    {f.source ?? UNATTRIBUTED}
                    {f.tags.length > 0 && (
                      <div>
                        <TagChips names={f.tags} tags={tags.data?.tags ?? []} />
                      </div>
                    )}
                  </td>
                  <td>{f.keyword ?? ''}</td>
                  <td>
                    <dl class="fields">
                      {Object.entries(f.fields).map(([name, value]) => (
                        <>
                          <dt>{name}</dt>
                          <dd>{value}</dd>
                        </>
                      ))}
                    </dl>
                  </td>
                  <td class="url">{new URL(f.pageUrl).pathname}</td>
                  <td>
                    <VerdictChoice path={`/domains/${domain}/forms/${f.formId}`} label={`Verdict on form ${f.formId}`} verdict={f.verdict} lead={f.lead} undecided={f.spam && f.spam !== 'verdict' ? SPAM_WORDS[f.spam]! : 'lead (signals)'} changed={reload} />
                  </td>
                  <td>{f.personId !== null && <a href={`#/${domain}/person?id=${f.personId}`}>person</a>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && <Pager page={page} hasMore={data.hasMore} go={(to) => navigate({ ...route, query: { ...route.query, page: String(to) } })} />}
    </section>
  );
}
