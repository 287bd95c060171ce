import { expect, it } from 'vitest';
import { REFUSED_RESOLVER_ANSWERS } from '../files/refused-addresses.js';
import { dataOf, listAll, newPlant } from '../support/helpers.js';
import { deliveryWorker, drain, receiverEach } from './support.js';
import { describeOnOwnDatabases, labSuite } from '../support/suite.js';

/**
 * The outbound guard at delivery time: a host name is resolved for every delivery,
 * and a refused answer refuses the attempt before any connection is made.
 */
describeOnOwnDatabases('webhook address guard', (target) => {
  const { t, lab, owner } = labSuite(target, {}, { shared: true });
  const receiver = receiverEach(t, lab, owner);

  it('refuses every answer of the table, dialling nothing', async () => {
    const port = new URL(receiver.url).port;
    const endpoint = dataOf(
      await owner.post('/api/v1/webhook-endpoints', { url: `https://hooks.test:${port}/hooks` }),
      201,
    );
    for (const answer of REFUSED_RESOLVER_ANSWERS) {
      await newPlant(owner);
      const worker = deliveryWorker(t, { resolver: async () => [answer] });
      try {
        await drain(worker);
      } finally {
        await worker.stop();
      }
    }
    const log = await listAll(
      owner,
      `/api/v1/webhook-endpoints/${endpoint.id as string}/deliveries`,
    );
    expect(log).toHaveLength(REFUSED_RESOLVER_ANSWERS.length);
    for (const delivery of log) {
      expect(delivery.status).toBe('pending');
      expect(delivery.last_status_code).toBeNull();
      expect(delivery.last_error).toMatch(
        /^address refused: host hooks\.test resolves to a refused address: /,
      );
    }
    expect(receiver.connections).toBe(0);
  });

  it('refuses a host whose answers are public first and private second (rebinding)', async () => {
    const endpoint = dataOf(
      await owner.post('/api/v1/webhook-endpoints', { url: 'https://hooks.test/hooks' }),
      201,
    );
    await newPlant(owner);
    const worker = deliveryWorker(t, {
      resolver: async () => ['93.184.215.14', '127.0.0.1'],
    });
    try {
      expect(await drain(worker)).toBe(1);
    } finally {
      await worker.stop();
    }
    const [delivery] = await listAll(
      owner,
      `/api/v1/webhook-endpoints/${endpoint.id as string}/deliveries`,
    );
    expect(delivery.last_error).toBe(
      'address refused: host hooks.test resolves to a refused address: 127.0.0.1 is a loopback address',
    );
  });
});
