// What is being retried for a call or form, said while it is retried: each job, since when it
// fails, how many attempts, and the last error in words (reports/retrying-jobs.ts).
import type { RetryingJob } from '../../reports/retrying-jobs.ts';
import { when, type Clock } from './format.ts';

export function RetryingLine({ job, clock }: { job: RetryingJob; clock: Clock }) {
  return (
    <p class="warn-text retrying" data-testid="retrying">
      <strong>{job.job}</strong> retrying since {when(job.since, clock)} ({job.attempts} {job.attempts === 1 ? 'attempt' : 'attempts'}): {job.error}
    </p>
  );
}

export function RetryingLines({ jobs, clock }: { jobs: RetryingJob[]; clock: Clock }) {
  return (
    <>
      {jobs.map((job) => (
        <RetryingLine job={job} clock={clock} />
      ))}
    </>
  );
}
