/** The few styles the console uses; plain ANSI codes (SGR), no dependency. */
const CODES = {
  green: [32, 39],
  red: [31, 39],
  yellow: [33, 39],
  dim: [2, 22],
  bold: [1, 22],
} as const;

export type Style = keyof typeof CODES;

/**
 * Colour on a terminal only: never when the stream is piped or a file, nor when `NO_COLOR` is set
 * to anything but the empty string (https://no-color.org).
 */
export function wantsColour(
  stream: { readonly isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
) {
  return stream.isTTY === true && !env.NO_COLOR;
}

/** `text` in `style` when `colour`, else as it is. */
export const paint = (colour: boolean, style: Style | undefined, text: string) =>
  colour && style && text ? `\u001b[${CODES[style][0]}m${text}\u001b[${CODES[style][1]}m` : text;
