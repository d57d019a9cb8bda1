// The one way the status page writes markup: the `html` template escapes every value it is given
// (a view's name, a record's text, an error) unless the value is markup this helper made itself.
// Nothing else builds HTML from strings, so nothing the service or a user sends can become markup.

/** Markup made by `html` (or a trusted constant through `raw`): inserted as it is. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in element content and in quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A constant of this program's own (CSS, a fixed tag): never a value read from the store. */
export function raw(text: string): SafeHtml {
  return new SafeHtml(text);
}

function part(value: unknown): string {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(part).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
}

/** Tagged template: html`<td>${name}</td>` escapes `name`; arrays are joined; null, undefined and false are nothing. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}
