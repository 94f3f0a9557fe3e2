// React-query hooks for the member's pause and deletion state, shared by the banners and the account page.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../session/auth-context.tsx';
import type { PauseDuration } from '../../domain/account-status-wording.ts';
import { toastError, toastSuccess } from '../../ui/toast-store.ts';
import {
  cancelDeletion,
  fetchDeletionStatus,
  fetchPauseStatus,
  pauseAccount,
  reactivateAccount,
  scheduleDeletion,
} from './account-api.ts';

export function usePauseStatus() {
  const { user } = useAuth();
  return useQuery({ queryKey: ['pause-status', user?.id], queryFn: fetchPauseStatus, enabled: !!user });
}

export function useDeletionStatus() {
  const { user } = useAuth();
  return useQuery({ queryKey: ['deletion-status', user?.id], queryFn: fetchDeletionStatus, enabled: !!user });
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function useReactivate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: reactivateAccount,
    retry: false,
    onSuccess: () => {
      toastSuccess('Account Reactivated', 'Your account is now active and visible to other users.');
      return qc.invalidateQueries({ queryKey: ['pause-status'] });
    },
    onError: (e) => toastError('Reactivation Failed', errorText(e)),
  });
}

export function usePause() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (d: PauseDuration) => pauseAccount(d),
    retry: false,
    onSuccess: () => {
      toastSuccess('Account Paused', "You're hidden from discovery until you reactivate or the pause ends.");
      return qc.invalidateQueries({ queryKey: ['pause-status'] });
    },
    onError: (e) => toastError('Pause Failed', errorText(e)),
  });
}

export function useScheduleDeletion() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => scheduleDeletion(password),
    retry: false,
    onSuccess: () => {
      toastSuccess('Deletion Scheduled', 'You can cancel it any time before the date shown.');
      return qc.invalidateQueries({ queryKey: ['deletion-status'] });
    },
    onError: (e) => toastError('Failed to schedule account deletion', errorText(e)),
  });
}

export function useCancelDeletion() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: cancelDeletion,
    retry: false,
    onSuccess: () => {
      toastSuccess('Deletion Cancelled', 'Your account will not be deleted.');
      return qc.invalidateQueries({ queryKey: ['deletion-status'] });
    },
    onError: (e) => toastError('Cancellation Failed', errorText(e) || 'Failed to cancel account deletion'),
  });
}
