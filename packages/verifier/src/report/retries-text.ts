import type { RetrySummary } from '../target/transport.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * One line on what the run waited out: 429 and 503 answers, requests retried after no answer,
 * and the waits added up. Undefined when nothing was retried. Information, never a verdict.
 */
export function retriesText(summary: RetrySummary | undefined): string | undefined {
  if (!summary) return undefined;
  const { answers429, answers503, unanswered, waitedMs } = summary;
  const parts = [
    ...(answers429 > 0 ? [`${answers429} answers 429`] : []),
    ...(answers503 > 0 ? [`${answers503} answers 503`] : []),
    ...(unanswered > 0 ? [`${unanswered} requests without an answer`] : []),
  ];
  if (parts.length === 0) return undefined;
  return `Retries: the target throttled or missed requests (${parts.join(', ')}); the run waited ${seconds(waitedMs)} in all and retried each (not a verdict)`;
}
