import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { loadSecrets } from '../../src/receiver/load-secrets.js';
import { loadConfig } from '../../src/config.js';

describe('loadSecrets', () => {
  it('reads comma-separated secrets from the environment, trimmed, without empties', () => {
    expect(loadSecrets({ DS_WEBHOOK_SECRETS: ' a1 ,b2,, c3' })).toEqual({ shared: ['a1', 'b2', 'c3'], byView: {} });
    expect(loadSecrets({})).toEqual({ shared: [], byView: {} });
  });

  it('adds one secret per line from a file, skipping comments and blank lines, deduplicated', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ds-secrets-')), 'secrets');
    writeFileSync(file, '# view A (rotating)\nold-a\r\nnew-a\n\n  # view B\nb2\n');
    expect(loadSecrets({ DS_WEBHOOK_SECRETS: 'b2,env-only' }, file).shared).toEqual(['b2', 'env-only', 'old-a', 'new-a']);
  });

  it("binds a secret to its view when the line or item names the view first (a base64 secret's '=' stays its own)", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ds-secrets-')), 'secrets');
    writeFileSync(file, 'shared-1\nsecurity-alerts  whsec_abc==\nsecurity-alerts whsec_new\n');
    expect(loadSecrets({ DS_WEBHOOK_SECRETS: '0b5e6a56-0000-4000-8000-000000000001 whsec_x=,shared-2' }, file)).toEqual({
      shared: ['shared-2', 'shared-1'],
      byView: { '0b5e6a56-0000-4000-8000-000000000001': ['whsec_x='], 'security-alerts': ['whsec_abc==', 'whsec_new'] },
    });
  });

  it('names an unreadable file without quoting anything from it', () => {
    const missing = join(tmpdir(), 'ds-no-such-dir', 'secrets');
    expect(() => loadSecrets({}, missing)).toThrow(ConfigError);
    expect(() => loadSecrets({}, missing)).toThrow(/cannot read the webhook secrets file .*: no such file/);
  });

  it('reads a secret file with a bound: /dev/zero (or any file past 64 KiB) is refused unread, in one line', () => {
    expect(() => loadSecrets({}, '/dev/zero')).toThrow(/the webhook secrets file \/dev\/zero is larger than 64 KiB: not a secret file/);
    const config = join(mkdtempSync(join(tmpdir(), 'ds-secrets-')), 'config.json');
    writeFileSync(config, JSON.stringify({ apiKeyFile: '/dev/zero' }));
    expect(() => loadConfig({ config }, {})).toThrow(/apiKeyFile \/dev\/zero is larger than 64 KiB/);
  });
});
