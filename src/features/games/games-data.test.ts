// An invitation's card (it carries the chosen theme) reaches the server, and so the other player, before its
// session: whoever sees the session can read the theme. Written on a real @powersync/node replica.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PowerSyncDatabase } from '@powersync/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppSchema } from '../../data/schema.ts';

// The replica module opens the browser's database; this test brings its own.
vi.mock('../../data/replica.tsx', () => ({ useQuery: () => ({ data: [] }) }));
const { inviteToGame } = await import('./games-data.ts');

const ME = '00000000-0000-4000-8000-00000000000a';
const OTHER = '00000000-0000-4000-8000-00000000000b';
const CONVERSATION = '00000000-0000-4000-8000-0000000000c0';

describe('inviteToGame', () => {
  let dir: string;
  let db: PowerSyncDatabase;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-games-data-'));
    db = new PowerSyncDatabase({
      schema: AppSchema,
      database: { dbFilename: 'replica.db', dbLocation: dir },
    });
    await db.init();
    await db.execute('insert into conversations (id, participant1_id, participant2_id) values (?, ?, ?)', [
      CONVERSATION,
      ME,
      OTHER,
    ]);
    await db.execute('insert into message_drafts (id, content) values (?, ?)', [
      CONVERSATION,
      'half a thought',
    ]);
    // The conversation's own upload is not what this test reads.
    await (await db.getNextCrudTransaction())?.complete();
    // Opening the SDK's database (worker threads, SQLite, its extension) takes seconds on a loaded 2-core
    // machine, more than a unit hook's default limit.
  }, 60_000);

  afterAll(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('uploads the card with the theme before the session, in one transaction, and keeps the draft', async () => {
    const id = await inviteToGame(db as never, {
      me: ME,
      other: OTHER,
      gameType: 'story-builder',
      gameName: 'Story Builder',
      otherName: 'Dee',
      themeId: 'the-midnight-bookshop',
    });
    const tx = await db.getNextCrudTransaction();
    expect(tx?.crud.map((c) => `${c.op} ${c.table}`)).toEqual(['PUT messages', 'PUT game_sessions']);
    const [card, session] = tx!.crud;
    expect(card?.opData).toMatchObject({
      conversation_id: CONVERSATION,
      type: 'game_invite',
      recipient_id: OTHER,
    });
    expect(JSON.parse(String(card?.opData?.['metadata']))).toEqual({
      sessionId: id,
      gameType: 'story-builder',
      gameName: 'Story Builder',
      themeId: 'the-midnight-bookshop',
    });
    expect(session?.id).toBe(id);
    expect(session?.opData).toMatchObject({ player1_id: ME, player2_id: OTHER, status: 'pending' });
    expect(await db.getAll('select content from message_drafts where id = ?', [CONVERSATION])).toEqual([
      { content: 'half a thought' },
    ]);
  });
});
