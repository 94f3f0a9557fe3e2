// The Wingman's calls to the server (issue 17): asking the member's agent for a reply draft in a conversation
// that waits on them, and undoing an action of the agent. The server decides whether a draft may be written and writes it; it reaches the thread
// through sync like every other row.
import { getSupabase } from '../../data/supabase-client.ts';
import { isOnline } from '../../data/network.ts';

const asked = new Set<string>();

/**
 * Asks once per waiting message (per page load) for a reply draft; online only, failures are quiet (a draft
 * is a help the member can do without, and the next message asks again).
 */
export function requestReplyDraft(conversationId: string, waitingMessageId: string): void {
  if (asked.has(waitingMessageId) || !isOnline()) return;
  asked.add(waitingMessageId);
  void (async () => {
    const sb = await getSupabase();
    const { error } = await sb.functions.invoke('wingman-draft', {
      method: 'POST',
      body: { conversation_id: conversationId },
    });
    // A refusal that may pass (offline meanwhile, the server busy) lets a later opening ask again.
    if (error) asked.delete(waitingMessageId);
  })().catch(() => asked.delete(waitingMessageId));
}

/** Undoes one of the agent's actions (the server checks it is the member's and still undoable). */
export async function undoAgentAction(activityId: string): Promise<{ hint?: string } | null> {
  const { error } = await (await getSupabase()).rpc('undo_agent_action', { activity_id: activityId });
  return error;
}
