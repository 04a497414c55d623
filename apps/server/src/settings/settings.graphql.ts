import type { BillingIdentity, BookingPolicy, PracticeSettings, WorkingHoursInterval } from '@telehealth/shared';
import type { PracticeSettingSourceView, PracticeSettingsView } from './settings.service.ts';
import { builder } from '../graphql/builder.ts';
import { plainInput } from '../graphql/plain-input.ts';
import { callerOf } from '../graphql/context.ts';

/* The practice's settings at /admin/settings (decision 032): administrators only. */

const PracticeWorkingHoursRef = builder.objectRef<WorkingHoursInterval>('PracticeWorkingHours').implement({
  description: 'One interval of the default weekly working hours, in the practice’s time zone.',
  fields: (t) => ({
    weekday: t.exposeInt('weekday', { description: 'ISO weekday: 1 Monday ... 7 Sunday.' }),
    startTime: t.exposeString('startTime', { description: 'HH:MM' }),
    endTime: t.exposeString('endTime', { description: 'HH:MM' }),
  }),
});

const PracticeBookingPolicyRef = builder.objectRef<BookingPolicy>('PracticeBookingPolicy').implement({
  description: 'What patients may book and change online (decision 030).',
  fields: (t) => ({
    changeWindowHours: t.exposeInt('changeWindowHours'),
    minNoticeHours: t.exposeInt('minNoticeHours'),
    horizonDays: t.exposeInt('horizonDays'),
    appointmentTypes: t.exposeStringList('appointmentTypes'),
    mode: t.exposeString('mode', { description: 'instant or request' }),
    duration: t.exposeInt('duration'),
  }),
});

const BillingIdentityRef = builder.objectRef<BillingIdentity>('BillingIdentity').implement({
  fields: (t) => ({
    legalName: t.exposeString('legalName'),
    street: t.exposeString('street'),
    city: t.exposeString('city'),
    state: t.exposeString('state'),
    zip: t.exposeString('zip'),
    taxId: t.exposeString('taxId'),
  }),
});

const BillingIdentityInput = builder.inputType('BillingIdentityInput', {
  fields: (t) => ({
    legalName: t.string({ required: true }),
    street: t.string({ required: true }),
    city: t.string({ required: true }),
    state: t.string({ required: true }),
    zip: t.string({ required: true }),
    taxId: t.string({ required: true }),
  }),
});

const PracticeSettingValuesRef = builder.objectRef<PracticeSettings>('PracticeSettingValues').implement({
  fields: (t) => ({
    practiceName: t.exposeString('practiceName'),
    clinicPhone: t.exposeString('clinicPhone', { nullable: true }),
    timeZone: t.exposeString('timeZone'),
    defaultWorkingHours: t.field({ type: [PracticeWorkingHoursRef], resolve: (s) => s.defaultWorkingHours }),
    bookingPolicy: t.field({ type: PracticeBookingPolicyRef, resolve: (s) => s.bookingPolicy }),
    slotStepMinutes: t.exposeInt('slotStepMinutes', {
      description: 'Start times offered to staff and patients are this many minutes apart (15 or 30).',
    }),
    reminderHours: t.exposeIntList('reminderHours'),
    messageResponseBusinessDays: t.exposeInt('messageResponseBusinessDays'),
    sessionIdleMinutes: t.exposeFloat('sessionIdleMinutes'),
    twoFactorRequiredRoles: t.exposeStringList('twoFactorRequiredRoles'),
    recordingRetentionDays: t.exposeInt('recordingRetentionDays'),
    intakeSections: t.exposeStringList('intakeSections', {
      description: 'The intake packet sections in use besides the details, always on (decision 067).',
    }),
    videoConsentRequired: t.exposeBoolean('videoConsentRequired', {
      description: 'Video visits need a signed telehealth consent from the patient (decision 069).',
    }),
    billingIdentity: t.field({
      type: BillingIdentityRef,
      nullable: true,
      description: "The practice's billing identity on superbills and statements (decision 073).",
      resolve: (s) => s.billingIdentity,
    }),
    visitCodingAfter: t.exposeString('visitCodingAfter', {
      description: 'A visit may be coded once it is completed, or once its note is signed too (note-signed).',
    }),
  }),
});

