import { type Dispatcher, errors } from 'undici';

/**
 * The whole body of an answer, within `timeoutMs` of its headers. undici's `bodyTimeout` bounds
 * only the pause between two chunks, so a target trickling a byte a second would hold a request
 * for ever; past the bound the body fails as undici's own body timeout does.
 */
export async function readBody(body: Dispatcher.ResponseData['body'], timeoutMs: number): Promise<Buffer> {
  const timer = setTimeout(() => body.destroy(new errors.BodyTimeoutError()), timeoutMs);
  try {
    return Buffer.from(await body.arrayBuffer());
  } finally {
    clearTimeout(timer);
  }
}
