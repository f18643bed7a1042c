import { fileURLToPath } from 'node:url';

/** The committed `contracts/` folder at the top of the monorepo. */
export const CONTRACTS_DIR = fileURLToPath(new URL('../../../contracts/', import.meta.url));
