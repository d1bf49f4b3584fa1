// Entry of the workbook import worker. A worker thread starts as plain Node, which cannot load
// TypeScript: under `node --import tsx` (npm start) the worker inherits tsx's loader, under
// Vitest it does not. tsImport loads the .ts module through tsx either way.
import { tsImport } from 'tsx/esm/api';

await tsImport('./workbook-import.worker.ts', import.meta.url);
