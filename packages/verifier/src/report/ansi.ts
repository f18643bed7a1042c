// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with the ESC character.
const ANSI_CODES = /\u001b\[[0-9;]*m/g;

/** Text without ANSI colour codes (Pact colours its output). */
export const stripAnsi = (text: string) => text.replace(ANSI_CODES, '');
