import { describeError } from '../../../lib/errors.ts';
import { useIdleLogoff } from '../hooks/use-idle-logoff.ts';
import { IdleWarningDialog } from './idle-warning-dialog.tsx';

/** Automatic logoff after the server's idle timeout, with a warning a minute before. Render once per shell. */
export function IdleLogoff({ idleMinutes }: { idleMinutes: number }) {
  const idle = useIdleLogoff(idleMinutes);
  if (!idle.schedule) return null;
  return (
    <IdleWarningDialog
      opened={idle.phase === 'warning'}
      deadline={idle.schedule.deadline}
      onStaySignedIn={idle.staySignedIn}
      onSignOut={idle.signOut}
      staying={idle.staying}
      signingOut={idle.signingOut}
      errorMessage={idle.stayError ? describeError(idle.stayError) : null}
    />
  );
}
