/** IOF XML 3.0 reading: ResultList and StartList into the domain model (model.ts). */
export { decodeXmlBytes, declaredEncoding } from './decode.js';
export { detectIofDocument, EVENTOR_EXTENSIONS_NS, IOF_NS, type IofDocumentInfo } from './detect.js';
export { parseIofDocument, parseIofResultList, parseIofStartList, type IofDocument, type IofReadOptions } from './reader.js';
