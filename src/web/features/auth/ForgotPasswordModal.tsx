import { Button, Group, Modal, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { forgotBody, type ForgotBody } from '../../../shared/auth.schemas';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { useRequestNewLink } from './api/forgotPassword';

/** The rules POST /crew/forgot-password applies (src/shared/auth.schemas), as the form's `validate`. */
const forgotRules = schemaResolver(forgotBody, { sync: true });

/** 'What's My Password?' (docs/product/screens.md §2), on the login page and in one's account: asks for an email and mails a reset link. */
export function ForgotPasswordModal({
  opened,
  onClose,
  initialEmail = '',
  onSent,
}: {
  opened: boolean;
  onClose: () => void;
  initialEmail?: string;
  onSent: (message: string) => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="What's My Password?" centered>
      {/* The modal's content mounts on each opening: the form starts from the email given then. */}
      <ForgotPasswordForm initialEmail={initialEmail} onClose={onClose} onSent={onSent} />
    </Modal>
  );
}

function ForgotPasswordForm({ initialEmail, onClose, onSent }: { initialEmail: string; onClose: () => void; onSent: (message: string) => void }) {
  const form = useForm<ForgotBody>({ initialValues: { email: initialEmail }, validate: forgotRules });
  const send = useRequestNewLink();
  const sending = send.isPending;

  async function submit({ email }: ForgotBody) {
    try {
      await send.mutateAsync(email.trim());
      onSent(MSG.forgotSent);
      onClose();
    } catch (err) {
      form.setFieldError('email', err instanceof ApiError ? err.message : MSG.generic);
    }
  }

  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))}>
      <Text size="sm" mb="sm">
        If you have forgotten your password you can reset it here.
      </Text>
      <TextInput label="E-mail Address" type="email" autoComplete="email" {...form.getInputProps('email')} disabled={sending} data-autofocus />
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose} disabled={sending}>
          Cancel
        </Button>
        <Button type="submit" loading={sending}>
          Send My Password
        </Button>
      </Group>
    </form>
  );
}
