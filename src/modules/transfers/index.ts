/* The transfers module's face: transfers of plants and explants. */
export {
  explantTransferRecords,
  highestCycleQuery,
  plantTransferRecords,
} from './transfers.repository.js';
export { createTransfer, recordTransfer, type TransferRecords } from './transfers.service.js';
