/** IOF XML 3.0 reading: ResultList and StartList into the domain model (model.ts); a summary of EntryList, ClassList, EventList and CourseData. */
export { decodeXmlBytes, declaredEncoding } from './decode.js';
export { detectIofDocument, EVENTOR_EXTENSIONS_NS, IOF_NS, type IofDocumentInfo } from './detect.js';
export { parseIofDocument, parseIofResultList, parseIofStartList, type IofDocument, type IofReadOptions } from './reader.js';
export {
  isSummarisedDocument, SUMMARISED_DOCUMENTS, summariseIofDocument, type ClassSummary, type EventSummary, type IofDocumentSummary, type SummarisedDocument,
} from './summary.js';
