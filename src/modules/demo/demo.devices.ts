import type { Trx } from '../../db/database.js';
import type { Principal } from '../../kernel/principal.js';
import { changeDeviceStatus, mintDeviceToken, registerDevice } from '../devices/index.js';
import { ingestReadings } from '../readings/index.js';

/**
 * The demo lab's sensors: a climate sensor in each growth room with a day of
 * hourly readings, and an old logger that was paused. What the console's Devices
 * page (and a room's latest values) show.
 */
export async function addDemoDevices(
  trx: Trx,
  input: {
    owner: Principal;
    rooms: { growthA: string; growthB: string; mediaPrep: string };
    now: Date;
  },
): Promise<void> {
  const { owner, rooms, now } = input;
  const workspaceId = owner.workspaceId;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * 3_600_000).toISOString();
  const sensor = (name: string, roomId: string, hardware: string, daysAgo: number) =>
    registerDevice(trx, {
      workspaceId,
      name,
      type: 'sensor',
      hardware,
      firmwareVersion: '2.4.1',
      roomId,
      createdBy: owner.memberId,
      at: at(daysAgo * 24),
    });
  const roomA = await sensor('Growth room A climate', rooms.growthA, 'SHT45 on ESP32-C3', 40);
  const roomB = await sensor('Growth room B climate', rooms.growthB, 'SCD41 CO₂ sensor', 25);
  const old = await sensor('Old humidity logger', rooms.mediaPrep, 'DHT22', 90);
  for (const device of [roomA, roomB, old]) {
    await mintDeviceToken(trx, { workspaceId, deviceId: device.id, name: 'firmware 2.4' });
  }

  const readings = [];
  for (let hour = 24; hour >= 1; hour--) {
    const wave = Math.sin((hour / 24) * 2 * Math.PI);
    readings.push(
      { device_id: roomA.id, type: 'temperature' as const, value: round(24.2 + wave), unit: '°C' },
      { device_id: roomA.id, type: 'humidity' as const, value: round(68 + 4 * wave), unit: '%' },
      // Room B drifted warm overnight: what a lab manager should notice.
      {
        device_id: roomB.id,
        type: 'temperature' as const,
        value: round(hour < 8 ? 28.4 : 25.1 + wave / 2),
        unit: '°C',
      },
      {
        device_id: roomB.id,
        type: 'co2' as const,
        value: Math.round(620 + 80 * wave),
        unit: 'ppm',
      },
    );
    for (const reading of readings.slice(-4)) {
      Object.assign(reading, {
        recorded_at: at(hour),
        external_id: `demo-${hour}-${reading.type}`,
      });
    }
  }
  await ingestReadings(trx, owner, { readings }, at(0));
  await changeDeviceStatus(trx, old.id, 'paused');
}

const round = (value: number) => Math.round(value * 10) / 10;
