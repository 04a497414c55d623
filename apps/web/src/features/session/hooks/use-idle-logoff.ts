import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';

import { useNow } from '../../../hooks/use-now.ts';
import { currentUserQueryOptions, endSession, requestSignOut, useSignOut } from '../../../lib/auth.ts';
import { getLastSuccessfulRequestAt, subscribeToRequestActivity } from '../../../lib/graphql.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { computeIdleSchedule, getIdlePhase, type IdlePhase, type IdleSchedule } from '../utils/idle-deadline.ts';

export interface IdleLogoffState {
  phase: IdlePhase;
  schedule: IdleSchedule | null;
  staySignedIn: () => void;
  staying: boolean;
  stayError: unknown;
  signOut: () => void;
  signingOut: boolean;
}

/**
 * Follows the server's sliding idle timeout from the time of the last successful request (in any tab):
 * warns before it ends, and ends the session here when it has.
 */
export function useIdleLogoff(idleMinutes: number): IdleLogoffState {
  const lastActivityAt = useSyncExternalStore(subscribeToRequestActivity, getLastSuccessfulRequestAt);
  const schedule = useMemo(
    () => (lastActivityAt > 0 ? computeIdleSchedule(lastActivityAt, idleMinutes) : null),
    [lastActivityAt, idleMinutes],
  );
  // The phase is derived from the wall clock on every tick (and at once when a sleeping tab wakes), never
  // from counting ticks, so throttled or frozen timers cannot stretch the session.
  const now = useNow();
  const phase: IdlePhase = schedule ? getIdlePhase(now, schedule) : 'active';

  const expiredHandled = useRef(false);
  useEffect(() => {
    if (phase !== 'expired') {
      expiredHandled.current = false;
      return;
    }
    if (expiredHandled.current) return;
    expiredHandled.current = true;
    // The server has ended the session by now; telling it again is harmless and covers clock differences.
    void requestSignOut().finally(() => {
      endSession('expired');
    });
  }, [phase]);

  const stay = useMutation({
    // Re-asking who is signed in is an authenticated request, which extends the server session.
    mutationFn: () => queryClient.query({ ...currentUserQueryOptions, staleTime: 0 }),
  });
  const signOutMutation = useSignOut();

  const resetStay = stay.reset;
  useEffect(() => {
    // A failed "Stay signed in" belongs to that warning only.
    if (phase !== 'warning') resetStay();
  }, [phase, resetStay]);

  return {
    phase,
    schedule,
    staySignedIn: () => {
      stay.mutate();
    },
    staying: stay.isPending,
    stayError: stay.error,
    signOut: () => {
      signOutMutation.mutate();
    },
    signingOut: signOutMutation.isPending,
  };
}
