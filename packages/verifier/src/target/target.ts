import type { SampleApi } from '@print-contracts/sample-api';
import type { TargetCredentials, TargetMode, TargetOptions } from '../options/verify-options.js';

/** Which credential set of the target a request or an order belongs to. */
export type CredentialRole = 'main' | 'other';

/** What the run verifies against: the sample API in-process, or a `--base-url`. */
export interface Target {
  readonly kind: 'embedded' | 'url';
  /** Ends in `/api`. */
  readonly baseUrl: string;
  readonly mode: TargetMode;
  /** Origin of the sample API's control surface, when the target has one. */
  readonly controlOrigin: string | undefined;
  readonly credentials: TargetCredentials;
}

/** Every secret the run knows of the target, for redaction. */
export function targetSecrets(target: Target): string[] {
  return [target.credentials.main.secret, target.credentials.other?.secret ?? ''].filter(Boolean);
}

/** A `--base-url` target as given, else the sample API in-process (control surface on), which the caller closes. */
export async function startTarget(
  options: TargetOptions,
): Promise<{ target: Target; sampleApi?: SampleApi }> {
  if (options.kind === 'url') {
    const { baseUrl, mode, control, credentials } = options;
    const controlOrigin = control ? new URL(baseUrl).origin : undefined;
    return { target: { kind: 'url', baseUrl, mode, controlOrigin, credentials } };
  }
  // Loaded only here: a run against a URL target never pays for the simulator's modules.
  const { startSampleApi } = await import('@print-contracts/sample-api');
  const sampleApi = await startSampleApi({ processingDelayMs: options.processingDelayMs, control: true });
  const [main, other] = sampleApi.credentials;
  if (!main) throw new TypeError('The sample API started without credentials');
  return {
    sampleApi,
    target: {
      kind: 'embedded',
      baseUrl: sampleApi.url,
      mode: 'sample',
      controlOrigin: sampleApi.origin,
      credentials: { main, other },
    },
  };
}
