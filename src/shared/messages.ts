/** Every message a person reads that SPEC §5 and §8 fix word for word. One place, both sides. */
export const MSG = {
  // Login and account (SPEC §8)
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
  notSignedIn: 'Not logged in',
  sessionExpired: 'Your session has expired. Sign in again.',
  forbidden: 'You do not have permission to do that.',
  notFound: 'Could not find that URL on this server',
  generic: 'Something went wrong.',

  // Jobs (SPEC §5, §8)
  jobNumberExists: '*That job number already exists. Please use a different number for the job.',
  saveJobError: 'Error saving job',
  confirmDeleteJob: 'Are you sure you want to delete this job?',
  confirmDeleteTicket: 'Are you sure you want to delete this ticket?',
  confirmDeleteImage: 'Are you sure you want to delete this image?',
  unsavedChanges: 'You have unsaved changes. If you close you will lose these changes. Close anyway?',
  staleVersion: 'Someone else saved this record after you opened it. Reload to see their changes, then make yours again.',

  // Excel (SPEC §5)
  tooFewJobColumns: "Couldn't find enough Ticket columns in this Excel file.",
  tooFewLibraryColumns: "Couldn't find enough Unit Library columns in this Excel file.",
  excelUnparsable: "This Excel file couldn't be parsed.",
  excelLegacyXls: 'This is an old .xls file. Save it as .xlsx (Excel Workbook) and upload it again.',
  fileUploadFailed: 'File upload failed.',

  // Uploads (SPEC §8)
  uploadError: 'An error has occurred while uploading. Please retry your request.',
  invalidServerResponse: 'Invalid response from server',
  signedUrlFailed: (statusText: string) => `Failed to get signed URL: ${statusText}`,
  storageUploadFailed: (statusText: string) => `Failed to upload file: ${statusText}`,
  completeUploadFailed: (statusText: string) => `Failed to complete upload: ${statusText}`,
  imageSaveFailed: 'Failed to save image to server',
  imageUploadError: (detail: string) => `Error uploading images: ${detail}`,
  imageDeleteFailed: 'Failed to delete image. Please try again.',
  imageDeleteError: 'Error deleting image. Please try again.',
  tooManyImages: 'You can only upload up to 10 images total. Please select fewer files.',

  // Poles and tickets (SPEC §4, §5, §8)
  addPoleMissing: 'Fill out the pole name, line name, and utility before adding a pole',
  addPoleDuplicate:
    'A ticket for this pole already exists in this job. Please select the existing pole instead of creating a new one.',
  poleSaveError: 'Error saving pole. Please try again.',
  needsMerge: 'This pole has tasks already assigned for work on this job. Merge the tickets or select a different pole.',

  // Crew (SPEC §5, §8)
  firstName: 'Enter a First Name',
  lastName: 'Enter a Last Name',
  email: 'Enter a valid email address',
  phone: 'Enter a valid Phone Number',
  role: 'Choose a role',
  foreman: 'Choose a crew foreman',
  saveUserError: 'Error saving user',
  emailTaken: 'A crew member with this email address already exists.',
  adminOnlyGrant: 'Only an Admin can give the Admin role.',
} as const;
