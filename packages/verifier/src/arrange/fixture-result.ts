/** Values a provider state hands to Pact for injection (`${id}`, `${uuid}`). */
export type StateValues = Readonly<Record<string, string | number>>;

/** The outcome of arranging one fixture. */
export type FixtureResult =
  | { readonly ok: true; readonly values: StateValues; readonly ms: number; readonly note?: string }
  | {
      readonly ok: false;
      /** `failed`: arranging broke (a finding about the target); `not-verifiable`: a precondition does not hold here. */
      readonly verdict: 'failed' | 'not-verifiable';
      readonly reason: string;
      readonly ms: number;
    };