const PracticeSettingSourceRef = builder.objectRef<PracticeSettingSourceView>('PracticeSettingSource').implement({
  description: 'Where the value in use of one setting comes from.',
  fields: (t) => ({
    key: t.exposeString('key'),
    source: t.exposeString('source', {
      description: 'environment (its variable), builtIn (no variable set) or changed (by an administrator)',
    }),
    variables: t.stringList({ resolve: (s) => [...s.variables], description: 'The variables of its default.' }),
    updatedAt: t.string({ nullable: true, resolve: (s) => s.updatedAt?.toISOString() ?? null }),
    updatedByName: t.string({ nullable: true, resolve: (s) => s.updatedByName }),
  }),
});

const PracticeSettingsRef = builder.objectRef<PracticeSettingsView>('PracticeSettings').implement({
  fields: (t) => ({
    values: t.field({ type: PracticeSettingValuesRef, resolve: (v) => v.values }),
    defaults: t.field({ type: PracticeSettingValuesRef, resolve: (v) => v.defaults }),
    sources: t.field({ type: [PracticeSettingSourceRef], resolve: (v) => v.sources }),
  }),
});

const PracticeWorkingHoursInput = builder.inputType('PracticeWorkingHoursInput', {
  fields: (t) => ({ weekday: t.int(), startTime: t.string(), endTime: t.string() }),
});

const PracticeBookingPolicyInput = builder.inputType('PracticeBookingPolicyInput', {
  fields: (t) => ({
    changeWindowHours: t.int(),
    minNoticeHours: t.int(),
    horizonDays: t.int(),
    appointmentTypes: t.stringList(),
    mode: t.string(),
    duration: t.int(),
  }),
});

const UpdatePracticeSettingsInput = builder.inputType('UpdatePracticeSettingsInput', {
  description: 'The settings to change; a field left out stays as it is. clinicPhone null: no number.',
  fields: (t) => ({
    practiceName: t.string(),
    clinicPhone: t.string(),
    timeZone: t.string(),
    defaultWorkingHours: t.field({ type: [PracticeWorkingHoursInput] }),
    bookingPolicy: t.field({ type: PracticeBookingPolicyInput }),
    slotStepMinutes: t.int(),
    reminderHours: t.intList(),
    messageResponseBusinessDays: t.int(),
    sessionIdleMinutes: t.int(),
    twoFactorRequiredRoles: t.stringList(),
    recordingRetentionDays: t.int(),
    intakeSections: t.stringList(),
    videoConsentRequired: t.boolean(),
    billingIdentity: t.field({ type: BillingIdentityInput }),
    visitCodingAfter: t.string(),
  }),
});

builder.queryField('practiceSettings', (t) =>
  t.field({
    type: PracticeSettingsRef,
    description: "Administrators: the practice's settings, their defaults and where each value comes from.",
    resolve: (_root, _args, ctx) => ctx.settings.view(callerOf(ctx, 'practiceSettings')),
  }),
);

builder.mutationFields((t) => ({
  updatePracticeSettings: t.field({
    type: PracticeSettingsRef,
    description:
      'Administrators: changes the settings given, used at once by every instance. Audited (SETTING_UPDATE, old and new value). A refused value changes nothing.',
    args: { input: t.arg({ type: UpdatePracticeSettingsInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.settings.update(callerOf(ctx, 'updatePracticeSettings'), plainInput(args.input)),
  }),
  resetPracticeSetting: t.field({
    type: PracticeSettingsRef,
    description:
      'Administrators: a setting goes back to its default (the environment variable, else built in). Audited.',
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.settings.reset(callerOf(ctx, 'resetPracticeSetting'), args.key),
  }),
}));
