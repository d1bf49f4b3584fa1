import { useMemo, useState } from 'react';
import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { CloseSaveButtons } from '../../components/CloseSaveButtons';
import { closeUnlessKept, errorsAfterLeaving, recheckShown, serverFieldErrors, touchAll } from '../../components/form';
import { CREW_STATUS, ROLE } from '../../../shared/constants';
import { crewCreate, emptyCrewForm, needsForeman, type CrewFormValues, type CrewMember, type CrewSaveReply } from '../../../shared/crew.schemas';
import { fullName } from '../../../shared/names';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { useConfigurableRoles } from './api/configurableRoles';
import { useForemen } from '../../api/foremen';
import { useResetCrewPassword } from './api/resetCrewPassword';
import { useSaveCrew } from './api/saveCrew';

const valuesOf = (m: CrewMember | null): CrewFormValues =>
  m
    ? {
        crew_status: m.crew_status,
        role_id: m.role_id,
        foreman: m.foreman,
        first_name: m.first_name,
        last_name: m.last_name,
        phone_number: m.phone_number ?? '',
        email: m.email,
      }
    : emptyCrewForm();

/** The rules POST /crew applies (src/shared/crew.schemas), as the form's `validate`. */
const crewRules = schemaResolver(crewCreate, { sync: true });

/**
 * Add User / Edit User (docs/product/screens.md §7, rules.md §3.3, rules.md §3.1): the shared rules of src/shared/crew.schemas show their
 * messages once a field has been left, and the server's `fields` after a refused save; Save is
 * enabled only when the form is valid and changed; closing with changes asks first. Mounted
 * only while open, so each opening starts fresh.
 */
