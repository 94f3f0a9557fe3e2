// A test-side HTTP proxy with an on/off switch. A browser context that uses it as its proxy reaches the
// network only through it (pages, service worker and shared workers alike), so switching it off is airplane
// mode for the whole context: every open connection is cut, and every new one is refused and counted.
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';

/** One request seen by the proxy: "GET /path" for absolute-form requests, "CONNECT host:port" for tunnels. */
export interface SeenRequest {
  method: string;
  host: string;
  path: string;
}

export interface NetworkSwitch {
  /** The proxy's address, for `browser.newContext({ proxy: { server } })`. */
  readonly server: string;
  /** Requests and tunnels passed on to their target while on. */
  readonly forwarded: readonly SeenRequest[];
  /** Requests and tunnels refused (their connection destroyed unanswered) while off. */
  readonly refused: readonly SeenRequest[];
  /** Requests and tunnels to anything but loopback (Chromium's own services), always refused: tests stay local. */
  readonly external: readonly SeenRequest[];
  isOn(): boolean;
  /** Back on: new connections are passed on again. */
  on(): void;
  /** Off: destroys every open connection (long-lived streams too) and refuses every new one. */
  off(): void;
  /**
   * Holds every new request for `path` (absolute-form HTTP): it waits unanswered, as on a slow network,
   * until `release`. Other requests pass as usual.
   */
  hold(path: string): void;
  /** Passes on the held requests still waiting, and holds no more. */
  release(): void;
  /** How many requests are held now. */
  held(): number;
  close(): Promise<void>;
}

// Headers that belong to one hop (RFC 9110 7.6.1), plus the proxy's own.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEndHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = new Set(
    String(headers['connection'] ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase()),
  );
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) out[name] = value;
  return out;
}

/** "host:port" of a CONNECT request, IPv6 literals in brackets. */
function splitAuthority(authority: string): { host: string; port: number } {
  const url = new URL(`http://${authority}`);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 443) };
}

function describe(req: http.IncomingMessage): SeenRequest {
  const method = req.method ?? 'GET';
  if (method === 'CONNECT') return { method, host: req.url ?? '', path: '' };
  try {
    const url = new URL(req.url ?? '');
    return { method, host: url.host, path: url.pathname };
  } catch {
    return { method, host: String(req.headers.host ?? ''), path: req.url ?? '' };
  }
}

export async function startNetworkSwitch(): Promise<NetworkSwitch> {
  let isOn = true;
  const forwarded: SeenRequest[] = [];
  const refused: SeenRequest[] = [];
  const external: SeenRequest[] = [];
  const sockets = new Set<Duplex>();
  const heldPaths = new Set<string>();
  let waiting: { req: http.IncomingMessage; pass: () => void }[] = [];
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A destroyed peer is expected here (that is the switch); its error must not crash the test runner.
    socket.on('error', () => undefined);
  };
  // No pooling towards the target: every forwarded request has its own socket, which `off` can destroy.
  const agent = new http.Agent({ keepAlive: false });
  const server = http.createServer();
  server.on('connection', track);
  server.on('clientError', (_error, socket) => socket.destroy());

  /** While off: counts the attempt and destroys its connection without an answer. */
  const refuse = (req: http.IncomingMessage, socket: Duplex): boolean => {
    const seen = describe(req);
    const local = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?$/.test(seen.host);
    if (isOn && local) return false;
    (local ? refused : external).push(seen);
    socket.destroy();
    return true;
  };

  server.on('request', (req, res) => {
    if (refuse(req, req.socket)) return;
    if (heldPaths.has(describe(req).path)) {
      // Its body waits in the socket's buffer (the stream is paused until it is piped on).
      req.pause();
      waiting.push({ req, pass: () => forward(req, res) });
      return;
    }
    forward(req, res);
  });

  function forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute-form requests only');
      return;
    }
    if (target.protocol !== 'http:') {
      res.writeHead(400).end('http only (https goes through CONNECT)');
      return;
    }
    forwarded.push(describe(req));
    const upstream = http.request({
      agent,
      host: target.hostname.replace(/^\[|\]$/g, ''),
      port: Number(target.port || 80),
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: endToEndHeaders(req.headers),
    });
    upstream.on('socket', track);
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEndHeaders(answer.headers));
      // Streamed as it comes (the sync stream is one long response).
      answer.pipe(res);
      answer.on('error', () => req.socket.destroy());
    });
    upstream.on('error', () => req.socket.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  }

  /** A raw two-way pipe between the browser's socket and the target's, torn down together. */
  const tunnel = (client: Duplex, host: string, port: number, first: (upstream: net.Socket) => void) => {
    const upstream = net.connect(port, host, () => {
      first(upstream);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.once('close', () => client.destroy());
    client.once('close', () => upstream.destroy());
  };

  server.on('connect', (req, client: Duplex, head: Buffer) => {
    if (refuse(req, client)) return;
    forwarded.push(describe(req));
    const { host, port } = splitAuthority(req.url ?? '');
    tunnel(client, host, port, (upstream) => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
    });
  });

  // An absolute-form request asking for an upgrade (e.g. ws:// without CONNECT): forwarded head first, then raw.
  server.on('upgrade', (req, client: Duplex, head: Buffer) => {
    if (refuse(req, client)) return;
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      client.destroy();
      return;
    }
    forwarded.push(describe(req));
    let lines = `${req.method} ${target.pathname}${target.search} HTTP/${req.httpVersion}\r\n`;
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      if (!/^proxy-/i.test(name)) lines += `${name}: ${req.rawHeaders[i + 1]!}\r\n`;
    }
    tunnel(client, target.hostname.replace(/^\[|\]$/g, ''), Number(target.port || 80), (upstream) => {
      upstream.write(`${lines}\r\n`);
      if (head.length > 0) upstream.write(head);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;

  const cutAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    server: `http://127.0.0.1:${port}`,
    forwarded,
    refused,
    external,
    isOn: () => isOn,
    on: () => {
      isOn = true;
    },
    off: () => {
      isOn = false;
      cutAll();
    },
    hold: (path) => {
      heldPaths.add(path);
    },
    release: () => {
      heldPaths.clear();
      const released = waiting;
      waiting = [];
      // One the browser gave up on meanwhile (its socket closed) is not sent.
      for (const { req, pass } of released) if (!req.socket.destroyed) pass();
    },
    held: () => waiting.filter(({ req }) => !req.socket.destroyed).length,
    close: async () => {
      isOn = false;
      cutAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
