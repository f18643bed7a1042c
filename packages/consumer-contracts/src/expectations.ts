/**
 * Where each expectation of a contract comes from, written into the pact as a V4 comment so
 * that whoever reads a pact file (and `contracts/README.md`, generated from them) can tell
 * what the vendor documents from what the kit assumes where the docs are silent.
 */

/** Pages of the vendor's docs (`printdeal/printdeal-api-rst-docs`), as the comments cite them. */
export const DOCS = {
  listOrders: 'docs/Orders/Retrieving_your_orders.rst',
  getOrder: 'docs/Orders/Retrieving_order_information.rst',
  createOrder: 'docs/Orders/Creating_order.rst',
  createQuoteOrder: 'docs/Orders/Creating_quote_order.rst',
  updateOrder: 'docs/Orders/Changing_orders.rst (removed 2020-07-09)',
  cancelOrder: 'docs/Orders/Cancelling_an_order.rst',
  authentication: 'docs/Authentication.rst',
  versioning: 'docs/Versioning.rst (removed 2024-12-03)',
} as const;

export const DOCUMENTED_PREFIX = 'documented: ';
export const ASSUMED_PREFIX = "kit's assumption: ";

/** An expectation the vendor's docs give, with the page that gives it. */
export const documented = (expectation: string, page: string) =>
  `${DOCUMENTED_PREFIX}${expectation} (${page})`;

/** An expectation the docs do not give: the kit pins only what its client needs. */
export const assumed = (expectation: string) => `${ASSUMED_PREFIX}${expectation}`;

/** The comment for a success status the vendor does not document: the class only. */
export const SUCCESS_CLASS = assumed('a success status (2xx); the docs give no status code');
