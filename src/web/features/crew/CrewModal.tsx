import { useMemo, useState } from 'react';
import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { confirmDiscard } from '../../components/confirm';
import { CREW_STATUS, ROLE } from '../../../shared/constants';
import {
  crewFormErrors,
  emptyCrewForm,
  needsForeman,
  type CrewFormField,
  type CrewFormValues,
  type CrewMember,
  type CrewSaveReply,
} from '../../../shared/crew.schemas';
import { fullName } from '../../../shared/names';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { useConfigurableRoles } from './api/configurableRoles';
import { useForemen } from './api/foremen';
import { useResetCrewPassword } from './api/resetCrewPassword';
import { useSaveCrew } from './api/saveCrew';

const FIELDS: CrewFormField[] = ['crew_status', 'role_id', 'foreman', 'first_name', 'last_name', 'phone_number', 'email'];

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

const sameValues = (a: CrewFormValues, b: CrewFormValues) => FIELDS.every((f) => (a[f] ?? null) === (b[f] ?? null));

/** The server names fields 'crew.first_name' (schema errors) or 'first_name' (rule errors). */
function serverFieldErrors(err: ApiError): Partial<Record<CrewFormField, string>> {
  const out: Partial<Record<CrewFormField, string>> = {};
  for (const [key, message] of Object.entries(err.fields)) {
    const field = key.replace(/^crew\./, '') as CrewFormField;
    if (FIELDS.includes(field)) out[field] ??= message;
  }
  return out;
}

/**
 * Add User / Edit User (SPEC §2, §4, §5): the shared rules of src/shared/crew.schemas show their
 * messages once a field has been left; Save is enabled only when the form is valid and changed;
 * closing with changes asks first. Mounted only while open, so each opening starts fresh.
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
  // The server refuses it too (DESIGN §4): only an Admin changes an Admin's account.
  const locked = editing && member.role_id === ROLE.ADMIN && currentRoleId !== ROLE.ADMIN;
  const small = useMediaQuery('(max-width: 48em)');
  const initial = useMemo(() => valuesOf(member), [member]);
  const [values, setValues] = useState<CrewFormValues>(initial);
  const [touched, setTouched] = useState<Partial<Record<CrewFormField, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<CrewFormField, string>>>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [resetNote, setResetNote] = useState<{ ok: boolean; text: string } | null>(null);

  const roles = useConfigurableRoles();
  const foremen = useForemen();
  const save = useSaveCrew();
  const reset = useResetCrewPassword();

  const errors = useMemo(() => ({ ...serverErrors, ...crewFormErrors(values) }), [values, serverErrors]);
  const valid = Object.keys(crewFormErrors(values)).length === 0;
  const dirty = !sameValues(values, initial);
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

  function set<F extends CrewFormField>(field: F, value: CrewFormValues[F]) {
    setValues((v) => {
      const next = { ...v, [field]: value };
      if (field === 'role_id' && !needsForeman(next.role_id)) next.foreman = null;
      return next;
    });
    setServerErrors((e) => ({ ...e, [field]: undefined }));
    setSaveError(null);
  }
  const blur = (field: CrewFormField) => () => setTouched((t) => ({ ...t, [field]: true }));
  const errorOf = (field: CrewFormField) => (touched[field] ? errors[field] : undefined);

  function requestClose() {
    if (save.isPending) return;
    if (!dirty) return onClose();
    void confirmDiscard().then((discard) => discard && onClose());
  }

  async function onSave() {
    setTouched(Object.fromEntries(FIELDS.map((f) => [f, true])));
    if (!valid || !dirty) return;
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
      // SPEC §7/§8: alert body.status, else 'Error saving user'.
      const status = err instanceof ApiError ? (err.body?.status as string | undefined) : undefined;
      setSaveError(status || MSG.saveUserError);
      if (err instanceof ApiError) setServerErrors(serverFieldErrors(err));
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
          e.preventDefault();
          void onSave();
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
                onChange={(e) => set('crew_status', e.currentTarget.checked ? CREW_STATUS.ACTIVE : CREW_STATUS.INACTIVE)}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <Select
                  label="Role"
                  withAsterisk
                  placeholder="Select..."
                  data={roleData}
                  value={values.role_id == null ? null : String(values.role_id)}
                  onChange={(v) => set('role_id', v == null ? null : Number(v))}
                  onBlur={blur('role_id')}
                  error={errorOf('role_id')}
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
                  value={values.foreman == null ? null : String(values.foreman)}
                  onChange={(v) => set('foreman', v == null ? null : Number(v))}
                  onBlur={blur('foreman')}
                  error={errorOf('foreman')}
                  disabled={values.role_id != null && !foremanNeeded}
                  searchable
                  clearable={!foremanNeeded}
                  nothingFoundMessage="No active foremen"
                  comboboxProps={{ withinPortal: true }}
                />
                <TextInput
                  label="First Name"
                  withAsterisk
                  value={values.first_name}
                  onChange={(e) => set('first_name', e.currentTarget.value)}
                  onBlur={blur('first_name')}
                  error={errorOf('first_name')}
                  maxLength={100}
                  autoComplete="off"
                />
                <TextInput
                  label="Last Name"
                  withAsterisk
                  value={values.last_name}
                  onChange={(e) => set('last_name', e.currentTarget.value)}
                  onBlur={blur('last_name')}
                  error={errorOf('last_name')}
                  maxLength={100}
                  autoComplete="off"
                />
                <TextInput
                  label="Phone"
                  type="tel"
                  inputMode="tel"
                  value={values.phone_number}
                  onChange={(e) => set('phone_number', e.currentTarget.value)}
                  onBlur={blur('phone_number')}
                  error={errorOf('phone_number')}
                  maxLength={20}
                  autoComplete="off"
                />
                <TextInput
                  label="Email"
                  withAsterisk
                  type="email"
                  value={values.email}
                  onChange={(e) => set('email', e.currentTarget.value)}
                  onBlur={blur('email')}
                  error={errorOf('email')}
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
            <Group gap="xs">
              <Button variant="default" onClick={requestClose}>
                Close
              </Button>
              <Button type="submit" disabled={locked || !valid || !dirty} loading={save.isPending}>
                Save
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
