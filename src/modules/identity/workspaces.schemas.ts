import Type from 'typebox';
import { Int, Uuid } from '../../kernel/schemas.js';

export const Workspace = Type.Object(
  { id: Uuid(), name: Type.String(), type: Type.String() },
  { $id: 'Workspace' },
);

const settingFields = {
  subculture_interval_days: Int({
    minimum: 1,
    maximum: 365,
    description:
      'Days between subcultures: an explant is due for transfer this long after its last one',
  }),
  sop_runs_require_all_steps: Type.Boolean({
    description:
      'When true, completing an SOP run some of whose steps have no evidence answers 409 ' +
      'SOP_RUN_STEPS_INCOMPLETE (a skipped step has evidence). Default false: `complete` ends ' +
      'the run and the run lists its `incompleteSteps`.',
  }),
  time_zone: Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      "The lab's time zone, an IANA name (Europe/Berlin, America/New_York; default UTC): " +
      'spreadsheet-friendly CSV exports show local times in it',
  }),
};

/** The lab's own settings (Vitro's addition). */
export const LabSettings = Type.Object(settingFields, { $id: 'LabSettings' });

export const UpdateLabSettingsBody = Type.Object(
  {
    subculture_interval_days: Type.Optional(settingFields.subculture_interval_days),
    sop_runs_require_all_steps: Type.Optional(settingFields.sop_runs_require_all_steps),
    time_zone: Type.Optional(settingFields.time_zone),
  },
  { additionalProperties: false, minProperties: 1 },
);
