// /messages: the conversation list (last message, unread, online) and the open thread, all from the local replica.
import { useEffect, useLayoutEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  ArrowLeft,
  Ban,
  Flag,
  ImagePlus,
  MessageCircle,
  Phone,
  PhoneMissed,
  Sparkles,
  Video,
} from 'lucide-react';
import { useQuery as useTanstackQuery } from '@tanstack/react-query';
import { useAuth } from '../../session/auth-context.tsx';
import {
  usePendingIds,
  useQuery,
  useReplica,
  useReplicaOpening,
  useSyncConnected,
} from '../../data/replica.tsx';
import { useSnapshotRows } from '../../data/snapshot-rows.ts';
import { signChatMedia, uploadChatPhoto } from './messages-api.ts';
import { clearUnsentText, findUnsentText, keepUnsentText } from '../../data/unsent-text.ts';
import { MemberPhoto, parseList } from '../profile/member-photo.tsx';
import { MemberProfileDialog } from '../profile/member-profile-dialog.tsx';
import { blockMember } from '../reports/report-api.ts';
import { BlockConfirmDialog, ReportDialog } from '../reports/report-dialog.tsx';
import { WingmanThreadHelp } from '../agents/wingman-thread-help.tsx';
import { getAiMessageMarking } from '../../domain/wingman.ts';
import {
  describeCallCard,
  findSupersededCallSteps,
  isCallMessageType,
  readCallMeta,
  type CallMessageType,
} from '../../domain/calls.ts';
import { CallButtons } from '../calls/call-buttons.tsx';
import { GameInviteCard, PlayGameButton } from '../games/game-thread-parts.tsx';
import { OnlineIndicator } from '../../ui/online-indicator.tsx';
import { toast } from '../../ui/toast-store.ts';
import { MoreMenu } from '../../ui/more-menu.tsx';
import { formatDayPhrase, formatListTime, formatTimeLabel } from '../../ui/time-label.ts';
import { useOfflineNotice } from '../../ui/use-offline-notice.ts';
import {
  findClosedReason,
  findImageMeta,
  findSendableText,
  getClosedText,
  isAiWritten,
  isSendKey,
  MESSAGE_MAX_LENGTH,
  type ImageMeta,
} from './message-text.ts';
import {
  getDeviceSetting,
  getDraft,
  markConversationRead,
  NOTIFY_ASKED_KEY,
  saveDraft,
  sendMessage,
  setDeviceSetting,
  useConversations,
  useThreadMessages,
  type ConversationSummary,
  type MessageRow,
} from './messages-data.ts';
import { splitNewMatches } from './new-matches.ts';
import { useTyping } from './use-typing.ts';
import { isOnline } from '../../data/network.ts';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
const IMAGE_MAX_BYTES = 8 * 1024 * 1024;
const DRAFT_SAVE_DELAY_MS = 300;

interface ListProps {
  items: ConversationSummary[];
  selected: string | undefined;
  onSelect: (id: string) => void;
  me: string;
}

function ConversationList({ items, selected, onSelect, me }: ListProps) {
  if (items.length === 0)
    return (
      <p className="p-4 text-sm text-muted">
        No conversations yet. When you match with someone, you can message them here.
      </p>
    );
  const { newMatches, conversations } = splitNewMatches(items);
  return (
    <>
      {newMatches.length > 0 && <NewMatches items={newMatches} selected={selected} onSelect={onSelect} />}
      {conversations.length === 0 ? (
        <p className="p-4 text-sm text-muted">Say hello to a new match: your conversations appear here.</p>
      ) : (
        <Conversations items={conversations} selected={selected} onSelect={onSelect} me={me} />
      )}
    </>
  );
}

