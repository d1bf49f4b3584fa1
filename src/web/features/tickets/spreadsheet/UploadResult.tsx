import { Alert, List, Text } from '@mantine/core';
import type { XlsImportReply } from '../../../../shared/reimport';
import type { XlsRejectedReply } from '../../../../shared/tickets.schemas';

export type UploadOutcome = { ok: boolean; reply: XlsImportReply | XlsRejectedReply | null; message: string };

/** What the spreadsheet upload did, in words: counts, or the rows it refused. */
export function UploadResult({ result, onClose }: { result: UploadOutcome; onClose: () => void }) {
  const rejected = result.reply?.rejectedRows ?? [];
  return (
    <Alert color={result.ok ? 'green' : 'red'} withCloseButton onClose={onClose} title={result.ok ? 'Spreadsheet added' : 'Spreadsheet not added'} role="status">
      <Text size="sm">{result.message}</Text>
      {rejected.length > 0 && (
        <List size="sm" mt={4} spacing={2}>
          {rejected.slice(0, 20).map((x) => (
            <List.Item key={`${x.row}-${x.message}`}>{x.message}</List.Item>
          ))}
          {rejected.length > 20 && <List.Item>… and {rejected.length - 20} more rows</List.Item>}
        </List>
      )}
    </Alert>
  );
}
