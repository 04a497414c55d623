import { fireEvent } from '@testing-library/react';

import { LOGIN_PATH, takeLoginHandoff, type LoginHandoff } from '../lib/login-handoff.ts';

/**
 * Follows a link to the sign-in page as far as jsdom can (it does not load pages): checks where it leads, clicks
 * it and answers what it told the sign-in page (lib/login-handoff.ts).
 */
export function followSignInLink(link: HTMLElement): LoginHandoff {
  if (link.getAttribute('href') !== LOGIN_PATH) throw new Error(`The link leads to ${link.getAttribute('href')}`);
  const stayOnPage = (event: Event) => {
    event.preventDefault();
  };
  document.addEventListener('click', stayOnPage);
  try {
    fireEvent.click(link);
  } finally {
    document.removeEventListener('click', stayOnPage);
  }
  return takeLoginHandoff();
}
