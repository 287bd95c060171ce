import { createBlobStore } from '../files/create-blob-store.js';
import { createDemoLab, demoPhotos, discardDemoPhotos } from '../modules/demo/index.js';
import { createRecordLookup } from '../modules/index.js';
import { transact, withDatabase } from './database.js';
import { writeDemoKeyFile } from './demo-key.js';
import type { CliIo } from './io.js';
import { explainStartupError } from './startup-errors.js';

/** `vitro demo`: a demo lab and its key file -> {workspace_id, key, base_url, key_file}. */
export function runDemo(io: CliIo): Promise<object> {
  return withDatabase(io, (database, config) =>
    transact(database, async (trx) => {
      // In the command's transaction: a key file that cannot be written leaves no lab
      // behind, and the photos stored for it are removed.
      const store = await createBlobStore(config);
      const photos = demoPhotos(store);
      try {
        const lab = await createDemoLab(trx, createRecordLookup(), new Date(), photos);
        let keyFile: string;
        try {
          keyFile = await writeDemoKeyFile(config.dataDir, config.database, lab.key);
        } catch (error) {
          throw explainStartupError(error, config, 'files');
        }
        return { ...lab, base_url: config.publicUrl, key_file: keyFile };
      } catch (error) {
        await discardDemoPhotos(photos);
        throw error;
      } finally {
        store.close();
      }
    }),
  );
}
