/** What a change means for a client already using the API. */
export type ChangeSeverity = 'breaking' | 'additive' | 'compatible';

/** Which side of an exchange a change sits on: what the client sends, or what it reads. */
export type Direction = 'request' | 'response';

/** A rule's verdict when the change is in what the client sends, and when it is in what it reads. */
export interface ChangeRule {
  readonly request: ChangeSeverity;
  readonly response: ChangeSeverity;
}

const both = (severity: ChangeSeverity): ChangeRule => ({ request: severity, response: severity });
/** The schema accepts less: a client sending what it sent before can be refused. */
const narrower: ChangeRule = { request: 'breaking', response: 'compatible' };
/** The schema accepts more: an answer can hold what the client never had to read. */
const wider: ChangeRule = { request: 'compatible', response: 'breaking' };
/** Something new the client may send; for a reader, an answer that can hold more. */
const newChoice: ChangeRule = { request: 'additive', response: 'breaking' };

/**
 * Every kind of difference `diffDocuments` reports, and its verdict for a client, by side. The
 * one principle: a request that accepts less breaks the client that sends it, an answer that
 * may hold more breaks the client that reads it, and the reverse of each is harmless. The
 * exceptions are named: statuses (a documented answer that disappears changes the vendor's
 * documented behaviour), fields the reader ignores, and what no direction can excuse.
 */
export const CHANGE_RULES = {
  // Document and operation.
  'document-level-changed': both('breaking'),
  'operation-removed': both('breaking'),
  'operation-added': both('additive'),
  'security-changed': both('breaking'),
  // Parameters (always sent by the client).
  'parameter-removed': both('breaking'),
  'parameter-now-required': both('breaking'),
  'parameter-now-optional': both('compatible'),
  'parameter-added-required': both('breaking'),
  'parameter-added-optional': both('additive'),
  // Request body.
  'body-removed': both('breaking'),
  'body-added-required': both('breaking'),
  'body-added-optional': both('additive'),
  // Media types: a client asks for one by its headers, so a new one changes nothing it gets.
  'media-type-removed': both('breaking'),
  'media-type-added': both('additive'),
  // Statuses.
  'status-removed': both('breaking'),
  'status-added-covered': both('additive'),
  'status-added-uncovered': both('breaking'),
  'status-documentation-changed': both('compatible'),
  // Schemas: by direction.
  'enum-value-removed': narrower,
  'enum-value-added': newChoice,
  'alternative-removed': narrower,
  'alternative-added': newChoice,
  'type-narrowed': narrower,
  'type-widened': wider,
  'type-changed': both('breaking'),
  'null-refused': narrower,
  'null-allowed': wider,
  'any-value-refused': narrower,
  'any-value-allowed': wider,
  'now-forbidden': narrower,
  'no-longer-forbidden': wider,
  'bound-tightened': narrower,
  'bound-loosened': wider,
  'constraint-added': narrower,
  'constraint-removed': wider,
  'constraint-changed': both('breaking'),
  // Fields: a removed one is lost to a reader and refused (or dropped) from a sender.
  'field-removed': both('breaking'),
  'field-now-required': narrower,
  'field-now-optional': wider,
  'field-added-optional': both('additive'),
  'field-added-required': { request: 'breaking', response: 'additive' },
  // A reader ignores fields it does not read (the client's answers are open objects).
  'other-fields-refused': narrower,
  'other-fields-allowed': { request: 'compatible', response: 'compatible' },
  /** A check the client makes in code (JSON Schema cannot hold it) changed: its direction is unknown. */
  'code-check-changed': both('breaking'),
  'description-changed': both('compatible'),
} as const satisfies Record<string, ChangeRule>;

/** The name of one rule of `CHANGE_RULES`. */
export type ChangeRuleName = keyof typeof CHANGE_RULES;

/** The verdict of `rule` for a change on the `direction` side of the exchange. */
export const classify = (rule: ChangeRuleName, direction: Direction): ChangeSeverity =>
  CHANGE_RULES[rule][direction];
