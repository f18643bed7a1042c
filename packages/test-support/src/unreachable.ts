import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A loopback URL where nothing listens: a port that was free a moment ago. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/**
 * A broker that accepts connections and reads requests, and never answers: the case where a
 * client without a bound hangs. It records each request and notices when its client goes.
 */
export async function startSilentBroker() {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let closedByClient = 0;
  const server = createServer((req) => {
    requests.push(`${req.method} ${req.url}`);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      if (sockets.delete(socket)) closedByClient++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    /** Connections the client closed (the Pact CLI's, once it was stopped). */
    closedByClient: () => closedByClient,
    /** Connections still open. */
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        sockets.clear();
        server.close(() => resolve());
      }),
  };
}
