// A loopback TCP relay the fault tests put between the server and PostgreSQL, to take the database
// "down" (cut every connection, refuse new ones) and bring it back without touching the real server.
import net from 'node:net';

export interface TcpProxy {
  /** The port the relay listens on (stays the same across down/up). */
  port: number;
  /** Cuts every open connection and refuses new ones, as when the database host goes away. */
  goDown(): Promise<void>;
  /** Accepts connections again on the same port. */
  comeUp(): Promise<void>;
  /** How many client connections are open through the relay. */
  getOpenConnections(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        pairs.add(client);
        for (const sock of [client, upstream]) sock.on('error', () => {});
        client.on('close', () => {
          pairs.delete(client);
          upstream.destroy();
        });
        upstream.on('close', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });

  const stopListening = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = undefined;
      if (!s) return resolve();
      s.close(() => resolve());
      // Cut after close() so no new connection slips in between; close() resolves once they are gone.
      for (const c of pairs) c.destroy();
    });

  await listen();
  return {
    get port() {
      return port;
    },
    goDown: stopListening,
    async comeUp() {
      if (!server) await listen();
    },
    getOpenConnections: () => pairs.size,
    close: stopListening,
  };
}