export function CrewModal({
  member,
  currentUserId,
  currentRoleId,
  onClose,
  onSaved,
}: {
  member: CrewMember | null;
  currentUserId: number | undefined;
  currentRoleId: number | undefined;
  onClose: () => void;
  onSaved: (reply: CrewSaveReply, added: boolean) => void;
}) {
  const editing = member != null;
  const isSelf = editing && member.id === currentUserId;
  // The server refuses it too (docs/product/roles-and-statuses.md): only an Admin changes an Admin's account.
  const locked = editing && member.role_id === ROLE.ADMIN && currentRoleId !== ROLE.ADMIN;
  const small = useMediaQuery('(max-width: 48em)');
  const [saveError, setSaveError] = useState<string | null>(null);
  const form = useForm<CrewFormValues>({
    initialValues: valuesOf(member),
    validate: crewRules,
    ...errorsAfterLeaving<CrewFormValues>(),
    onValuesChange: () => setSaveError(null),
  });
  const [resetNote, setResetNote] = useState<{ ok: boolean; text: string } | null>(null);

  const roles = useConfigurableRoles();
  const foremen = useForemen();
  const save = useSaveCrew();
  const reset = useResetCrewPassword();

  const { values } = form;
  const valid = form.isValid();
  const dirty = form.isDirty();
  const foremanNeeded = needsForeman(values.role_id);

  const roleData = useMemo(() => {
    const list = (roles.data ?? []).map((r) => ({ value: String(r.id), label: r.display_role_name }));
    // An Office Manager opening an Admin still sees the Admin's role, though cannot give it.
    if (member && !list.some((r) => r.value === String(member.role_id))) {
      list.push({ value: String(member.role_id), label: member.display_role_name, disabled: true } as (typeof list)[number]);
    }
    return list;
  }, [roles.data, member]);

  const foremanData = useMemo(() => {
    const list = (foremen.data ?? []).filter((f) => f.id !== member?.id).map((f) => ({ value: String(f.id), label: fullName(f.first_name, f.last_name) }));
    // A member whose foreman has since left keeps them until someone picks another.
    if (member?.foreman != null && !list.some((f) => f.value === String(member.foreman))) {
      list.push({ value: String(member.foreman), label: `${fullName(member.foreman_firstname, member.foreman_lastname)} (inactive)` });
    }
    return list;
  }, [foremen.data, member]);

  const roleInput = form.getInputProps('role_id');
  function setRole(roleId: number | null) {
    roleInput.onChange(roleId);
    // A role that needs no foreman has none; the foreman's message follows the role.
    if (!needsForeman(roleId)) form.setFieldValue('foreman', null);
    recheckShown(form, 'foreman');
  }
  const foremanInput = form.getInputProps('foreman');

  function requestClose() {
    if (!save.isPending) void closeUnlessKept(dirty, onClose);
  }

  async function onSave() {
    if (!dirty) return;
    setSaveError(null);
    const crew = {
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      email: values.email.trim(),
      phone_number: values.phone_number.trim() || null,
      role_id: values.role_id!,
      foreman: foremanNeeded ? values.foreman : null,
      crew_status: values.crew_status as 1 | 2,
    };
    try {
      const reply = await save.mutateAsync(editing ? { id: member.id, crew } : { id: null, crew });
      onSaved(reply, !editing);
      onClose();
    } catch (err) {
      // docs/product/api.md, messages.md: alert body.status, else 'Error saving user'.
      const status = err instanceof ApiError ? (err.body?.status as string | undefined) : undefined;
      setSaveError(status || MSG.saveUserError);
      form.setErrors(serverFieldErrors(err, Object.keys(values)));
    }
  }

  async function onResetPassword() {
    setResetNote(null);
    if (!member || !values.email.trim()) {
      setResetNote({ ok: false, text: MSG.crewResetNeedsEmail });
      return;
    }
    try {
      await reset.mutateAsync(member.id);
      setResetNote({ ok: true, text: MSG.crewResetSent });
    } catch (err) {
      setResetNote({ ok: false, text: (err instanceof ApiError && (err.body?.status as string)) || MSG.generic });
    }
  }

  return (
    <Modal opened onClose={requestClose} title={editing ? 'Edit User' : 'Add User'} size="lg" fullScreen={small} centered>
      <form
        noValidate
        onSubmit={(e) => {
          touchAll(form);
          form.onSubmit(onSave)(e);
        }}
      >
        <Stack gap="sm">
          {locked && (
            <Alert color="gray" title="Read only">
              {MSG.adminOnlyEdit}
            </Alert>
          )}
          <fieldset disabled={locked} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Stack gap="sm">
              <Switch
                label="Status"
                description={values.crew_status === CREW_STATUS.ACTIVE ? 'Active' : 'Inactive'}
                checked={values.crew_status === CREW_STATUS.ACTIVE}
                disabled={isSelf}
                onChange={(e) => form.setFieldValue('crew_status', e.currentTarget.checked ? CREW_STATUS.ACTIVE : CREW_STATUS.INACTIVE)}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <Select
                  label="Role"
                  withAsterisk
                  placeholder="Select..."
                  data={roleData}
                  {...roleInput}
                  value={values.role_id == null ? null : String(values.role_id)}
                  onChange={(v) => setRole(v == null ? null : Number(v))}
                  disabled={isSelf}
                  description={isSelf ? 'You cannot change your own role.' : undefined}
                  allowDeselect={false}
                  comboboxProps={{ withinPortal: true }}
                />
                <Select
                  label="Crew Foreman"
                  withAsterisk={foremanNeeded}
                  placeholder={foremanNeeded || values.role_id == null ? 'Select...' : 'Not needed for this role'}
                  data={foremanData}
                  {...foremanInput}
                  value={values.foreman == null ? null : String(values.foreman)}
                  onChange={(v) => foremanInput.onChange(v == null ? null : Number(v))}
                  disabled={values.role_id != null && !foremanNeeded}
                  searchable
                  clearable={!foremanNeeded}
                  nothingFoundMessage="No active foremen"
                  comboboxProps={{ withinPortal: true }}
                />
                <TextInput
                  label="First Name"
                  withAsterisk
                  {...form.getInputProps('first_name')}
                  maxLength={100}
                  autoComplete="off"
                />
                <TextInput
                  label="Last Name"
                  withAsterisk
                  {...form.getInputProps('last_name')}
                  maxLength={100}
                  autoComplete="off"
                />
                <TextInput
                  label="Phone"
                  type="tel"
                  inputMode="tel"
                  {...form.getInputProps('phone_number')}
                  maxLength={20}
                  autoComplete="off"
                />
                <TextInput
                  label="Email"
                  withAsterisk
                  type="email"
                  {...form.getInputProps('email')}
                  readOnly={editing}
                  variant={editing ? 'filled' : 'default'}
                  description={editing ? 'The email address cannot be changed.' : 'They will be emailed a link to set their password.'}
                  maxLength={255}
                  autoComplete="off"
                />
              </SimpleGrid>
            </Stack>
          </fieldset>

          {saveError && (
            <Alert color="red" role="alert" title="Not saved">
              {saveError}
            </Alert>
          )}
          {resetNote && (
            <Text size="sm" c={resetNote.ok ? 'green.8' : 'red.8'} role={resetNote.ok ? 'status' : 'alert'}>
              {resetNote.text}
            </Text>
          )}

          <Group justify="space-between" mt="sm" gap="xs">
            {editing ? (
              <Button variant="subtle" onClick={() => void onResetPassword()} loading={reset.isPending} disabled={member.crew_status !== CREW_STATUS.ACTIVE}>
                Reset Password
              </Button>
            ) : (
              <span />
            )}
            <CloseSaveButtons onClose={requestClose} canSave={!locked && valid && dirty} saving={save.isPending} />
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
