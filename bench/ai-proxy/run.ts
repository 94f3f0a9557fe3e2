// Benchmark: Lovy's time to first token through the lovy-chat function (session check, reads as the member,
// the SQL claim, prompt building, the openai package, server-sent events) against the same local
// OpenAI-compatible server called directly with the openai package, side by side in the same run. The
// last line gives the p95 difference (goal <= +50 ms). PGlite always; BENCH_ROUNDS sets the number of
// questions per side (default 40).
//
// The bench asks far more often than a member may (6 answers a minute): between questions it moves the
// usage log back in time, as the server test does, so the limits never answer instead of the model.
import OpenAI from 'openai';
import { createSignedInMember } from '../../tests/server/auth-support.ts';
import { startOpenAIPeer } from '../../tests/support/openai-peer.ts';
import { startTestServer } from '../../tests/support/test-server.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 40);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function main() {
  const peer = await startOpenAIPeer();
  const t = await startTestServer('pglite', {
    OPENAI_BASE_URL: peer.url,
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_MODEL: 'bench-model',
  });
  try {
    const member = await createSignedInMember(t, 'bench-lovy');
    await t.db.query(`insert into public.ai_agents (user_id, name, is_active) values ($1, 'Bench', true)`, [
      member.id,
    ]);
    await t.db.query(
      `insert into public.subscriptions (user_id, plan_id, billing_cycle, status, current_period_end, stripe_customer_id)
       values ($1, 'vip', 'monthly', 'active', now() + interval '30 days', 'cus_bench')`,
      [member.id],
    );
    const direct = new OpenAI({ apiKey: 'sk-bench', baseURL: peer.url, maxRetries: 0 });

    /** Milliseconds to the first content chunk, the openai package against the server directly. */
    const directFirstToken = async () => {
      const started = performance.now();
      const stream = await direct.chat.completions.create({
        model: 'bench-model',
        messages: [{ role: 'user', content: 'How can I improve my bio?' }],
        temperature: 0.7,
        max_tokens: 300,
        stream: true,
      });
      let first = NaN;
      for await (const chunk of stream)
        if (Number.isNaN(first) && chunk.choices[0]?.delta?.content) first = performance.now() - started;
      return first;
    };

    /** Milliseconds to the first `delta` event through lovy-chat, for a new question each time. */
    const proxiedFirstToken = async () => {
      await t.db.query(`update public.ai_usage set created_at = created_at - interval '2 minutes'`);
      const { rows } = await t.db.query<{ id: string }>(
        `insert into public.lovy_messages (user_id, role, content) values ($1, 'user', 'How can I improve my bio?') returning id`,
        [member.id],
      );
      const started = performance.now();
      const res = await fetch(`${t.url}/functions/v1/lovy-chat`, {
        method: 'POST',
        headers: {
          apikey: t.anonKey,
          authorization: `Bearer ${member.token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ question_id: rows[0]!.id }),
      });
      if (res.status !== 200 || !res.body)
        throw new Error(`lovy-chat answered ${res.status}: ${await res.text()}`);
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let text = '';
      let first = NaN;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        if (Number.isNaN(first) && text.includes('event: delta')) first = performance.now() - started;
      }
      if (!text.includes('"source":"model"')) throw new Error(`no model answer: ${text.slice(-300)}`);
      return first;
    };

    // Warm up both paths (JIT, the function's module, statement caches).
    for (let i = 0; i < 3; i++) {
      await directFirstToken();
      await proxiedFirstToken();
    }
    const directMs: number[] = [];
    const proxiedMs: number[] = [];
    // Alternating, so a change in machine load hits both sides alike.
    for (let i = 0; i < ROUNDS; i++) {
      directMs.push(await directFirstToken());
      proxiedMs.push(await proxiedFirstToken());
    }
    const p50 = [percentile(directMs, 50), percentile(proxiedMs, 50)];
    const p95 = [percentile(directMs, 95), percentile(proxiedMs, 95)];
    console.log(`rounds: ${ROUNDS} questions per side, the same local OpenAI-compatible server`);
    console.log(
      `time to first token, direct:         p50 ${p50[0]!.toFixed(1)} ms, p95 ${p95[0]!.toFixed(1)} ms`,
    );
    console.log(
      `time to first token, via lovy-chat:  p50 ${p50[1]!.toFixed(1)} ms, p95 ${p95[1]!.toFixed(1)} ms`,
    );
    const added = p95[1]! - p95[0]!;
    console.log(`added at p95: ${added.toFixed(1)} ms (goal <= +50 ms) ${added <= 50 ? 'PASS' : 'FAIL'}`);
  } finally {
    await t.close();
    await peer.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
