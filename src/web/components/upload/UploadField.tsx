import { useEffect, type ReactNode } from 'react';
import { ActionIcon, Alert, Anchor, Button, Group, Input, Loader, Paper, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { Dropzone, type FileWithPath } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { IconFileUpload, IconFile, IconX, IconRefresh } from '@tabler/icons-react';
import { MSG } from '../../../shared/messages';
import { formatBytes, UPLOAD_RULES, type UploadKind } from '../../../shared/uploads';
import { useSignedUpload } from './useSignedUpload';
import type { UploadedFile } from './signedUpload';

/** What a record keeps of an uploaded file; size and type are unknown for some older records. */
export interface StoredFile {
  url: string;
  name: string;
  size?: number | null;
  type?: string | null;
}

export interface UploadFieldProps {
  kind: UploadKind;
  label: ReactNode;
  /** Shows the required mark. */
  required?: boolean;
  description?: ReactNode;
  /** The file the record holds now (null = none). */
  value: StoredFile | null;
  /** A finished upload, or null when the person removes the file. */
  onChange: (file: UploadedFile | null) => void;
  /** True while bytes are on the way: forms keep Save disabled meanwhile. */
  onBusyChange?: (busy: boolean) => void;
  /** Hide the remove control (e.g. a field that may never be empty again). */
  removable?: boolean;
  disabled?: boolean;
  /** Text inside the drop area. */
  dropText?: string;
  /** A field-level error to show under the field (e.g. from the workbook check). */
  error?: ReactNode;
  /** The headline of a failed upload; docs/product/messages.md's MSG.uploadError unless a screen names its own (Excel: MSG.fileUploadFailed). */
  failureTitle?: string;
}

/** Content type -> extensions, the shape react-dropzone filters the file picker with. */
function acceptOf(kind: UploadKind): Record<string, string[]> {
  return Object.fromEntries(Object.entries(UPLOAD_RULES[kind].types).map(([type, exts]) => [type, exts.map((e) => `.${e}`)]));
}

/**
 * A one-file upload field (docs/product/api.md §6 signed uploads): a drop area (click or drag), a spinner and
 * progress while uploading, the uploaded file with a link and a remove control, and on failure
 * 'An error has occurred while uploading. Please retry your request.' with the docs/product/messages.md detail and,
 * after 10 seconds, a Retry control that clears the file.
 */
export function UploadField({
  kind,
  label,
  required,
  description,
  value,
  onChange,
  onBusyChange,
  removable = true,
  disabled,
  dropText,
  error: fieldError,
  failureTitle = MSG.uploadError,
}: UploadFieldProps) {
  const up = useSignedUpload(kind, { onUploaded: onChange });
  const busy = up.status === 'uploading';
  useEffect(() => {
    onBusyChange?.(busy);
  }, [busy, onBusyChange]);

  function onFiles(files: FileWithPath[]) {
    if (files.length > 0) void up.upload(files[0]);
  }

  let body: ReactNode;
  if (busy) {
    body = (
      <Paper withBorder p="sm" role="status" aria-live="polite">
        <Group gap="sm" wrap="nowrap">
          {/* No name of its own: the words beside it say it, in the status region. */}
          <Loader size="sm" />
          <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
            <Text size="sm" truncate="end">
              Uploading {up.fileName}… {up.progress}%
            </Text>
            <Progress value={up.progress} size="sm" aria-label={`Upload progress of ${up.fileName ?? 'the file'}`} />
          </Stack>
          <Button variant="subtle" size="xs" onClick={up.cancel}>
            Cancel
          </Button>
        </Group>
      </Paper>
    );
  } else if (up.status === 'error') {
    body = (
      <Alert color="red" role="alert" title={failureTitle} p="sm">
        <Stack gap="xs" align="flex-start">
          {failureTitle !== MSG.uploadError && <Text size="sm">{MSG.uploadError}</Text>}
          {up.error && up.error !== failureTitle && <Text size="sm">{up.error}</Text>}
          {up.canRetry ? (
            <Button size="xs" variant="light" color="red" leftSection={<IconRefresh size={14} />} onClick={up.retry}>
              Retry
            </Button>
          ) : null}
        </Stack>
      </Alert>
    );
  } else if (value) {
    body = (
      <Paper withBorder p="sm">
        <Group gap="sm" wrap="nowrap">
          <IconFile size={20} aria-hidden style={{ flex: 'none' }} />
          <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
            <Anchor href={value.url} target="_blank" rel="noreferrer" size="sm" truncate="end">
              {value.name}
            </Anchor>
            {value.size ? (
              <Text size="xs" c="dimmed">
                {formatBytes(value.size)}
              </Text>
            ) : null}
          </Stack>
          {removable && !disabled && (
            <Tooltip label="Remove file">
              <ActionIcon variant="subtle" color="red" aria-label={`Remove ${value.name}`} onClick={() => onChange(null)}>
                <IconX size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Paper>
    );
  } else {
    body = (
      <Dropzone
        onDrop={() => undefined}
        onDropAny={(accepted, rejected) => onFiles([...accepted, ...rejected.map((r) => r.file)])}
        accept={acceptOf(kind)}
        multiple={false}
        disabled={disabled}
        p="md"
        inputProps={{ 'aria-label': typeof label === 'string' ? label : undefined }}
      >
        <Group justify="center" gap="sm" wrap="nowrap" style={{ pointerEvents: 'none' }}>
          <IconFileUpload size={28} stroke={1.5} aria-hidden style={{ flex: 'none' }} />
          <div>
            <Text size="sm">{dropText ?? 'Drag a file here or click to choose one'}</Text>
            <Text size="xs" c="dimmed">
              {capitalise(UPLOAD_RULES[kind].describe)}, up to {formatBytes(UPLOAD_RULES[kind].maxBytes)}
            </Text>
          </div>
        </Group>
      </Dropzone>
    );
  }

  return (
    <Input.Wrapper label={label} required={required} description={description} error={up.status === 'idle' ? (up.error ?? fieldError) : fieldError}>
      <div style={{ marginTop: 4 }}>{body}</div>
    </Input.Wrapper>
  );
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
