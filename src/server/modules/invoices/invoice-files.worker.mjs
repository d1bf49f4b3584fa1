// Entry of the invoice-file worker (invoice-files-thread.ts). A worker thread starts as plain
// Node, which cannot load TypeScript: tsImport loads the .ts module through tsx, under
// `node --import tsx` (npm start) and under Vitest alike (as the workbook worker does).
import { tsImport } from 'tsx/esm/api';

await tsImport('./invoice-files.worker.ts', import.meta.url);
