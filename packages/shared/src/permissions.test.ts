import { describe, expect, it } from 'vitest';
import {
  can,
  hasPermission,
  RECORD_PARTS,
  seesRecordPart,
  type RecordPart,
  type ResourceAction,
  OWN_RECORDS,
  ownershipField,
  parsePermission,
  PERMISSION_DENIED_MESSAGES,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  rolesWith,
  scopeOf,
} from './permissions.ts';
import { ROLES, type Role } from './roles.ts';

describe('the permission table', () => {
  it('grants each role only declared permissions, each once', () => {
    for (const role of ROLES) {
      const granted = ROLE_PERMISSIONS[role];
      expect(granted.every((p) => (PERMISSIONS as readonly string[]).includes(p))).toBe(true);
      expect(new Set(granted).size).toBe(granted.length);
    }
  });

  it('says what "own" means wherever an own scope can be granted', () => {
    for (const permission of PERMISSIONS) {
      const { resource, scope } = parsePermission(permission);
      if (scope === 'own') expect(Object.keys(OWN_RECORDS)).toContain(resource);
    }
    for (const role of ROLES) {
      for (const permission of ROLE_PERMISSIONS[role]) {
        const { resource, scope } = parsePermission(permission);
        if (scope === 'own') expect(ownershipField(role, resource), `${role} ${permission}`).not.toBeNull();
      }
    }
  });

  it('has a refusal message for every action', () => {
    for (const permission of PERMISSIONS) {
      expect(PERMISSION_DENIED_MESSAGES[parsePermission(permission).action]).toMatch(/\S/);
    }
  });
});

describe('scopeOf, can, hasPermission', () => {
  it('answers the widest scope held, any including own', () => {
    expect(scopeOf('admin', 'patient:read')).toBe('any');
    expect(scopeOf('provider', 'patient:read')).toBe('own');
    expect(scopeOf('patient', 'patient:read')).toBe('own');
    expect(scopeOf(null, 'provider:read')).toBeNull();
    expect(hasPermission('admin', 'patient:update:own')).toBe(true);
    expect(hasPermission('provider', 'patient:update:own')).toBe(true);
    expect(hasPermission('provider', 'patient:update:any')).toBe(false);
    expect(can('provider', 'patient:delete')).toBe(false);
    expect(can(undefined, 'patient:read')).toBe(false);
  });

  it("knows which field makes a patient record a provider's or a patient's own", () => {
    expect(ownershipField('provider', 'patient')).toBe('ownerId');
    expect(ownershipField('patient', 'patient')).toBe('accountId');
    expect(ownershipField('admin', 'patient')).toBeNull();
    expect(ownershipField('provider', 'mail')).toBeNull();
  });

  it('lists the roles holding a permission', () => {
    expect(rolesWith('access-request:review:any')).toEqual(['admin']);
    expect(rolesWith('provider:read:any')).toEqual(['admin', 'provider', 'patient']);
    expect(rolesWith('patient:read:own')).toEqual(['admin', 'provider', 'patient']);
  });
});

describe('RECORD_PARTS', () => {
  it('shows each part only to roles that hold the permission it belongs to', () => {
    const permissionOf: Record<RecordPart, ResourceAction> = {
      'appointment:staff-notes': 'appointment:read',
      'note:content': 'note:read',
      'note:psychotherapy-content': 'note:read',
      'note-template:inactive': 'note-template:manage',
      'message:office-inbox': 'message:office',
      'treatment-plan:draft': 'clinical-record:write',
    };
    for (const [part, action] of Object.entries(permissionOf) as [RecordPart, ResourceAction][]) {
      for (const role of RECORD_PARTS[part]) expect(can(role, action), `${part} for ${role}`).toBe(true);
      for (const role of Object.keys(ROLE_PERMISSIONS) as Role[]) {
        if (!can(role, action)) expect(seesRecordPart(role, part), `${part} for ${role}`).toBe(false);
      }
    }
  });

  it('shows the whole-record parts to exactly the roles holding their permission', () => {
    const holders = (action: ResourceAction) => ROLES.filter((role) => can(role, action)).sort();
    expect([...RECORD_PARTS['note:content']].sort()).toEqual(holders('note:read'));
    expect([...RECORD_PARTS['note-template:inactive']].sort()).toEqual(holders('note-template:manage'));
    expect([...RECORD_PARTS['message:office-inbox']].sort()).toEqual(holders('message:office'));
  });

  it("hides the staff's notes on an appointment from patients", () => {
    expect(seesRecordPart('patient', 'appointment:staff-notes')).toBe(false);
    expect(seesRecordPart('provider', 'appointment:staff-notes')).toBe(true);
    expect(seesRecordPart(null, 'appointment:staff-notes')).toBe(false);
  });
});
