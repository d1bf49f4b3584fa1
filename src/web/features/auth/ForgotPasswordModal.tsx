import { useEffect, useState } from 'react';
import { Button, Group, Modal, Text, TextInput } from '@mantine/core';
import { LIMITS } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { requestNewLink } from './api/forgotPassword';

/** 'What's My Password?' (SPEC §2), on the login page and in one's account: asks for an email and mails a reset link. */
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
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (opened) {
      setEmail(initialEmail);
      setError(null);
    }
  }, [opened, initialEmail]);

  async function send() {
    if (email.trim().length < LIMITS.emailMin) {
      setError('Enter your email address.');
      return;
    }
    setSending(true);
    try {
      await requestNewLink(email.trim());
      onSent(MSG.forgotSent);
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : MSG.generic);
    } finally {
      setSending(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="What's My Password?" centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <Text size="sm" mb="sm">
          If you have forgotten your password you can reset it here.
        </Text>
        <TextInput
          label="E-mail Address"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={error}
          disabled={sending}
          data-autofocus
        />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose} disabled={sending}>
            Cancel
          </Button>
          <Button type="submit" loading={sending}>
            Send My Password
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
