/**
 * A mistake the user can fix (bad option, unknown id). Its message is shown as is, ephemerally;
 * anything else thrown is a bug: logged with context, and the user sees a generic message.
 */
export class UserFacingError extends Error {
  override name = 'UserFacingError';
}

export function isUserFacing(err: unknown): err is UserFacingError {
  return err instanceof UserFacingError;
}
