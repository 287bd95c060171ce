import { expect, it } from 'vitest';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { client, dataOf, expectError } from '../support/helpers.js';

/** GET and PATCH /lab-settings: Vitro's lab settings, read by any member, changed by admins. */
describeOnDatabases('Lab settings', (target) => {
  const { t, lab, owner } = labSuite(target);

  it('reads the defaults, changes what is sent and keeps the rest', async () => {
    expect(dataOf(await owner.get('/api/v1/lab-settings'), 200)).toEqual({
      subculture_interval_days: 28,
      sop_runs_require_all_steps: false,
      time_zone: 'UTC',
    });
    const changed = dataOf(
      await owner.patch('/api/v1/lab-settings', { sop_runs_require_all_steps: true }),
      200,
    );
    expect(changed).toEqual({
      subculture_interval_days: 28,
      sop_runs_require_all_steps: true,
      time_zone: 'UTC',
    });
    expect(
      dataOf(await owner.patch('/api/v1/lab-settings', { subculture_interval_days: 21 }), 200),
    ).toEqual({ subculture_interval_days: 21, sop_runs_require_all_steps: true, time_zone: 'UTC' });
    const guest = client(t, await lab.actor('guest'));
    expect(dataOf(await guest.get('/api/v1/lab-settings'), 200)).toEqual({
      subculture_interval_days: 21,
      sop_runs_require_all_steps: true,
      time_zone: 'UTC',
    });
  });

  it('needs an admin (403 naming the role) and the write:workspace scope, changing nothing', async () => {
    for (const role of ['member', 'manager'] as const) {
      const c = client(t, await lab.actor(role));
      expectError(
        await c.patch('/api/v1/lab-settings', { sop_runs_require_all_steps: true }),
        403,
        'FORBIDDEN',
        /admin/,
      );
    }
    const narrow = client(t, await lab.actor('admin', { scopes: ['read:workspace'] }));
    expectError(
      await narrow.patch('/api/v1/lab-settings', { sop_runs_require_all_steps: true }),
      403,
      'FORBIDDEN',
      /write:workspace/,
    );
    const admin = client(t, await lab.actor('admin'));
    dataOf(await admin.patch('/api/v1/lab-settings', { subculture_interval_days: 7 }), 200);
    expect(dataOf(await owner.get('/api/v1/lab-settings'), 200)).toEqual({
      subculture_interval_days: 7,
      sop_runs_require_all_steps: false,
      time_zone: 'UTC',
    });
  });

  it('refuses an empty body, an unknown setting and values out of range with 422', async () => {
    for (const [body, problem] of [
      [{}, /fewer than 1 propert/],
      [{ require_all: true }, /require_all/],
      [{ sop_runs_require_all_steps: 'yes' }, /^sop_runs_require_all_steps: /],
      [{ subculture_interval_days: 0 }, /^subculture_interval_days: /],
      [{ subculture_interval_days: 366 }, /^subculture_interval_days: /],
      [{ time_zone: 'Mars/Olympus' }, /^time_zone: "Mars\/Olympus" is not a time zone/],
      [{ time_zone: '' }, /^time_zone: /],
    ] as const) {
      expectError(
        await owner.patch('/api/v1/lab-settings', body),
        422,
        'VALIDATION_ERROR',
        problem,
      );
    }
    expect(dataOf(await owner.get('/api/v1/lab-settings'), 200)).toEqual({
      subculture_interval_days: 28,
      sop_runs_require_all_steps: false,
      time_zone: 'UTC',
    });
  });

  it("keeps the lab's time zone as an IANA name", async () => {
    const changed = dataOf(
      await owner.patch('/api/v1/lab-settings', { time_zone: 'Europe/Berlin' }),
      200,
    );
    expect(changed.time_zone).toBe('Europe/Berlin');
    expect(dataOf(await owner.get('/api/v1/lab-settings'), 200).time_zone).toBe('Europe/Berlin');
  });
});
