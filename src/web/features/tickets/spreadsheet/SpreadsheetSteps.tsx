import { lazy } from 'react';
import type { Job } from '../../../../shared/jobs.schemas';
import { readSheetColumns } from '../api/xlsUpload';
import type { SpreadsheetWizard } from './useSpreadsheetWizard';

// The spreadsheet steps load when first opened, not with the table (see TicketsSection).
const ExcelMappingModal = lazy(() => import('../../../components/ExcelMappingModal').then((m) => ({ default: m.ExcelMappingModal })));
const ReimportPreviewModal = lazy(() => import('./ReimportPreviewModal').then((m) => ({ default: m.ReimportPreviewModal })));

/** The wizard's dialogs: the Excel Column Mapping, then the preview with its choices. Render inside a Suspense. */
export function SpreadsheetSteps({ job, wizard }: { job: Job; wizard: SpreadsheetWizard }) {
  const { sheet } = wizard;
  if (!sheet) return null;
  return (
    <>
      {sheet.columns && (
        <ExcelMappingModal
          opened
          columns={sheet.columns}
          initial={null}
          overrides={job}
          libraryOptional
          readColumns={(sheets, signal) => readSheetColumns(job.id, sheet.file, sheets, signal)}
          onSave={wizard.onMapped}
          onCancel={wizard.cancel}
        />
      )}
      {sheet.preview && (
        <ReimportPreviewModal
          fileName={sheet.file.name}
          preview={sheet.preview}
          stale={sheet.stale ?? null}
          busy={wizard.choice}
          onChoose={wizard.onChoose}
          onCancel={wizard.cancel}
        />
      )}
    </>
  );
}
