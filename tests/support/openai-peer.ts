// A local peer that speaks the OpenAI chat-completions wire protocol (what Ollama, llama.cpp, vLLM and LM Studio
// serve too), for the real `openai` package to talk to in tests: streamed answers as server-sent events in
// OpenAI's chunk shape, OpenAI-shaped errors, and modes for what can go wrong (a refused key, a rate limit, a
// server error, a slow first token, a stream cut off, an empty answer). Every request body is recorded. It also
// serves the speech endpoint (/v1/audio/speech: a small MP3-labelled body), recorded in speechRequests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type PeerMode = 'ok' | 'unauthorized' | 'rate-limited' | 'server-error' | 'slow' | 'dropped' | 'empty';

export interface ChatRequest {
  authorization: string | undefined;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    temperature?: number;
    max_tokens?: number;
    stream?: boolean;
  };
}

export interface SpeechRequest {
  authorization: string | undefined;
  body: { model: string; input: string; voice: string; speed?: number; response_format?: string };
}

/** What the speech endpoint answers: not real MP3 (no decoder reads it in tests), but bytes to pass through. */
export const PEER_SPEECH_BYTES = Buffer.from('ID3-test-speech-audio');

export interface OpenAIPeer {
  /** The base URL to give the client (ends in /v1). */
  url: string;
  requests: ChatRequest[];
  speechRequests: SpeechRequest[];
  mode: PeerMode;
  /** What 'ok' and 'slow' answer, in pieces. */
  reply: string[];
  close(): Promise<void>;
}

const chunk = (content: string | undefined, finish: string | null = null, usage?: object) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'test-model',
    choices: usage
      ? []
      : [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  })}\n\n`;

function sendError(res: http.ServerResponse, status: number, type: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type, code: type } }));
}

export async function startOpenAIPeer(): Promise<OpenAIPeer> {
  const peer: OpenAIPeer = {
    url: '',
    requests: [],
    speechRequests: [],
    mode: 'ok',
    reply: ['Hello', ' there', ', lead with', ' what you love.'],
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/audio/speech') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SpeechRequest['body'];
        peer.speechRequests.push({ authorization: req.headers.authorization, body });
        if (peer.mode === 'server-error')
          return sendError(res, 500, 'server_error', 'The server had an error');
        res.writeHead(200, { 'content-type': 'audio/mpeg' });
        res.end(PEER_SPEECH_BYTES);
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
        return sendError(res, 404, 'not_found', 'Not found');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest['body'];
      peer.requests.push({ authorization: req.headers.authorization, body });
      if (peer.mode === 'unauthorized')
        return sendError(res, 401, 'invalid_api_key', 'Incorrect API key provided');
      if (peer.mode === 'rate-limited')
        return sendError(res, 429, 'rate_limit_exceeded', 'Rate limit reached');
      if (peer.mode === 'server-error') return sendError(res, 500, 'server_error', 'The server had an error');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(chunk(undefined));
      if (peer.mode === 'empty') {
        res.write(chunk(undefined, 'stop'));
        res.end('data: [DONE]\n\n');
        return;
      }
      if (peer.mode === 'dropped') {
        res.write(chunk(peer.reply[0]));
        // Cut off mid-answer, as a lost connection does.
        setTimeout(() => res.socket?.destroy(), 50);
        return;
      }
      void (async () => {
        if (peer.mode === 'slow') await new Promise((r) => setTimeout(r, 400));
        for (const piece of peer.reply) {
          res.write(chunk(piece));
          await new Promise((r) => setTimeout(r, 5));
        }
        res.write(chunk(undefined, 'stop'));
        res.write(chunk(undefined, null, { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 }));
        res.end('data: [DONE]\n\n');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  peer.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return peer;
}
