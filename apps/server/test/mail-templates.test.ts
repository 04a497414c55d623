import { describe, expect, it } from 'vitest';
import { invitationMail, passwordResetMail } from '../src/mail/account-mails.ts';
import { appointmentMail, treatmentPlanReviewDueMail } from '../src/mail/templates.ts';

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

  it("give the clinic's number where they say to call, and another way without one", () => {
    const facts = {
      event: 'reminder',
      recipient: 'patient',
      when: 'Thursday, December 3 at 14:00 (New York)',
      providerName: 'Maya Okafor',
      patientInitials: 'JP',
      video: false,
      link: 'https://clinic.example/my/appointments',
    } as const;
    const withPhone = { ...ctx, clinicPhone: '(212) 555-0123' };
    expect(appointmentMail(withPhone, 'en', facts).text).toContain('call the practice at (212) 555-0123.');
    expect(appointmentMail(withPhone, 'es', facts).text).toContain('llame a la consulta al (212) 555-0123.');
    const without = appointmentMail({ ...ctx, clinicPhone: null }, 'en', facts).text;
    expect(without).toContain('sign in and send your care team a message');
    expect(without).not.toContain('call the practice');
    expect(appointmentMail(ctx, 'es', facts).text).toContain('envíe un mensaje a su equipo de atención');
  });

  it('say only that a treatment plan review is due, in English and Spanish, with a link to sign in', () => {
    const en = treatmentPlanReviewDueMail(ctx, 'en');
    expect(en.text).toContain('A treatment plan review is due. Sign in to see it.');
    expect(en.text).toContain('https://clinic.example/dashboard');
    expect(treatmentPlanReviewDueMail(ctx, 'es').text).toContain('Una revisión de plan de tratamiento está pendiente');
  });
});
