import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { PatientAccessRequestSchema, ProviderAccessRequestSchema } from './access-requests.ts';
import { createAppointmentInputSchema } from './appointments.ts';
import { AuditBatchSchema, CreateApiTokenInputSchema } from './audit-search.ts';
import { fieldMessage, fieldProblems, issueMessage } from './field-messages.ts';
import { messageText, type MessageId } from './message-catalogue.ts';
import { CreatePatientInputSchema } from './patients.ts';
import { PRACTICE_SETTING_SCHEMAS } from './practice-settings.ts';
import { CreateDoctorInputSchema } from './providers.ts';
import { ReportPeriodSchema } from './reports.ts';
import { VideoNameSchema } from './video.ts';

/** Every issue of a failed parse names a catalogue message whose English is the issue's own text, word for word. */
function expectCodedIssues(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  const issues = result.error?.issues ?? [];
  for (const issue of issues) {
    const { id, params } = issueMessage(issue);
    expect(id, issue.message).not.toBe('fieldMessages.invalid');
    expect(messageText(id as MessageId, params)).toBe(issue.message);
  }
  return issues.map((issue) => issueMessage(issue).id);
}

describe('coded messages of the shared schemas', () => {
  it('reach the issue from a type, a check, a refinement and an added issue alike', () => {
    const schema = z.object({
      type: z.string({ error: fieldMessage.error('required', { label: 'A' }) }),
      choice: z.enum(['x'], { error: fieldMessage.error('chooseValid', { label: 'b' }) }),
      check: z.string().min(3, { error: fieldMessage.error('tooShort', { label: 'C', min: 3 }) }),
      refined: z.string().refine((v) => v === 'ok', { error: fieldMessage.error('zipInvalid') }),
      added: z.string().transform((_v, ctx) => {
        ctx.addIssue({ code: 'custom', ...fieldMessage.issue('tooLong', { label: 'E', max: 1 }) });
        return z.NEVER;
      }),
    });
    const result = schema.safeParse({ choice: 'y', check: 'x', refined: 'no', added: 'zz' });
    expect(fieldProblems(result.error?.issues ?? [])).toEqual([
      { field: 'type', messageId: 'fieldMessages.required', params: { label: 'A' } },
      { field: 'choice', messageId: 'fieldMessages.chooseValid', params: { label: 'b' } },
      { field: 'check', messageId: 'fieldMessages.tooShort', params: { label: 'C', min: 3 } },
      { field: 'refined', messageId: 'fieldMessages.zipInvalid', params: {} },
      { field: 'added', messageId: 'fieldMessages.tooLong', params: { label: 'E', max: 1 } },
    ]);
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'A is required',
      'Please choose a valid b',
      'C must be at least 3 characters long',
      'Please enter a valid ZIP code',
      'E must be less than 1 characters',
    ]);
  });

  it('name a catalogue message for every problem of the main forms', () => {
    expect(expectCodedIssues(CreatePatientInputSchema, {})).toContain('fieldMessages.required');
    expect(
      expectCodedIssues(CreatePatientInputSchema, {
        firstName: 'A',
        lastName: 'B<',
        email: 'nope',
        dateOfBirth: '2999-01-01',
        phone: '12',
        zipCode: 'x',
        insurancePolicyNumber: '1',
        allergies: 'x'.repeat(5000),
      }),
    ).toEqual(
      expect.arrayContaining([
        'fieldMessages.tooShort',
        'fieldMessages.invalidCharacters',
        'fieldMessages.emailInvalid',
        'fieldMessages.dateOfBirthPast',
        'fieldMessages.phoneDigits',
        'fieldMessages.zipInvalid',
        'fieldMessages.lengthBetween',
        'fieldMessages.tooLong',
      ]),
    );
    expectCodedIssues(ProviderAccessRequestSchema, {});
    expectCodedIssues(PatientAccessRequestSchema, { website: 'bot' });
    expectCodedIssues(CreateDoctorInputSchema, { experience: 500 });
    expectCodedIssues(createAppointmentInputSchema('2026-01-01'), { date: '2025-01-01', duration: 7 });
    expectCodedIssues(ReportPeriodSchema, { startDate: '2026-02-01', endDate: '2026-01-01' });
    expectCodedIssues(VideoNameSchema, '');
    expectCodedIssues(PRACTICE_SETTING_SCHEMAS.sessionIdleMinutes, 0);
    expectCodedIssues(AuditBatchSchema, { logs: [] });
    expectCodedIssues(CreateApiTokenInputSchema, { name: 'a', scopes: [], expiresInDays: 7 });
  });
});
