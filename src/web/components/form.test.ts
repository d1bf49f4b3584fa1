import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { serverFieldErrors } from './form';

const refused = (fields: Record<string, string>) => new ApiError(400, 'Not saved', { error: 'Not saved', fields });

describe('server field errors on a form (ApiError.fields)', () => {
  const fields = ['first_name', 'foreman', 'email', 'packet'];

  it('puts a body-schema message (under its envelope) and a service-rule message (bare) on their fields', () => {
    expect(serverFieldErrors(refused({ 'crew.first_name': 'Too short', foreman: 'Not an active foreman' }), fields)).toEqual({
      first_name: 'Too short',
      foreman: 'Not an active foreman',
    });
  });

  it('keeps the first message of a field and leaves fields the form does not have to the alert', () => {
    expect(serverFieldErrors(refused({ 'crew.email': 'First', email: 'Second', 'crew.role_id': 'No such role', request: 'Bad' }), fields)).toEqual({ email: 'First' });
  });

  it('maps a server field to the form field that shows it', () => {
    const packet = (f: string) => (f.startsWith('work_packet_') ? 'packet' : f);
    expect(serverFieldErrors(refused({ 'job.work_packet_url': 'Add the packet' }), fields, packet)).toEqual({ packet: 'Add the packet' });
  });

  it('has nothing to show for a refusal without fields, or for an error that is not a refusal', () => {
    expect(serverFieldErrors(new ApiError(409, 'Taken', { error: 'Taken', code: 'email_taken' }), fields)).toEqual({});
    expect(serverFieldErrors(new ApiError(0, 'Cannot reach the server.', null), fields)).toEqual({});
    expect(serverFieldErrors(new Error('boom'), fields)).toEqual({});
  });
});
