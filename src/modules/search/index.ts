/*
 * The search module's face: the modules whose records the search finds write their
 * documents here, in the transaction of the record's write.
 */
export { normaliseSearchText, subtitleOf, type SearchDocument } from './search.documents.js';
export {
  saveDocument as indexForSearch,
  saveNewDocument as indexNewForSearch,
  saveNewDocuments as indexManyNewForSearch,
  setDocumentArchived,
  catchUpSearchIndex,
} from './search.repository.js';
export { startSearchCatchUp } from './catch-up.js';
export type { SearchKind } from './search.schemas.js';
