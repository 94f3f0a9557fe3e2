// Serves the built PWA from dist/: hashed assets cached for a year, everything else revalidated,
// and unknown non-API paths answered with index.html so client routes work on reload.
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const API_PREFIXES = [
  '/auth/',
  '/rest/',
  '/realtime/',
  '/storage/',
  '/functions/',
  '/sync/',
  '/_outbox',
  '/health',
];

export async function registerAppServing(app: FastifyInstance, distDir: string): Promise<void> {
  const indexPath = path.join(distDir, 'index.html');
  const landingPath = path.join(distDir, 'landing.html');
  if (!fs.existsSync(indexPath)) {
    app.log.warn(`no built app in ${distDir}: run "npm run build" (npm start does it for you)`);
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    // The build writes .br and .gz copies of scripts, styles and pages (vite.config.ts): sent when accepted.
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, filePath) {
      const rel = path.relative(distDir, filePath);
      const immutable = rel.startsWith('assets' + path.sep);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // Serve every file below dist explicitly, then fall back to the app shell for client routes.
  app.setNotFoundHandler(async (req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    // /auth/callback is a client route of the PWA (spec §2), not part of the /auth/v1 API.
    if (url !== '/auth/callback' && API_PREFIXES.some((p) => url.startsWith(p))) {
      return reply.code(404).send({ code: 'not_found', message: 'Not found' });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply.code(404).send({ message: 'Not found' });
    let decoded: string;
    try {
      decoded = decodeURIComponent(url);
    } catch {
      return reply.code(400).send({ message: 'Malformed URL' });
    }
    const candidate = path.normalize(path.join(distDir, decoded));
    if (
      candidate.startsWith(distDir + path.sep) &&
      fs.existsSync(candidate) &&
      fs.statSync(candidate).isFile()
    ) {
      return reply.sendFile(path.relative(distDir, candidate));
    }
    if (path.extname(url) && !url.endsWith('.html')) return reply.code(404).send({ message: 'Not found' });
    if (!fs.existsSync(indexPath))
      return reply.code(503).type('text/plain').send('The app has not been built yet.');
    // / gets the landing pre-rendered at build time, so a first visit paints before any script (decision 0023).
    if (url === '/' && fs.existsSync(landingPath))
      return reply.header('cache-control', 'no-cache').sendFile('landing.html');
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
