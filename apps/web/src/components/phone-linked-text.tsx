import { Anchor } from '@mantine/core';
import { Fragment } from 'react';

import { useAppConfigValue } from '../lib/page-bootstrap.ts';
import { telHref } from '../lib/tel-href.ts';

/** The text cut at each occurrence of the phone number: the pieces between, and the number itself. */
export function splitAtPhone(text: string, phone: string | null | undefined): { text: string; isPhone: boolean }[] {
  if (!phone) return [{ text, isPhone: false }];
  const parts: { text: string; isPhone: boolean }[] = [];
  text.split(phone).forEach((piece, index) => {
    if (index > 0) parts.push({ text: phone, isPhone: true });
    if (piece) parts.push({ text: piece, isPhone: false });
  });
  return parts;
}

/**
 * A sentence that names the clinic's phone ("call the clinic at (212) 555-0123"), the number a `tel:` link so a
 * phone dials it (decision 048). The number is found as the configured text, never by reading the words; without
 * `phone`, the practice's own (appConfig).
 */
export function PhoneLinkedText({ text, phone }: { text: string; phone?: string | null }) {
  const configured = useAppConfigValue()?.clinicPhone;
  return (
    <>
      {splitAtPhone(text, phone === undefined ? configured : phone).map((part, index) =>
        part.isPhone ? (
          <Anchor key={index} href={telHref(part.text)} inherit fw={700} c="inherit" td="underline">
            {part.text}
          </Anchor>
        ) : (
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
