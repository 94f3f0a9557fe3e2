// The error shape Supabase Storage answers with ({statusCode, error, message}); storage-js reads `message`.
export class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }

  toBody(): { statusCode: string; error: string; message: string } {
    return { statusCode: String(this.status), error: this.error, message: this.message };
  }
}

export const badRequest = (message: string, error = 'InvalidRequest') =>
  new StorageError(400, error, message);
export const notFound = (message = 'Object not found') => new StorageError(404, 'not_found', message);
