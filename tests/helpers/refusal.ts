import { isAppError } from '../../server/infra/errors.ts';

/** How a use case's promise ends: `'<status> <code>'` of the AppError it rejects with, or `'accepted'`. */
export async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return `${error.status} ${error.code}`;
    throw error;
  }
  return 'accepted';
}
