import type { FormErrors } from '@mantine/form';
import { fieldError, type DraftPole } from '../ticketDraft';

/** The pole's free-text details: '' is sent as null. */
export type PoleTextField = 'pole_id' | 'line_id' | 'street_address' | 'arc_rating' | 'primary_voltage' | 'secondary_voltage' | 'sub_curcuit' | 'sap_curcuit';

/** A refused save's message for a field of the pole (by path of the draft: 'pole.geo_lat'). */
export const poleError = (errors: FormErrors, field: keyof DraftPole) => fieldError(errors, `pole.${field}`);
