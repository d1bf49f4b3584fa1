import { MSG } from '../../../../shared/messages';
import { ERROR_CODE } from '../../../../shared/error-codes';
import { AppError, unprocessable } from '../../../errors';

/**
 * What one workbook may cost (a 1 MB file that unzipped to 250 MB took 20 s and
 * 1.3 GB). The unzipped size is checked before anything is parsed; rows and cells are counted
 * while the sheets stream and reading stops at the first one too many.
 */
export interface WorkbookLimits {
  /** Bytes of the unzipped parts of a .xlsx, or of a CSV (IMPORT_MAX_UNZIPPED_MB). */
  maxUnzippedBytes: number;
  /** Rows with content, per sheet read. A 10,000-row job is the largest seen. */
  maxRows: number;
  /** Non-empty cells of the sheets read, together. */
  maxCells: number;
}

export const DEFAULT_WORKBOOK_LIMITS: WorkbookLimits = { maxUnzippedBytes: 50 * 1024 * 1024, maxRows: 20_000, maxCells: 1_000_000 };

export const tooLarge = (limits: WorkbookLimits) => new AppError(413, MSG.excelTooLarge(Math.round(limits.maxUnzippedBytes / (1024 * 1024))));

/** Counts rows and cells as they are read; throws the 422 at the first one over the limit. */
export class Budget {
  private cells = 0;
  constructor(private readonly limits: WorkbookLimits) {}
  sheet() {
    let rows = 0;
    return (filledCells: number) => {
      if (++rows > this.limits.maxRows) throw unprocessable(MSG.excelTooManyRows(this.limits.maxRows), ERROR_CODE.workbookLimit);
      this.cells += filledCells;
      if (this.cells > this.limits.maxCells) throw unprocessable(MSG.excelTooManyCells(this.limits.maxCells), ERROR_CODE.workbookLimit);
    };
  }
}

/** Last line of defence against a reader that never settles; whole zips read in ~1 s per 10,000 rows. */
export const READ_DEADLINE_MS = 120_000;

export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('workbook read timed out')), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
