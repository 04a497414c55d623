import { recordSuccessfulRequest, subscribeToRequestActivity, getLastSuccessfulRequestAt } from './graphql.ts';

/**
 * Tabs of the same browser share one server session. Each tab tells the others when it talked to the server
 * (so an idle-looking tab does not warn while another is in use), and when the session ended or began.
 */
export type SessionEvent =
  { type: 'activity'; at: number } | { type: 'ended'; reason: 'expired' | 'signed-out' } | { type: 'signed-in' };

const CHANNEL_NAME = 'telehealth-session';

let channel: BroadcastChannel | null = null;

export function broadcastSessionEvent(event: SessionEvent): void {
  channel?.postMessage(event);
}

function isSessionEvent(value: unknown): value is SessionEvent {
  return value !== null && typeof value === 'object' && 'type' in value;
}

/** Starts listening to the other tabs; `onEvent` receives 'ended' and 'signed-in'. Returns a stop function. */
export function startSessionSync(onEvent: (event: Exclude<SessionEvent, { type: 'activity' }>) => void): () => void {
  if (typeof BroadcastChannel === 'undefined' || channel) return () => {};
  const current = new BroadcastChannel(CHANNEL_NAME);
  channel = current;
  let applyingRemote = false;

  const stopActivity = subscribeToRequestActivity(() => {
    if (!applyingRemote)
      current.postMessage({ type: 'activity', at: getLastSuccessfulRequestAt() } satisfies SessionEvent);
  });

  current.onmessage = (message: MessageEvent<unknown>) => {
    const event = message.data;
    if (!isSessionEvent(event)) return;
    if (event.type === 'activity') {
      applyingRemote = true;
      try {
        recordSuccessfulRequest(event.at);
      } finally {
        applyingRemote = false;
      }
      return;
    }
    onEvent(event);
  };

  return () => {
    stopActivity();
    current.close();
    channel = null;
  };
}
