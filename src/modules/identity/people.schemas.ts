import Type from 'typebox';
import { StringEnum, Uuid } from '../../kernel/schemas.js';

export const MEMBER_STATUSES = ['active', 'removed'] as const;

export const Person = Type.Object(
  {
    id: Uuid({ description: 'The member id that records carry (recorded_by, assigned_to, …)' }),
    name: Type.String(),
    role: Type.String({ description: 'guest, viewer, member, manager, admin, owner' }),
    status: Type.String({ description: 'active, or removed (still named in the history)' }),
  },
  { $id: 'Person' },
);

export const PeopleQuery = Type.Object({
  status: Type.Optional(
    StringEnum(MEMBER_STATUSES, { description: 'Default: both (the history names both)' }),
  ),
});