/** New matches as a row of faces (it scrolls sideways when there are more than fit), newest first. */
function NewMatches({ items, selected, onSelect }: Omit<ListProps, 'me'>) {
  return (
    <section aria-labelledby="new-matches-heading" className="border-b border-border px-3 pt-3 pb-2">
      <h2 id="new-matches-heading" className="text-sm font-semibold">
        New matches
      </h2>
      <ul aria-label="New matches" className="mt-2 flex gap-3 overflow-x-auto pb-1">
        {items.map((c) => (
          <li key={c.id} className="shrink-0">
            <button
              type="button"
              onClick={() => onSelect(c.id)}
              aria-current={c.id === selected ? 'true' : undefined}
              className="flex w-16 flex-col items-center gap-1 rounded-lg p-1 hover:bg-subtle"
            >
              <MemberPhoto
                path={parseList(c.other_photos)[0]}
                alt=""
                className={`size-14 rounded-full object-cover ring-2 ring-offset-2 ring-offset-card ${
                  c.id === selected ? 'ring-primary' : 'ring-primary/40'
                }`}
              />
              <span className="w-full truncate text-center text-xs font-medium">
                {c.other_name ?? 'Member'}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Conversations({ items, selected, onSelect, me }: ListProps) {
  return (
    <ul aria-label="Conversations" className="divide-y divide-border">
      {items.map((c) => {
        const name = c.other_name ?? 'Member';
        const preview =
          c.last_type === 'image' ? 'Photo' : c.last_content ? c.last_content.slice(0, 60) : 'Say hello!';
        return (
          <li key={c.id}>
            <button
              type="button"
              onClick={() => onSelect(c.id)}
              aria-current={c.id === selected ? 'true' : undefined}
              className={`flex w-full items-center gap-3 p-3 text-left hover:bg-subtle ${c.id === selected ? 'bg-subtle' : ''}`}
            >
              <MemberPhoto
                path={parseList(c.other_photos)[0]}
                alt=""
                className="size-10 rounded-full object-cover"
              />
              <span className="min-w-0 flex-1">
                <span className="flex items-center justify-between gap-2">
                  <span className="truncate font-medium">{name}</span>
                  {c.last_at && (
                    <time dateTime={c.last_at} className="ml-auto shrink-0 text-xs text-muted">
                      {formatListTime(c.last_at)}
                    </time>
                  )}
                  {c.unread > 0 && (
                    <span
                      className="rounded-full bg-primary px-2 text-xs font-semibold text-primary-fg"
                      aria-label={`${c.unread} unread`}
                    >
                      {c.unread}
                    </span>
                  )}
                </span>
                <span className="block truncate text-sm text-muted">
                  {c.last_sender_id === me ? 'You: ' : ''}
                  {c.last_type === 'text' && isAiWritten(c.last_metadata) ? '(AI help) ' : ''}
                  {preview}
                </span>
                <OnlineIndicator userId={c.other_id} />
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** The top of a thread nobody has written in yet: whom the member matched with, and when. */
function MatchIntro({
  name,
  photo,
  matchedAt,
}: {
  name: string;
  photo: string | undefined;
  matchedAt: string;
}) {
  const when = formatDayPhrase(matchedAt);
  return (
    <li className="flex flex-col items-center gap-2 py-6 text-center">
      <MemberPhoto
        path={photo}
        alt=""
        className="size-24 rounded-full object-cover ring-2 ring-primary/40 ring-offset-2 ring-offset-card"
      />
      <p className="font-semibold">
        You matched with {name}
        {when ? ` ${when}` : ''}
      </p>
      <p className="max-w-xs text-sm text-muted">
        Say hello: a question about something in their profile is a good start.
      </p>
    </li>
  );
}

/** The upright pixel size of a photo about to be sent (undefined when the browser cannot tell). */
async function findPhotoSize(file: File): Promise<ImageMeta | undefined> {
  if (typeof createImageBitmap !== 'function') return undefined;
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return undefined;
  }
}

function ChatImage({ path, size }: { path: string; size: ImageMeta | undefined }) {
  const { data } = useTanstackQuery({
    queryKey: ['chat-media', path],
    // Chat media URLs live 10 minutes (the server's limit for members' media): re-signed well before.
    staleTime: 5 * 60 * 1000,
    queryFn: () => signChatMedia(path),
  });
  // The size from the message's metadata reserves the photo's box, so the thread does not jump when it loads.
  const box = size
    ? {
        aspectRatio: `${size.width} / ${size.height}`,
        width: `min(100%, ${Math.round((16 * size.width) / size.height)}rem)`,
      }
    : undefined;
  return data ? (
    <img
      src={data}
      alt="Photo sent in chat"
      className="max-h-64 rounded-lg object-contain"
      style={box}
      width={size?.width}
      height={size?.height}
    />
  ) : (
    <span className="block text-sm" style={box}>
      Loading photo...
    </span>
  );
}

/** The element that scrolls `el`: the nearest scrolling ancestor (the list on a short screen), else the page. */
function findScroller(el: HTMLElement): Element {
  for (let n = el.parentElement; n; n = n.parentElement) {
    const { overflowY } = getComputedStyle(n);
    if ((overflowY === 'auto' || overflowY === 'scroll') && n.scrollHeight > n.clientHeight) return n;
  }
  return document.scrollingElement ?? document.documentElement;
}

function statusLabel(m: MessageRow, pending: boolean): string {
  if (pending) return 'Sending...';
  if (m.status === 'read') return 'Read';
  if (m.status === 'delivered') return 'Delivered';
  return 'Sent';
}

/** A call in the thread (issue 18): one card per call, from its latest step, never the raw step. */
function CallCard({ m, type, me }: { m: MessageRow; type: CallMessageType; me: string }) {
  const meta = readCallMeta(m.metadata);
  const card = describeCallCard(type, meta, me);
  const Icon = card.tone === 'missed' ? PhoneMissed : meta.callType === 'audio' ? Phone : Video;
  return (
    <li className="flex justify-center" data-message-id={m.id} data-call-card={type}>
      <div
        className={`flex items-center gap-2 rounded-full border border-border px-3 py-1.5 text-sm ${
          card.tone === 'missed' ? 'text-red-600 dark:text-red-400' : 'text-fg'
        }`}
      >
        <Icon aria-hidden="true" className="size-4" />
        <span>{card.title}</span>
        <time dateTime={m.created_at ?? undefined} className="text-xs text-muted">
          {formatTimeLabel(m.created_at)}
        </time>
      </div>
    </li>
  );
}

function Bubble({ m, mine, pending }: { m: MessageRow; mine: boolean; pending: boolean }) {
  return (
    <li
      className={`flex ${mine ? 'justify-end' : 'justify-start'}`}
      data-message-id={m.id}
      data-status={pending ? 'pending' : m.status}
    >
      <div
        className={`max-w-[75%] rounded-2xl px-3 py-2 ${mine ? 'bg-primary text-primary-fg' : 'bg-subtle text-fg'}`}
      >
        {m.type === 'image' ? (
          <ChatImage path={m.content} size={findImageMeta(m.metadata)} />
        ) : (
          <p className="break-words whitespace-pre-wrap">{m.content}</p>
        )}
        {isAiWritten(m.metadata) && (
          <p className="mt-1 flex items-center gap-1 text-xs" data-testid="ai-label">
            <Sparkles aria-hidden="true" className="size-3" />
            Written with AI help
          </p>
        )}
        <p className="mt-1 text-right text-xs">
          <time dateTime={m.created_at ?? undefined}>{formatTimeLabel(m.created_at)}</time>
          {mine && <span className="ml-2 message-status">{statusLabel(m, pending)}</span>}
        </p>
      </div>
    </li>
  );
}

function Thread({ c, me, onBack }: { c: ConversationSummary; me: string; onBack: () => void }) {
  const db = useReplica();
  const { messages, hasEarlier, isLoading: threadLoading, loadEarlier } = useThreadMessages(c.id);
  const pending = usePendingIds('messages');
  const { data: profile } = useQuery<{ read_receipts: number }>(
    'select read_receipts from profiles where id = ?',
    [me],
  );
  const shareReceipts = (profile[0]?.read_receipts ?? 1) === 1;
  const { otherTyping, notifyTyping, resetTyping } = useTyping(c.id, me);
  const [text, setText] = useState('');
  const [draftLoaded, setDraftLoaded] = useState(false);
  /** Enter pressed before the draft was back: send as soon as it is. */
  const sendWhenLoaded = useRef(false);
  const [reporting, setReporting] = useState(false);
  const [confirmingBlock, setConfirmingBlock] = useState(false);
  const [viewingProfile, setViewingProfile] = useState(false);
  const [uploading, setUploading] = useState(false);
  const endRef = useRef<HTMLLIElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  // Where the first shown message was on screen when "Load earlier messages" was pressed (to keep it there).
  const keepRef = useRef<{ id: string; top: number }>(undefined);
  const [loadingEarlier, setLoadingEarlier] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  // Text the Wingman put in the box: sent unchanged, it is marked as written with AI help.
  const aiText = useRef<{ text: string; agent: string }>(undefined);
  const name = c.other_name ?? 'Member';
  const supersededCalls = findSupersededCallSteps(messages);
  const closed = findClosedReason({
    matchId: c.match_id,
    matchExists: c.match_exists === 1,
    blockedByMe: c.blocked_by_me === 1,
    otherVisible: c.other_visible === 1,
  });

  // The draft of this conversation comes back after a reload or offline: the newer of this device's
  // written-through copy (kept at every keystroke) and the replica's (saved shortly after typing stops).
  const draftKey = `draft:${c.id}`;
  useEffect(() => {
    let cancelled = false;
    setDraftLoaded(false);
    void getDraft(db, c.id).then((d) => {
      if (cancelled) return;
      const local = findUnsentText(`draft:${c.id}`);
      setText(local && local.at > d.updatedAt ? local.text : d.content);
      setDraftLoaded(true);
    });
    return () => {
      cancelled = true;
    };
  }, [db, c.id]);

  useEffect(() => {
    if (!draftLoaded) return;
    const save = () => void saveDraft(db, c.id, text);
    const t = setTimeout(save, DRAFT_SAVE_DELAY_MS);
    // Leaving or hiding the app saves at once.
    const onHide = () => {
      if (document.visibilityState === 'hidden') save();
    };
    window.addEventListener('pagehide', save);
    document.addEventListener('visibilitychange', onHide);
    return () => {
      clearTimeout(t);
      window.removeEventListener('pagehide', save);
      document.removeEventListener('visibilitychange', onHide);
    };
  }, [db, c.id, text, draftLoaded]);

  // Reading: whenever the thread shows new incoming messages (or earlier ones) while the page is visible;
  // only the messages the thread shows.
  const newestIncoming = messages.filter((m) => m.recipient_id === me).at(-1)?.id;
  const oldestShown = messages[0];
  const shownFromAt = oldestShown?.created_at;
  const shownFromId = oldestShown?.id;
  useEffect(() => {
    // Nothing before the window has answered (or in an empty conversation): nothing shown, nothing read.
    if (!shownFromAt || !shownFromId) return;
    const shownFrom = { created_at: shownFromAt, id: shownFromId };
    const mark = () => {
      if (!document.hidden) void markConversationRead(db, c.id, me, shareReceipts, shownFrom);
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [db, c.id, me, shareReceipts, newestIncoming, shownFromAt, shownFromId]);

  // To the bottom when a message arrives or is sent (not when earlier ones are added above).
  const newestId = messages.at(-1)?.id;
  const newest = messages.at(-1);
  // The other member's text waits on the member's answer (the Wingman may draft one).
  const waitingOn = newest && newest.sender_id !== me && newest.type === 'text' ? newest.id : undefined;
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [newestId, otherTyping]);

  // After earlier messages were added above, the message that was first stays where it was on screen.
  useLayoutEffect(() => {
    const keep = keepRef.current;
    const list = listRef.current;
    if (!keep || !list || shownFromId === keep.id) return;
    keepRef.current = undefined;
    const el = list.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(keep.id)}"]`);
    if (!el) return;
    findScroller(el).scrollTop += el.getBoundingClientRect().top - keep.top;
  }, [shownFromId]);

  async function showEarlier() {
    const first = messages[0];
    const el =
      first && listRef.current?.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(first.id)}"]`);
    keepRef.current = first && el ? { id: first.id, top: el.getBoundingClientRect().top } : undefined;
    setLoadingEarlier(true);
    try {
      await loadEarlier();
    } finally {
      setLoadingEarlier(false);
    }
  }

  async function askNotificationPermissionOnce() {
    if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
    if (await getDeviceSetting(db, NOTIFY_ASKED_KEY)) return;
    await setDeviceSetting(db, NOTIFY_ASKED_KEY, new Date().toISOString());
    void Notification.requestPermission();
  }

  useEffect(() => {
    if (!draftLoaded || !sendWhenLoaded.current) return;
    sendWhenLoaded.current = false;
    void send();
    // send reads this render's text, the draft just restored.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draftLoaded]);

  async function send() {
    const content = findSendableText(text);
    if (!content || closed) return;
    if (content.length > MESSAGE_MAX_LENGTH) {
      toast({
        title: 'Message too long',
        description: `At most ${MESSAGE_MAX_LENGTH} characters.`,
        variant: 'destructive',
      });
      return;
    }
    setText('');
    clearUnsentText(draftKey);
    resetTyping();
    const fromAgent =
      aiText.current && findSendableText(aiText.current.text) === content ? aiText.current : undefined;
    aiText.current = undefined;
    await sendMessage(db, {
      conversationId: c.id,
      me,
      other: c.other_id,
      content,
      ...(fromAgent ? { metadata: getAiMessageMarking(fromAgent.agent) } : {}),
    });
    // A sensible moment to ask: the member has just started a conversation they will want answers to.
    void askNotificationPermissionOnce();
  }

  async function onImage(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file || closed) return;
    if (!IMAGE_TYPES.includes(file.type) || file.size > IMAGE_MAX_BYTES) {
      toast({
        title: 'Photo not sent',
        description: 'Send a JPEG, PNG or WebP photo of at most 8 MB.',
        variant: 'destructive',
      });
      return;
    }
    setUploading(true);
    try {
      const size = await findPhotoSize(file);
      const path = await uploadChatPhoto(c.id, me, file);
      await sendMessage(db, {
        conversationId: c.id,
        me,
        other: c.other_id,
        content: path,
        type: 'image',
        metadata: size ? { width: size.width, height: size.height } : {},
      });
    } catch {
      toast({
        title: 'Photo not sent',
        // Photos upload straight to storage (only the message itself is queued): say why when offline.
        description: isOnline()
          ? 'Uploading the photo failed. Please try again.'
          : 'You are offline. Send the photo again when you are back online.',
        variant: 'destructive',
      });
    } finally {
      setUploading(false);
    }
  }

  async function block() {
    setConfirmingBlock(false);
    try {
      await blockMember(db, me, c.other_id, 'User blocked from messages');
      toast({ title: 'Member blocked', description: `You blocked ${name}.` });
    } catch {
      toast({ title: 'Block failed', description: 'Please try again.', variant: 'destructive' });
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void send();
  }

  return (
    <section aria-label={`Conversation with ${name}`} className="flex h-full min-h-0 flex-col">
      <header className="flex items-center justify-between gap-1 border-b border-border p-2 md:gap-2 md:p-3">
        <div className="flex min-w-0 items-center gap-2 md:gap-3">
          {/* Phones show the list or the thread: back to the list. */}
          <button type="button" className="btn-ghost shrink-0 px-1 md:hidden" onClick={onBack}>
            <ArrowLeft aria-hidden="true" className="size-5" />
            <span className="sr-only">Back to conversations</span>
          </button>
          {c.other_visible === 1 ? (
            // A tap on the face opens their profile, as in every chat app.
            <button
              type="button"
              className="shrink-0 rounded-full"
              aria-label={`View ${name}'s profile`}
              onClick={() => setViewingProfile(true)}
            >
              <MemberPhoto
                path={parseList(c.other_photos)[0]}
                alt=""
                className="size-10 rounded-full object-cover hover:ring-2 hover:ring-primary/50"
              />
            </button>
          ) : (
            <MemberPhoto
              path={parseList(c.other_photos)[0]}
              alt=""
              className="size-10 shrink-0 rounded-full object-cover"
            />
          )}
          <div className="min-w-0">
            <h2 className="truncate font-semibold">{name}</h2>
            <OnlineIndicator userId={c.other_id} />
          </div>
        </div>
        {c.other_visible === 1 && c.blocked_by_me !== 1 && (
          <div className="flex shrink-0 items-center md:gap-2">
            {!closed && <PlayGameButton me={me} other={{ id: c.other_id, name }} />}
            {!closed && (
              <CallButtons
                me={me}
                otherId={c.other_id}
                otherName={name}
                otherPhoto={parseList(c.other_photos)[0]}
              />
            )}
            {/* Words on a wider screen; on a phone they wait in the More menu, so the header stays calm. */}
            <button
              type="button"
              className="btn-ghost hidden px-2 text-sm md:inline-flex"
              onClick={() => setReporting(true)}
            >
              Report
            </button>
            <button
              type="button"
              className="btn-ghost hidden px-2 text-sm md:inline-flex"
              onClick={() => setConfirmingBlock(true)}
            >
              Block
            </button>
            <MoreMenu
              className="md:hidden"
              label={`More actions for ${name}`}
              items={[
                { icon: Flag, label: 'Report', onSelect: () => setReporting(true) },
                { icon: Ban, label: 'Block', onSelect: () => setConfirmingBlock(true) },
              ]}
            />
          </div>
        )}
      </header>
      <ol
        ref={listRef}
        aria-label="Messages"
        aria-live="polite"
        className="flex-1 space-y-2 overflow-y-auto p-3"
      >
        {hasEarlier && (
          <li className="flex justify-center">
            <button
              type="button"
              className="btn-ghost text-sm"
              disabled={loadingEarlier}
              onClick={() => void showEarlier()}
            >
              Load earlier messages
            </button>
          </li>
        )}
        {!closed && !threadLoading && messages.length === 0 && !hasEarlier && (
          <MatchIntro name={name} photo={parseList(c.other_photos)[0]} matchedAt={c.created_at} />
        )}
        {messages.map((m) =>
          m.type === 'game_invite' ? (
            <li key={m.id} className="flex justify-center" data-message-id={m.id}>
              <GameInviteCard me={me} senderId={m.sender_id} otherName={name} metadata={m.metadata} />
            </li>
          ) : isCallMessageType(m.type) ? (
            supersededCalls.has(m.id) ? null : (
              <CallCard key={m.id} m={m} type={m.type} me={me} />
            )
          ) : (
            <Bubble
              key={m.id}
              m={m}
              mine={m.sender_id === me}
              pending={m.sender_id === me && pending.has(m.id)}
            />
          ),
        )}
        <li ref={endRef} aria-hidden="true" />
      </ol>
      <p className="min-h-6 px-3 text-sm text-muted" role="status">
        {otherTyping ? `${name} is typing...` : ''}
      </p>
      {!closed && (
        <WingmanThreadHelp
          me={me}
          conversationId={c.id}
          otherId={c.other_id}
          otherName={name}
          isEmpty={messages.length === 0 && !hasEarlier}
          waitingOn={waitingOn}
          onSendAsIs={async (content, agent) => {
            await sendMessage(db, {
              conversationId: c.id,
              me,
              other: c.other_id,
              content,
              metadata: getAiMessageMarking(agent),
            });
          }}
          onUse={(content, agent) => {
            setText(content);
            keepUnsentText(draftKey, content);
            // Text from the member's agent is marked when sent unchanged; the coach's templates are not AI.
            aiText.current = agent ? { text: content, agent } : undefined;
          }}
        />
      )}
      {closed ? (
        <p role="note" className="border-t border-border p-3 text-sm">
          {getClosedText(closed, name)}
        </p>
      ) : (
        <form onSubmit={onSubmit} className="flex items-end gap-2 border-t border-border p-3">
          <label htmlFor="message-input" className="sr-only">
            Message {name}
          </label>
          <textarea
            id="message-input"
            rows={2}
            className="input flex-1 resize-none"
            placeholder="Type a message... (Enter sends, Shift+Enter for a new line)"
            value={text}
            // Until this conversation's draft is back, typing would be overwritten by it (nothing typed is lost).
            readOnly={!draftLoaded}
            maxLength={MESSAGE_MAX_LENGTH}
            onChange={(e) => {
              setText(e.target.value);
              // Written through at once: a reload or close right after typing keeps it.
              keepUnsentText(draftKey, e.target.value);
              notifyTyping();
            }}
            onKeyDown={(e) => {
              if (isSendKey({ key: e.key, shiftKey: e.shiftKey, isComposing: e.nativeEvent.isComposing })) {
                e.preventDefault();
                // While the draft is coming back (the thread was just opened or reopened) the box is read-only:
                // the send waits for it instead of being dropped.
                if (!draftLoaded) sendWhenLoaded.current = true;
                else void send();
              }
            }}
          />
          <input
            ref={fileRef}
            type="file"
            accept={IMAGE_TYPES.join(',')}
            className="sr-only"
            aria-label="Send a photo"
            tabIndex={-1}
            onChange={(e) => void onImage(e)}
          />
          <button
            type="button"
            className="btn-secondary"
            disabled={uploading}
            onClick={() => fileRef.current?.click()}
            aria-label={uploading ? 'Uploading...' : 'Photo'}
          >
            {/* Phones keep the width for the message box: the icon alone there, the word beside it on wider screens. */}
            <ImagePlus aria-hidden="true" className="size-5" />
            <span className="hidden sm:inline">{uploading ? 'Uploading...' : 'Photo'}</span>
          </button>
          <button type="submit" className="btn-primary" disabled={!findSendableText(text)}>
            Send
          </button>
        </form>
      )}
      {viewingProfile && (
        <MemberProfileDialog
          memberId={c.other_id}
          fallbackName={name}
          onClose={() => setViewingProfile(false)}
        />
      )}
      {reporting && (
        <ReportDialog
          reporterId={me}
          reported={{ id: c.other_id, name }}
          onClose={() => setReporting(false)}
          onReported={() => setReporting(false)}
        />
      )}
      {confirmingBlock && (
        <BlockConfirmDialog
          name={name}
          onCancel={() => setConfirmingBlock(false)}
          onConfirm={() => void block()}
        />
      )}
    </section>
  );
}

/** The conversation list's screen snapshot (screen-snapshots.ts). */
const SNAPSHOT = 'conversations';

export default function MessagesPage() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  // While the replica opens, the list this device showed last (decision 0104); the thread waits for the replica.
  const opening = useReplicaOpening();
  // A new device's list is empty until its first sync: that is not "No conversations yet".
  const { rows: conversations } = useSnapshotRows(
    SNAPSHOT,
    me,
    useConversations(me, { emptyMeansLoading: true }),
  );
  const offline = useOfflineNotice(useSyncConnected());
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('c') ?? undefined;
  const selected = conversations?.find((c) => c.id === selectedId);

  return (
    <main id="main" className="mx-auto flex max-w-6xl flex-col gap-4 p-4">
      <div className="flex items-center justify-between">
        <h1 className="text-3xl font-bold">Messages</h1>
        {offline && (
          <span role="status" className="text-sm text-muted">
            Offline: messages are sent when you are back online.
          </span>
        )}
      </div>
      {/* The thread fills the screen's height at every size; on a phone the list and the thread take turns. */}
      <div className="card grid h-[calc(100dvh-14rem)] min-h-[24rem] md:h-[calc(100dvh-10rem)] md:min-h-[28rem] grid-cols-1 gap-0 p-0 md:grid-cols-[18rem_1fr]">
        <nav
          aria-label="Conversation list"
          className={`min-h-0 overflow-y-auto md:block md:border-r md:border-border ${selected ? 'hidden' : ''}`}
        >
          {!conversations ? (
            <p className="p-4">Loading...</p>
          ) : (
            <ConversationList
              items={conversations}
              selected={selectedId}
              me={me}
              onSelect={(id) => setParams({ c: id })}
            />
          )}
        </nav>
        <div className={`min-h-0 ${selected ? '' : 'hidden md:block'}`}>
          {selected && opening ? (
            <p className="p-4">Loading...</p>
          ) : selected ? (
            <Thread key={selected.id} c={selected} me={me} onBack={() => setParams({})} />
          ) : (
            <div className="flex h-full flex-col items-center justify-center gap-3 p-6 text-center text-muted">
              <MessageCircle aria-hidden="true" className="size-12 text-primary" />
              <p>Choose a conversation to start messaging.</p>
            </div>
          )}
        </div>
      </div>
    </main>
  );
}
