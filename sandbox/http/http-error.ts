// Errors a handler throws; the server turns them into the spec's JSON bodies. Bodies follow the
// charts error shape everywhere on /v1 (the spec shows it only for charts; one shape is simpler).
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`);
  }
}

export function badRequest(messages: string[]): HttpError {
  return new HttpError(400, { statusCode: 400, message: messages, error: 'Bad Request' });
}

export function notFound(message: string): HttpError {
  return new HttpError(404, { statusCode: 404, message, error: 'Not Found' });
}

export function unauthorized(message: string): HttpError {
  return new HttpError(401, { statusCode: 401, message });
}
