import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

/**
 * Starts `server` on an ephemeral loopback port: its `http://127.0.0.1:PORT`, and a close
 * that also ends the connections still open.
 */
export async function listen(server: Server) {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}

/** A loopback URL where nothing listens: a port that was free a moment ago. */
export async function closedPortUrl(): Promise<string> {
  const { url, close } = await listen(createServer());
  await close();
  return url;
}

/** True when nothing accepts connections on 127.0.0.1:`port`. */
export async function portClosed(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect'); // rejects on the socket's 'error'
  } catch {
    return true;
  }
  socket.destroy();
  return false;
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
  const { url } = await listen(server);
  return {
    url,
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
