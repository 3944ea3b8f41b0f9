import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A test HTTP server on 127.0.0.1 (random port): its base URL and a stop that drops open connections. */
export async function startLoopback(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string; stop: () => Promise<void> }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { server, url, stop };
}
