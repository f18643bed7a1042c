/**
 * Credentials the suite runs with on every run (the vitest config puts them in its
 * environment). Distinctive, so finding one in a pact this run wrote can only be a leak.
 */
export const RUN_SECRETS = {
  PRINT_API_USER_ID: 'scan-user-Lp4q8v2n',
  PRINT_API_SECRET: 'scan-Zq7-secret-4d1f9b2e8c',
} as const;
