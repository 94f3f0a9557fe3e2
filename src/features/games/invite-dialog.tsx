// Inviting a match to a game (issue 19): the four games, and for Story Builder one of the 24 themes by category
// and difficulty. Works offline: the session and the thread's card queue like any write.
import { useState } from 'react';
import type { ReplicaColumns } from '../../data/schema.ts';
import { useNavigate } from 'react-router-dom';
import { useQuery, useReplica } from '../../data/replica.tsx';
import { isGameType, type GameType } from '../../domain/games.ts';
import { getLabel } from '../../domain/labels.ts';
import { Modal } from '../../ui/modal.tsx';
import { toast } from '../../ui/toast-store.ts';
import { GameIcon } from './game-icons.tsx';
import { inviteToGame } from './games-data.ts';

type GameTypeRow = ReplicaColumns<'game_types', 'id' | 'name' | 'description', 'id' | 'name' | 'description'>;

type ThemeRow = ReplicaColumns<
  'story_themes',
  'id' | 'title' | 'description' | 'category' | 'difficulty',
  'id' | 'title' | 'description' | 'category' | 'difficulty'
>;

export function InviteDialog({
  me,
  other,
  initialType = 'this-or-that',
  onClose,
}: {
  me: string;
  other: { id: string; name: string };
  /** The game chosen before the dialog opened (the portal's list of games), or the first one. */
  initialType?: GameType;
  onClose: () => void;
}) {
  const db = useReplica();
  const navigate = useNavigate();
  const { data: types } = useQuery<GameTypeRow>(
    'select id, name, description from game_types order by sort_order',
  );
  const { data: themes } = useQuery<ThemeRow>(
    'select id, title, description, category, difficulty from story_themes order by position',
  );
  const [type, setType] = useState<GameType>(initialType);
  const [themeId, setThemeId] = useState('');
  const [busy, setBusy] = useState(false);
  const theme = themes.find((t) => t.id === themeId) ?? themes[0];
  const categories = [...new Set(themes.map((t) => t.category))];

  async function invite() {
    const gameName = types.find((t) => t.id === type)?.name ?? 'a game';
    setBusy(true);
    try {
      const id = await inviteToGame(db, {
        me,
        other: other.id,
        gameType: type,
        gameName,
        otherName: other.name,
        ...(type === 'story-builder' && theme ? { themeId: theme.id } : {}),
      });
      toast({ title: 'Invitation sent', description: `${other.name} can accept it from your conversation.` });
      onClose();
      void navigate(`/games/${id}`);
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to send the invitation. Please try again.',
        variant: 'destructive',
      });
      setBusy(false);
    }
  }

  return (
    <Modal label={`Play a game with ${other.name}`} onClose={onClose}>
      <h2 className="text-xl font-semibold">Play a game with {other.name}</h2>
      <fieldset className="mt-4 grid gap-2 sm:grid-cols-2">
        <legend className="sr-only">Game</legend>
        {types
          .filter((t) => isGameType(t.id))
          .map((t) => (
            <label
              key={t.id}
              className={`flex cursor-pointer gap-3 rounded-xl border p-3 ${type === t.id ? 'border-primary bg-subtle' : 'border-border'}`}
            >
              <input
                type="radio"
                name="game-type"
                value={t.id}
                className="sr-only"
                checked={type === t.id}
                onChange={() => setType(t.id as GameType)}
              />
              <GameIcon type={t.id} className="mt-0.5 size-6 shrink-0 text-primary" />
              <span>
                <span className="block font-medium">{t.name}</span>
                <span className="block text-sm text-muted">{t.description}</span>
              </span>
            </label>
          ))}
      </fieldset>
      {type === 'story-builder' && (
        <label className="mt-4 block">
          <span className="text-sm font-medium">Theme</span>
          <select
            className="input mt-1 w-full"
            value={theme?.id ?? ''}
            onChange={(e) => setThemeId(e.target.value)}
          >
            {categories.map((c) => (
              <optgroup key={c} label={getLabel(c)}>
                {themes
                  .filter((t) => t.category === c)
                  .map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.title} ({getLabel(t.difficulty)})
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
          {theme && <span className="mt-1 block text-sm text-muted">{theme.description}</span>}
        </label>
      )}
      <div className="mt-6 flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="btn-primary"
          disabled={busy || types.length === 0}
          onClick={() => void invite()}
        >
          Send invitation
        </button>
      </div>
    </Modal>
  );
}
