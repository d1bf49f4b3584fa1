import type { RefObject } from 'react';
import { Button, FileButton } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { acceptFor } from '../../../../shared/uploads';

/** Upload Spreadsheet: the wizard's first step, picking the workbook. */
export function SpreadsheetButton({ onFile, reading, resetRef }: { onFile: (file: File | null) => void; reading: boolean; resetRef: RefObject<(() => void) | null> }) {
  return (
    <FileButton onChange={onFile} accept={acceptFor('excel').join(',')} resetRef={resetRef}>
      {(props) => (
        <Button {...props} variant="default" leftSection={<IconFileSpreadsheet size={16} />} loading={reading}>
          Upload Spreadsheet
        </Button>
      )}
    </FileButton>
  );
}
