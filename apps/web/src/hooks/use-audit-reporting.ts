import { useEffect } from 'react';
import { useLocation } from 'react-router';

import { AuditQueue, auditSessionId, browserDetails, fetchAuditSend } from '../lib/audit-queue.ts';

/** One queue per tab, shared by every signed-in screen. */
const queue = new AuditQueue(fetchAuditSend);

/** At most this many characters of an error's message are reported. */
const MESSAGE_MAX = 200;

/**
 * The browser's own audit events for the signed-in screens (decision 034): a PAGE_VIEW for each protected screen
 * opened (its path only, never a query string) and a CLIENT_ERROR for each uncaught error, sent through the
 * audit queue. The server records them as the browser's reports, beside its own record.
 */
export function useAuditReporting(enabled: boolean): void {
  const { pathname } = useLocation();

  useEffect(() => {
    if (!enabled) return;
    const stop = queue.start();
    const onError = (event: ErrorEvent | PromiseRejectionEvent) => {
      const error: unknown = 'reason' in event ? event.reason : event.error;
      const name = error instanceof Error ? error.name : 'Error';
      const message = error instanceof Error ? error.message : 'message' in event ? event.message : String(error);
      void queue.record({
        event: 'CLIENT_ERROR',
        level: 'ERROR',
        timestamp: new Date().toISOString(),
        sessionId: auditSessionId(),
        url: window.location.pathname,
        details: { ...browserDetails(), name, message: message.slice(0, MESSAGE_MAX) },
      });
    };
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onError);
    return () => {
      stop();
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onError);
      void queue.flush();
    };
  }, [enabled]);

  useEffect(() => {
    if (!enabled) return;
    void queue.record({
      event: 'PAGE_VIEW',
      level: 'INFO',
      timestamp: new Date().toISOString(),
      sessionId: auditSessionId(),
      url: pathname,
      ...(document.referrer ? { referrer: new URL(document.referrer).pathname } : {}),
      details: browserDetails(),
    });
  }, [enabled, pathname]);
}
