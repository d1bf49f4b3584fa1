import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * docs/product/sessions-and-safety.md §6 "e-mail change": the current password, asked for on the User page only when the
 * sign-in e-mail is being changed (isNewSignInEmail), so that a session left open on a shared
 * computer cannot move the account to someone else's mailbox. The server checks it. Given the
 * form's input props (value, error, onChange, onBlur).
 */
export function CurrentPasswordField(props: PasswordInputProps) {
  return (
    <PasswordInput
      label="Current password"
      description="Needed to change your e-mail address. We will send a notice to your current address."
      autoComplete="current-password"
      required
      {...props}
    />
  );
}
