/** What names one interaction × version in a report, run after run. */
export interface KeyedFields {
  readonly version: string;
  readonly consumer: string;
  readonly description: string;
  readonly states: string;
}

/**
 * The stable key of an interaction × version: version, consumer, description and provider
 * states, the things a reader names it by. Pact's own `key` is a hash of the whole interaction,
 * so it changes with any matcher; this one changes only when the interaction is another one.
 */
export const interactionKey = ({ version, consumer, description, states }: KeyedFields): string =>
  [version, consumer, description, ...(states ? [`given ${states}`] : [])].join(' | ');
