import { describe, expect, it } from 'vitest';
import { invitationMail, passwordResetMail } from '../src/mail/templates.ts';

// The practice's name is configuration, not typed by a patient, but each format still escapes what it carries.
const ctx = { practiceName: 'Dr <b>Lee</b> & "Partners"', publicUrl: 'https://clinic.example' };

describe('mail templates', () => {
  it('escape text and attribute values in the HTML part and keep the text part as it is', () => {
    const mail = invitationMail(ctx, 'en', { link: 'https://clinic.example/setup?a=1&b="2"', reason: 'added' });
    expect(mail.html).not.toContain('<b>Lee</b>');
    expect(mail.html).toContain('Dr &lt;b&gt;Lee&lt;/b&gt; &amp; "Partners"');
    expect(mail.html).toContain('href="https://clinic.example/setup?a=1&amp;b=&quot;2&quot;"');
    expect(mail.text).toContain('An account has been created for you at Dr <b>Lee</b> & "Partners".');
  });

  it('escape in Spanish too', () => {
    const mail = passwordResetMail(ctx, 'es', { link: 'https://clinic.example/reset', code: '123456' });
    expect(mail.html).toContain(
      '<title>Restablezca su contraseña de Dr &lt;b&gt;Lee&lt;/b&gt; &amp; "Partners"</title>',
    );
  });
});
