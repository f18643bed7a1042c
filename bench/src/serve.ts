/**
 * Child process of the sample API benchmark: serves either the sample API or a bare node:http
 * server that sends fixed bytes, and prints one JSON line with its URL. Runs apart from the
 * load generator so the two never share an event loop.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSampleApi } from '@print-contracts/sample-api';

const [kind, bodyFile] = process.argv.slice(2);

if (kind === 'sample-api') {
  const api = await startSampleApi({ processingDelayMs: 0 });
  console.log(JSON.stringify({ url: api.url }));
  process.on('SIGTERM', () => void api.close().then(() => process.exit(0)));
} else if (kind === 'bare' && bodyFile) {
  const { readFile } = await import('node:fs/promises');
  const bodies = JSON.parse(await readFile(bodyFile, 'utf8')) as Record<string, string>;
  const buffers = new Map(Object.entries(bodies).map(([path, body]) => [path, Buffer.from(body)]));
  const server = createServer((req, res) => {
    const body = buffers.get(req.url ?? '') ?? Buffer.from('{"message":"Not found"}');
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api` }));
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  console.error('usage: serve.js sample-api | bare <bodies.json>');
  process.exit(2);
}
