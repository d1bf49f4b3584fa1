import { SHELL_MSG } from './messages-shell';

/** docs/product/imports.md §10 "other kinds": the same answer from every route, naming the kind of file. */
const otherKind = (kind: string) => `This is ${kind}, which can't be read here. Save it as an Excel Workbook (.xlsx) and upload it again.`;

/** Every message a person reads that docs/product/rules.md, messages.md fix word for word. One place, both sides. */
export const MSG = {
  ...SHELL_MSG,
  // Login and account (docs/product/messages.md)
  loginWrong: 'Username or Password is incorrect',
  loginUnverified: 'Account has not been verified, check your email for a link to set your password',
  loginInactive: 'This account is inactive. Ask your office to reactivate it.',
  loginTooMany: 'Too many failed sign-in attempts. Wait 15 minutes and try again.',
  loginTooShort: 'Enter an email of at least 2 characters and a password of at least 4.',
  forgotSent: 'Check your email for a link to reset your password',
  crewResetSent: 'Have the user check their email for a link to reset their password',
  crewResetNeedsEmail: 'Must include an email address.',
  resetMismatch: 'Passwords do not match. Must be greater than 4 characters.',
  resetInvalid: 'This reset link is invalid or has expired. Ask for a new one.',
  accountSaved: 'Success! Your changes were saved.',
  accountSaveError: 'There was an error saving your data. Please try again!',
  // The company's settings (docs/product/records.md §3 daily digest)
  timeZoneInvalid: 'Choose a time zone from the list, like America/New_York.',
  /** Company evidence settings (docs/product/records.md §7, §8). */
  evidenceRadiusInvalid: 'The photo radius must be a whole number of metres from 5 to 5,000.',
  evidencePhotosInvalid: 'Photos required must be a whole number from 0 (no rule) to 10.',
  /** The completion record's position (docs/product/records.md §6). */
  completedPositionPair: 'Send the completion position as completed_lat, completed_lon and completed_accuracy_m together, or none of them.',
  completedLatInvalid: 'completed_lat must be a number of degrees between -90 and 90.',
  completedLonInvalid: 'completed_lon must be a number of degrees between -180 and 180.',
  completedAccuracyInvalid: 'completed_accuracy_m must be a number of metres, 0 or more.',
  /** POST /jobs/{id}/invoices with require_evidence: every ticket it would bill lacks evidence. */
  invoiceNothingEvidenced: 'None of these tickets has the photos required as evidence: nothing to invoice. Add photos at the pole, or invoice without requiring evidence.',
  companySaved: 'Saved. The daily digest goes out at 06:00 in this time zone.',
  // Changing one's own sign-in e-mail (docs/product/sessions-and-safety.md)
  emailChangeNeedsPassword: 'Enter your current password to change your e-mail address.',
  currentPasswordWrong: 'That is not your current password. Enter it again, or use Reset Password if you have forgotten it.',
  emailChangeNoticeFailed:
    'Your e-mail address was not changed: the notice to your current address could not be sent. Try again in a few minutes.',
  currentPasswordTooMany: 'Too many wrong passwords. Wait 15 minutes and try again.',
  notSignedIn: 'Not logged in',
  sessionExpired: 'Your session has expired. Sign in again.',
  sessionNotFound: 'That session has ended already, or it is not one of yours.',
  sessionIdInvalid: 'That is not a session id. Take the id from GET /crew/sessions.',
  csrfMissing:
    'This request came without the X-Linecrew-CSRF header that the Linecrew app sends. Use the app, or send the token as Authorization: Bearer.',
  // API tokens (docs/product/integrations.md §API tokens)
  apiTokenInvalid: 'This API token is not valid: it was revoked, it has expired, or it was never issued. Ask an Admin for a new one.',
  apiTokenInCookie: 'An API token is sent as the Authorization: Bearer header, never in a cookie.',
  apiTokenNotForThis: 'An API token cannot do this: it acts for a system, not a person. Sign in to the app as yourself.',
  apiTokenRoleTooHigh: 'A token cannot have a role above your own. Choose your role or a lower one.',
  apiTokenExpiryPast: 'The expiry date must be in the future.',
  apiTokenNameRequired: 'Give the token a name that says which system uses it.',
  apiTokenNotFound: 'That API token has been revoked already, or it is not one of your company’s.',
  tooManyRequests: 'Too many requests of this kind from your address. Wait 15 minutes and try again.',
  tooManyMails: 'Too many emails were sent to this person recently. Wait 15 minutes and try again.',
  signUpSent: 'Check your email for a link to set your password and finish signing up',
  forbidden: 'You do not have permission to do that.',
  // Refused by the HTTP parser, before a route is known (plugins/errors.ts clientErrorReply).
  requestHeadersTooLarge:
    'The request is too large to read: its address or headers are longer than 16 KB. Use a shorter address (fewer or shorter search words), or sign out and in again to clear old cookies.',
  requestNotHttp: 'The request could not be read: it is not valid HTTP.',
  requestTimeout: 'The request took too long to arrive. Check the connection and try again.',

  // Jobs (docs/product/rules.md, messages.md)
  jobNumberExists: '*That job number already exists. Please use a different number for the job.',
  saveJobError: 'Error saving job',
  confirmDeleteJob: 'Are you sure you want to delete this job?',
  confirmDeleteTicket: 'Are you sure you want to delete this ticket?',
  confirmDeleteImage: 'Are you sure you want to delete this image?',
  staleVersion: 'Someone else saved this record after you opened it. Reload to see their changes, then make yours again.',

  // Excel (docs/product/imports.md §3)
  tooFewJobColumns: "Couldn't find enough Ticket columns in this Excel file.",
  tooFewLibraryColumns: "Couldn't find enough Unit Library columns in this Excel file.",
  excelUnparsable: "This Excel file couldn't be parsed.",
  /** docs/product/imports.md §10 "other kinds": the same answer from every route, naming the kind. */
  excelLegacyXls: otherKind('an old Excel 97–2003 workbook (.xls)'),
  excelOds: otherKind('an OpenDocument spreadsheet (.ods)'),
  excelNoHeader: (sheet: string, kind: 'tickets' | 'library') =>
    `The sheet '${sheet}' has no header row: none of its first 20 rows holds at least 3 column names (such as ${
      kind === 'tickets' ? 'Work Order, Pole, Line, Unit, Quantity' : 'Family, Unit Code, Type, Action, UOM'
    }). Put the column names in one row above the data, or choose another sheet.`,
  excelHeaderUsed: (sheet: string, row: number, columns: number, needed: number) =>
    `Sheet '${sheet}', row ${row} was taken as the header: it has ${columns} column${columns === 1 ? '' : 's'}, and at least ${needed} are needed.`,
  excelNoLibrarySheet: 'No visible sheet of this workbook has a Unit Library header (Family, Unit Code, Type, Action, UOM, Description, Notes).',
  excelNoSuchSheet: (sheet: string) => `This workbook has no sheet named '${sheet}'. Choose one of its sheets.`,
  excelCsvCannotCreateJob:
    'A CSV file holds one sheet, so it can only add tickets to an existing job (Upload Spreadsheet on the job page). To create a job, upload an Excel workbook (.xlsx) with a Unit Tracking sheet and a Unit Library sheet.',
  excelReadAsWindows1252:
    'This CSV file is not UTF-8: it was read as Windows-1252, as Excel writes "CSV (Comma delimited)". Check that accented letters look right.',
  excelFormulaNoResult: (row: number, column: string, sheet?: string) =>
    `${sheet ? `${sheet} row` : 'Row'} ${row}, column ${column} holds a formula with no saved result. Open the file in Excel or LibreOffice, save it, and upload it again.`,
  excelRowCoordinateComma: (row: number, label: string, value: string) =>
    `Row ${row}: ${label} '${value}' has a comma. Write it with a decimal point (${value.replace(',', '.')}).`,
  // Workbook limits: what the limit is and what to do about it.
  excelTooLarge: (mb: number) =>
    `This workbook is too large: unzipped, its contents come to more than ${mb} MB. Remove unused sheets, pictures and formatting, or split it into smaller files.`,
  excelTooManyRows: (max: number) => `This workbook has more than ${max.toLocaleString('en-US')} rows on one sheet. Split it into smaller files.`,
  excelTooManyCells: (max: number) =>
    `This workbook has more than ${max.toLocaleString('en-US')} filled cells. Remove the columns you do not need, or split it into smaller files.`,
  excelTimedOut: (seconds: number) =>
    `Reading this workbook took longer than ${seconds} seconds, so it was stopped. Split it into smaller files and upload them one at a time.`,
  excelImportBusy: 'You already have a workbook being read. Wait until it is finished, then try again.',
  fileUploadFailed: 'File upload failed.',

  // Uploads (docs/product/messages.md)
  uploadError: 'An error has occurred while uploading. Please retry your request.',
  invalidServerResponse: 'Invalid response from server',
  signedUrlFailed: (statusText: string) => `Failed to get signed URL: ${statusText}`,
  storageUploadFailed: (statusText: string) => `Failed to upload file: ${statusText}`,
  completeUploadFailed: (statusText: string) => `Failed to complete upload: ${statusText}`,
  imageSaveFailed: 'Failed to save image to server',
  imageUploadError: (detail: string) => `Error uploading images: ${detail}`,
  imageDeleteError: 'Error deleting image. Please try again.',
  tooManyImages: 'You can only upload up to 10 images total. Please select fewer files.',

  // Poles and tickets (docs/product/rules.md §2.2, rules.md, messages.md)
  addPoleMissing: 'Fill out the pole name, line name, and utility before adding a pole',
  addPoleDuplicate:
    'A ticket for this pole already exists in this job. Please select the existing pole instead of creating a new one.',
  poleSaveError: 'Error saving pole. Please try again.',
  needsMerge: 'This pole has tasks already assigned for work on this job. Merge the tickets or select a different pole.',

  // Crew (docs/product/rules.md §3.1, messages.md)
  // docs/product/messages.md's words, each followed by its rule.
  firstName: 'Enter a First Name of at least 2 letters',
  lastName: 'Enter a Last Name of at least 2 letters',
  email: 'Enter a valid email address, like name@example.com',
  phone: 'Enter a valid Phone Number: 7 or 10 digits, like 617-555-0123',
  role: 'Choose a role',
  foreman: 'Choose a crew foreman',
  saveUserError: 'Error saving user',
  /**
   * docs/product/sessions-and-safety.md §7 "e-mail discovery": one neutral answer for an address taken in this company or
   * another, so that the roster and the profile do not tell which (SPEC's 'A crew member with
   * this email address already exists.' named the company's own roster, and leaked the others').
   */
  emailTaken: "This e-mail address can't be used. Choose another.",
  emailChecksTooMany: 'Too many e-mail addresses that cannot be used were tried from this account. Wait an hour and try again.',
  adminOnlyGrant: 'Only an Admin can give the Admin role.',
  // Crew roster, server rules the spec leaves open (issue "Crew")
  adminOnlyEdit: "Only an Admin can change an Admin's account.",
  foremanInvalid: 'Choose an active foreman of your company as the crew foreman.',
  crewEmailReadOnly: 'The email address of a crew member cannot be changed here.',
  crewSelfChange: 'You cannot deactivate your own account or change your own role.',
  crewResetInactive: 'This member is inactive. Activate them before sending a password link.',
  crewInviteFailed: 'The user was saved, but the invitation email could not be sent. Use Resend invitation in the crew list to send it again.',
  // Invitations: re-sent from the roster until the member sets a password.
  crewInviteResent: 'A new invitation was emailed. Its link works for 7 days.',
  crewAlreadyJoined: 'This member has already set a password, so there is no invitation to re-send. Use Reset Password to send a new password link.',
  mailFailed: 'The email could not be sent. Try again in a few minutes.',
  // Excel import rows: every message names the Excel row the user sees
  excelRowMissingPole: (row: number) => `Row ${row}: Pole is missing`,
  excelRowMissingUnit: (row: number) => `Row ${row}: Unit/task code is missing`,
  excelRowBadNumber: (row: number, label: string, value: string) => `Row ${row}: ${label} '${value}' is not a number`,
  excelRowNegativeQty: (row: number, value: string) => `Row ${row}: Quantity '${value}' cannot be negative`,
  excelRowQtyTooLarge: (row: number, value: string, max: number) => `Row ${row}: Quantity '${value}' is more than ${max.toLocaleString('en-US')}, the largest quantity a task can hold`,
  excelRowOutOfRange: (row: number, label: string, value: string, min: number, max: number) =>
    `Row ${row}: ${label} '${value}' must be between ${min} and ${max}`,
  excelRowBadDate: (row: number, value: string) =>
    `Row ${row}: Due date '${value}' is not a date that can be read: use MM/DD/YYYY, M/D/YY or YYYY-MM-DD, with a year from 2000 to 2100`,
  excelRowTooLong: (row: number, label: string, max: number) => `Row ${row}: ${label} is longer than ${max} characters`,
  excelLibraryRowMissingCode: (row: number) => `Unit Library row ${row}: Unit code is missing`,
  excelLibraryRowTooLong: (row: number, label: string, max: number) => `Unit Library row ${row}: ${label} is longer than ${max} characters`,
  excelLibraryRowBadPrice: (row: number, message: string) => `Unit Library row ${row}: ${message}`,
  excelColumnMissing: (column: string, label: string) => `The column '${column}' mapped to ${label} is not in this workbook. Map the columns again.`,
  excelMappingIncomplete: (labels: string) => `Map these columns before saving: ${labels}.`,
  excelNoRows: 'The Unit Tracking sheet has no rows below its header.',
  excelFileMissing: 'The uploaded Excel file could not be found. Upload it again.',
  // Job save rules (docs/product/rules.md §5.1 Job save) and job import/export
  jobNumberRequired: 'Enter a job number.',
  jobDueDateRequired: 'Choose a due date (MM/DD/YYYY).',
  jobUtilityRequired: 'Utility is required',
  jobPacketRequired: 'Upload the work packet PDF.',
  jobUtilityInvalid: 'Choose one of your company\'s utilities.',
  jobForemanInvalid: 'Choose a foreman of your company.',
  jobVersionRequired: 'Reload the job before saving it: the request did not say which version it changes.',
  importTicketMissingPole: (where: string) => `${where}: Pole name is missing`,
  importUnknownUnit: (where: string, code: string) => `${where}: Unit/task code '${code}' is not in the unit library of this utility`,
  importBadQty: (where: string) => `${where}: Quantity must be a number of at least 0`,
  // Tickets, poles and images: server rules the spec leaves open
  ticketVersionRequired: 'Reload the ticket before saving it: the request did not say which version it changes.',
  ticketAssignWorkingForeman: 'Assign the ticket to an active working foreman of your company, or choose Select... to leave it unassigned.',
  ticketNotesAndImagesOnly: 'Linemen and apprentices can add notes and photos only. Ask a foreman to change anything else.',
  ticketUnitInvalid: 'Choose a unit from your company\'s unit library.',
  ticketPermitTypeInvalid: 'Choose one of the permit types.',
  ticketPoleRequired: 'Choose a pole for the ticket, or add it as a new pole.',
  ticketNoteEmpty: 'A note cannot be empty.',
  poleAccessTypeInvalid: 'Choose one of the access types.',
  poleUtilityInvalid: "Choose one of your company's utilities.",
  mergeSameTicket: 'A ticket cannot be merged with itself.',
  mergeOtherJob: 'Only tickets of the same job can be merged.',
  imageNotAnImage: 'This file is not a photo. Upload a JPEG, PNG, GIF, WebP or AVIF image.',
  imageNotUploaded: 'The photo upload did not finish. Upload the photo again.',
  imageNotOurs: 'The photo link is not a photo uploaded to this company. Upload the photo again.',
  imageVideo: 'Video uploads are not supported. Upload a photo instead.',
  xlsRejected: (n: number) => `The spreadsheet was not imported: ${n} row${n === 1 ? ' has a problem' : 's have problems'}. Fix ${n === 1 ? 'it' : 'them'} and upload the file again.`,
  xlsFileMissing: 'Choose a spreadsheet to upload (field "file").',
  reimportStale: "The job's tickets changed since the preview. Check the new preview and choose again.",
  reimportBelowChange: (where: string) => `${where}: The new bid quantity is less than the change already recorded on the task, so its total would be negative. Lower the change on the ticket first.`,
  // Invoices and the billed-ticket lock (docs/product/billing.md §5)
  invoiceNothingToBill:
    'There are no completed tickets to invoice: every Complete ticket of this job (through the date chosen) is already billed, or none is complete yet.',
  invoiceTicketsOrDate: 'Choose either the tickets or a date, not both.',
  invoiceTicketsNotInJob: (ids: string) => `These tickets are not tickets of this job: ${ids}. Reload the job and choose again.`,
  invoiceTicketsNotComplete: (poles: string) => `Only Complete tickets can be invoiced. Not complete: ${poles}.`,
  invoiceTicketsAlreadyBilled: (list: string) => `Already billed, so not invoiced again: ${list}. Reload the job to see the invoices.`,
  ticketBilledLocked: (number: string) =>
    `This ticket is billed on ${number}, so its tasks and status are locked. An Admin or Office Manager must unlock it (with a reason) before they can change.`,
  ticketBilledMerge: (number: string) =>
    `This ticket is billed on ${number}: merged into a ticket that is not billed, its tasks would be invoiced a second time. Merge it the other way round.`,
  /** Printed at the end of an invoice or evidence PDF in which some characters could not be drawn (decision 048). */
  pdfUndrawable:
    "Characters the font of this PDF cannot draw (such as Chinese, Japanese or Korean) are printed as \uFFFD. The invoice's XLSX download holds every character as written.",
  jobHasInvoices: 'This job has invoices, so it cannot be deleted: the invoices must stay.',
  unlockReasonRequired: 'Say why the ticket is unlocked: the reason is kept on the ticket.',
  unlockNotBilled: 'This ticket is not billed, so there is nothing to unlock.',
  importBilledTickets: (poles: string) =>
    `The workbook changes the tasks of billed tickets: ${poles}. An Admin or Office Manager must unlock them first, or remove those rows.`,
  // Any route: records, uploads, request shape, the server's own storage
  recordNotFound: (what: string) => `That ${what} does not exist, or it belongs to another company.`,
  uploadNotOurs: (what: string) => `The ${what} link is not a file uploaded to this company. Upload the ${what} again.`,
  uploadUnfinished: (what: string) => `The ${what} upload did not finish. Upload the ${what} again.`,
  unstorableText: 'contains a character that cannot be stored (a NUL byte or a broken Unicode character). Remove it and try again.',
  tooDeep: (depth: number) => `The request body is nested more than ${depth} levels deep. Send a flatter body.`,
  diskFull: "The server's disk is full: nothing was saved. Tell your administrator.",
  dataFolderReadOnly: 'The server cannot write to its data folder (it is read-only or not permitted): nothing was saved. Tell your administrator.',
  databaseCannotWrite: 'The database cannot save changes (it is read-only or unreachable). Tell your administrator.',
  // The paged jobs list (docs/product/scale.md §2)
  jobsPageLimit: 'limit must be a whole number from 1 to 200 (the jobs on one page).',
  jobsPageSort: 'sort must be one of the jobs list columns: job_number, selected_utility_name, job_type, status, ticket_count, created_name, due_date, date_completed, percent_complete.',
  jobsPageDir: "dir must be 'asc' or 'desc'.",
  jobsPageStatus: "status must be 'All', 'In Estimation', 'In Progress' or 'Complete'.",
  jobsPageNeedsLimit: (param: string) => `${param} pages the jobs list: send limit too (for example ?limit=50&${param}=…). Without limit, GET /jobs answers every job.`,
  jobsPageCursor: "This cursor is not one GET /jobs gave for this sort and direction: start again from the first page (without cursor).",
  // Webhooks (docs/product/integrations.md §4)
  webhookUrlInvalid: 'Enter the full URL of your endpoint, starting with https:// (for example https://example.com/linecrew-hooks).',
  webhookHttpsOnly: 'The endpoint must use https://, so that events and their signatures travel encrypted.',
  webhookUrlCredentials: 'Leave the user name and password out of the URL: deliveries are signed instead (webhook-signature).',
  webhookHostNotFound: (host: string) => `The address ${host} could not be found (DNS). Check the URL and try again.`,
  webhookPrivateAddress: (host: string, address: string) =>
    `${host} leads to ${address}, a private, loopback or link-local address: webhooks are only sent to public internet addresses.`,
  // Tickets and the job save's ticket rows
  dueDateInvalid: 'The due date is not a date (use MM/DD/YYYY).',
  ticketJobRequired: 'Say which job the ticket belongs to (job_id).',
  draftPoleTooLong: (label: string, max: number) => `${label}: Pole or line is longer than ${max} characters`,
  draftDueDateInvalid: (label: string, value: string) => `${label}: Due date '${value}' is not a date (use MM/DD/YYYY)`,
  draftUnitMissing: (where: string) => `${where}: Unit/task code is missing`,
  // Permits and dig safe (docs/product/records.md §2, decision 045)
  recordDateInvalid: (what: string) => `The ${what} is not a date (use MM/DD/YYYY).`,
  recordDatesOrder: (what: string) => `The ${what} expires before it is valid: the "valid from" date must be on or before the expiry date.`,
  completeNotClearToDig: (reason: string) => `Not clear to dig: ${reason}. Mark it complete anyway?`,
} as const;
