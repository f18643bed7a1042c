/**
 * Base of every error class in the kit: a stable `name`, and a `code` to branch on without
 * `instanceof`, which fails across realms and across two copies of a package.
 */
export class CodedError<Code extends string = string> extends Error {
  override readonly name: string = 'CodedError';
  readonly code: Code;

  constructor(code: Code, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** True when `error` carries `code`, whichever realm or copy of a package threw it. */
export const hasErrorCode = <T>(error: unknown, code: string): error is T =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;

/** True when `error` carries one of the codes of a package's code table. */
export const hasOneOfCodes = (error: unknown, codes: Readonly<Record<string, string>>): boolean =>
  Object.values(codes).some((code) => hasErrorCode(error, code));
