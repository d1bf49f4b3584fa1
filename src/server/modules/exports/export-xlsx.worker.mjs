// Entry of the export-workbook worker (export-xlsx-thread.ts). A worker thread starts as plain
// Node, which cannot load TypeScript: tsImport loads the .ts module through tsx, under
// `node --import tsx` (npm start) and under Vitest alike (as the invoice-file worker does).
import { tsImport } from 'tsx/esm/api';

await tsImport('./export-xlsx.worker.ts', import.meta.url);
