/** IOF XML 3.0 reading: ResultList and StartList into the domain model (model.ts); a summary of EntryList, ClassList, EventList and CourseData. */
export { declaredEncoding, decodeXmlBytes } from './decode.js';
export { detectIofDocument, EVENTOR_EXTENSIONS_NS, IOF_NS, type IofDocumentInfo } from './detect.js';
export {
  type IofDocument,
  type IofReadOptions,
  parseIofDocument,
  parseIofResultList,
  parseIofStartList,
} from './reader.js';
export {
  type ClassSummary,
  type EventSummary,
  type IofDocumentSummary,
  isSummarisedDocument,
  SUMMARISED_DOCUMENTS,
  type SummarisedDocument,
  summariseIofDocument,
} from './summary.js';
