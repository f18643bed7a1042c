/** Values the vitest config and global setup hand to the tests (`inject`). */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Fresh directory of this run's pact files, one subdirectory per test file. */
    pactDir: string;
    /** `vitest run --update` (`pnpm contracts`): write the generated contracts instead of comparing. */
    updateContracts: boolean;
  }
}

export {};
