import type { ReactNode } from 'react';

import classes from './login-page.module.css';

const TONE_CLASS = { error: classes.alertError, warning: classes.alertWarning, info: classes.alertInfo } as const;

/**
 * A message box of the sign-in page (plain HTML: the page loads no component library). Errors and warnings
 * are alerts, read out at once; information is a status.
 */
export function Notice({
  tone,
  title,
  children,
}: {
  tone: keyof typeof TONE_CLASS;
  title?: string;
  children: ReactNode;
}) {
  return (
    <div className={TONE_CLASS[tone]} role={tone === 'info' ? 'status' : 'alert'}>
      {title ? <p className={classes.alertTitle}>{title}</p> : null}
      <p className={classes.alertBody}>{children}</p>
    </div>
  );
}
