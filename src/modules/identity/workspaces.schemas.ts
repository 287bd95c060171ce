import Type from 'typebox';
import { Uuid } from '../../kernel/schemas.js';

export const Workspace = Type.Object(
  { id: Uuid(), name: Type.String(), type: Type.String() },
  { $id: 'Workspace' },
);
