// A database URL safe for logs and error messages, whatever its scheme.

/** The URL with any password replaced, safe for logs and error messages. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^@/?#]*@/i, '$1:***@').replace(/([?&]password=)[^&#]*/gi, '$1***');
}
