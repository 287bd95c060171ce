/* The assets module's face: photos of records, their bytes in the blob store. */
export { insertAsset, type AssetFiles, type PreparedAsset } from './assets.service.js';
