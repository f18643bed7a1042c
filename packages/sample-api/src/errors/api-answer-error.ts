import type { FieldIssue } from '@print-contracts/client';
import { SAMPLE_API_ERROR_CODES, SampleApiError } from './sample-api-error.js';

/** How many bad fields a 400's message names; `errors` holds them all. */
const SHOWN = 3;

/**
 * A request the simulator refuses. Handlers throw it; the server turns it into a JSON answer
 * `{ message, errors? }` with `status` and `headers`. Never holds request secrets.
 */
export class ApiAnswerError extends SampleApiError {
  override readonly name = 'ApiAnswerError';
  readonly status: number;
  readonly errors: readonly FieldIssue[] | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(
    status: number,
    message: string,
    details: { errors?: readonly FieldIssue[]; headers?: Readonly<Record<string, string>> } = {},
  ) {
    super(SAMPLE_API_ERROR_CODES.answer, message);
    this.status = status;
    this.errors = details.errors;
    this.headers = details.headers;
  }

  /** A 400 `lead: orderLines[0].files must hold exactly one file; …hint`, the first few fields named. */
  static invalid(lead: string, errors: readonly FieldIssue[], hint = ''): ApiAnswerError {
    const shown = errors.slice(0, SHOWN).map((issue) => `${issue.path || 'body'} ${issue.message}`);
    const more = errors.length > SHOWN ? ` (and ${errors.length - SHOWN} more, see errors)` : '';
    return new ApiAnswerError(400, `${lead}: ${shown.join('; ')}${more}${hint}`, { errors });
  }

  /** The JSON body of the answer. */
  toBody(): { message: string; errors?: readonly FieldIssue[] } {
    return this.errors && this.errors.length > 0
      ? { message: this.message, errors: this.errors }
      : { message: this.message };
  }
}
