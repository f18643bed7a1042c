/** The command the root README tells other teams to run; the tests run it exactly so. */
export const STUB_COMMAND = 'pnpm stub';
