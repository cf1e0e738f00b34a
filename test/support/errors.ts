import { EventorError } from '../../src/eventor/errors.js';

/** The typed Eventor error a promise rejects with (anything else fails the test). */
export async function caught(promise: Promise<unknown>): Promise<EventorError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof EventorError) return error;
    throw error;
  }
  throw new Error('expected an error');
}
