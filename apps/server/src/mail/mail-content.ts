import type { Locale } from '@telehealth/shared';

// Text and attribute values are escaped by the HTML entities library, each for its place in the markup.
import { escapeAttribute, escapeText } from 'entities';

// What a mail is (its kind, its content, the practice it comes from) and the one layout every mail is composed in.

export interface MailContent {
  subject: string;
  text: string;
  html: string;
  /** An iCalendar invitation sent with the mail (the text/calendar part whose method a calendar acts on). */
  calendar?: { method: 'REQUEST' | 'CANCEL'; ics: string };
}

export interface MailContext {
  practiceName: string;
  publicUrl: string;
  /** The practice's number (CLINIC_PHONE); none: a mail that would say "call" says how else to reach the practice. */
  clinicPhone?: string | null;
}

/** Paragraphs of plain text; a paragraph that is a URL becomes a button in the HTML version. */
export type Paragraph = string | { link: string; label: string };

/** A mail's paragraphs in the practice's layout: plain text, and HTML with a button for each link. */
export function compose(ctx: MailContext, locale: Locale, subject: string, paragraphs: Paragraph[]): MailContent {
  const footer =
    locale === 'es'
      ? `${ctx.practiceName} · Este es un mensaje automático; no responda a este correo.`
      : `${ctx.practiceName} · This is an automatic message; please do not reply.`;
  const text = [...paragraphs.map((p) => (typeof p === 'string' ? p : `${p.label}:\n${p.link}`)), '--', footer].join(
    '\n\n',
  );
  const body = paragraphs
    .map((p) =>
      typeof p === 'string'
        ? `<p style="margin:0 0 16px;line-height:1.5">${escapeText(p).replaceAll('\n', '<br>')}</p>`
        : `<p style="margin:0 0 16px"><a href="${escapeAttribute(p.link)}" style="display:inline-block;padding:10px 18px;background:#1c4e80;color:#ffffff;text-decoration:none;border-radius:6px">${escapeText(p.label)}</a></p>` +
          `<p style="margin:0 0 16px;font-size:13px;color:#555555;word-break:break-all">${escapeText(p.link)}</p>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><title>${escapeText(subject)}</title></head>
<body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;background:#f5f7fa">
<div style="max-width:560px;margin:0 auto;background:#ffffff;padding:24px;border-radius:8px">
<h1 style="font-size:18px;margin:0 0 16px">${escapeText(ctx.practiceName)}</h1>
${body}
<p style="margin:24px 0 0;font-size:12px;color:#777777">${escapeText(footer)}</p>
</div></body></html>`;
  return { subject, text, html };
}
