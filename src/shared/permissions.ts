import { ROLE, type RoleId } from './constants';

/**
 * The role matrix of docs/product/roles-and-statuses.md §2, in one place. The server enforces it (each route declares
 * `config: { allow: action }`, checked by plugins/auth.ts); the web app only uses it to hide what
 * the server would refuse.
 */
export type Action =
  | 'read' // jobs, tickets, poles, images
  | 'jobs.write' // create / edit / delete jobs, export
  | 'tickets.write' // create / delete / merge tickets, edit poles
  | 'tickets.edit' // a ticket's tasks, documents, status, assignment
  | 'tickets.annotate' // notes and images
  | 'crew.view'
  | 'crew.write'
  | 'work.all' // My Work lists every open ticket of the company (filter by foreman)
  | 'billing.read' // unit prices, production, invoices, dashboard (docs/product/billing.md §6)
  | 'billing.write' // set unit prices, create invoices, unlock a billed ticket
  | 'company.write' // the company's settings (its time zone: docs/product/records.md §3 daily digest)
  | 'webhooks.manage' // webhook endpoints and their delivery log (docs/product/integrations.md §4)
  | 'profile'
  | 'apiTokens.manage'; // create, list and revoke the company's API tokens (docs/product/integrations.md)

const { ADMIN, OFFICE_MANAGER, FOREMAN, WORKING_FOREMAN, LINEMAN, APPRENTICE } = ROLE;
const ALL: RoleId[] = [ADMIN, OFFICE_MANAGER, FOREMAN, WORKING_FOREMAN, LINEMAN, APPRENTICE];

const MATRIX: Record<Action, readonly RoleId[]> = {
  read: ALL,
  'jobs.write': [ADMIN, OFFICE_MANAGER, FOREMAN],
  'tickets.write': [ADMIN, OFFICE_MANAGER, FOREMAN],
  'tickets.edit': [ADMIN, OFFICE_MANAGER, FOREMAN, WORKING_FOREMAN],
  'tickets.annotate': ALL,
  'crew.view': [ADMIN, OFFICE_MANAGER, FOREMAN],
  'crew.write': [ADMIN, OFFICE_MANAGER],
  'work.all': [ADMIN, OFFICE_MANAGER],
  'billing.read': [ADMIN, OFFICE_MANAGER, FOREMAN],
  'billing.write': [ADMIN, OFFICE_MANAGER],
  'company.write': [ADMIN],
  'webhooks.manage': [ADMIN],
  profile: ALL,
  'apiTokens.manage': [ADMIN],
};

export function can(roleId: number | undefined | null, action: Action): boolean {
  return roleId != null && (MATRIX[action] as readonly number[]).includes(roleId);
}

/** Only an Admin may grant the Admin role (issue "Crew"). */
export function canGrantRole(granterRoleId: number, roleId: number): boolean {
  return roleId !== ADMIN || granterRoleId === ADMIN;
}
