import type { SampleApi } from '@print-contracts/sample-api';
import type { TargetOptions } from '../options/verify-options.js';
import type { Target } from './target.js';

/** A resolved target, and the embedded sample API behind it when there is one. */
export interface StartedTarget {
  readonly target: Target;
  readonly sampleApi: SampleApi | undefined;
}

/** A `--base-url` target as given, else the sample API in-process, control surface on. */
export async function startTarget(options: TargetOptions): Promise<StartedTarget> {
  if (options.kind === 'url') {
    const { baseUrl, mode, control, credentials } = options;
    const controlOrigin = control ? new URL(baseUrl).origin : undefined;
    return { sampleApi: undefined, target: { kind: 'url', baseUrl, mode, controlOrigin, credentials } };
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
