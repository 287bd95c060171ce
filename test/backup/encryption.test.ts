import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { create as createTar, extract as extractTar } from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { runInProcess, tempDir } from '../cli/support.js';
import { backupTargets } from './support.js';

const AGE_HEADER = 'age-encryption.org/v1\n';

/** A file holding `text`, readable by its owner only. */
function secretFile(text: string): string {
  const file = join(tempDir(), 'secret.txt');
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

/** Workspaces of a restored place, by name. */
async function workspaceNames(env: Record<string, string>): Promise<string[]> {
  const listed = await runInProcess(env, 'workspace', 'list');
  return listed.out.workspaces.map((w: { name: string }) => w.name);
}

describe.each(backupTargets())('encrypted backups, $name', (target) => {
  afterAll(() => target.cleanup());

  it('vitro backup --encrypt to a passphrase: an age file only the passphrase restores', async () => {
    const env = target.source();
    const demo = await runInProcess(env, 'demo');
    expect(demo.code).toBe(0);
    const passphrase = secretFile('correct horse battery staple\n');
    const out = tempDir();
    const backup = await runInProcess(
      env,
      'backup',
      '--out',
      out,
      '--encrypt',
      '--passphrase-file',
      passphrase,
    );
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.out.encryption).toBe('passphrase');
    const archive: string = backup.out.archive;
    expect(archive).toMatch(/\/vitro-backup-\d{8}T\d{6}Z\.tar\.gz\.age$/);
    const bytes = readFileSync(archive);
    expect(bytes.subarray(0, AGE_HEADER.length).toString()).toBe(AGE_HEADER);
    // Nothing of the archive is readable: not the manifest, not the demo key, not the secret.
    expect(bytes.includes('manifest.json')).toBe(false);
    expect(bytes.includes(demo.out.key as string)).toBe(false);
    expect(bytes.includes('format_version')).toBe(false);

    const into = await target.empty();
    const without = await runInProcess(into, 'restore', archive);
    expect(without.code).toBe(1);
    expect(without.err.error).toMatch(/is encrypted \(age\): give the passphrase/);
    const wrong = await runInProcess(
      into,
      'restore',
      archive,
      '--passphrase-file',
      secretFile('not the passphrase at all'),
    );
    expect(wrong.code).toBe(1);
    expect(wrong.err.error).toMatch(/cannot be decrypted/);
    // Nothing restored: the data directory holds at most the secret a start generates.
    const dataDir = loadConfig(into).dataDir;
    expect(readdirSync(dataDir).filter((n) => !n.startsWith('.') && n !== 'secret')).toEqual([]);

    const restored = await runInProcess(into, 'restore', archive, '--passphrase-file', passphrase);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.out.records).toEqual(backup.out.records);
    expect(await workspaceNames(into)).toContain('Greenleaf Tissue Culture Lab (demo)');
  }, 120_000); // scrypt, deliberately slow, runs once to encrypt and twice per restore

  it('to an age recipient (BACKUP_RECIPIENTS or --recipient): its identity restores it', async () => {
    const identity = await generateIdentity();
    const recipient = await identityToRecipient(identity);
    const env = { ...target.source(), BACKUP_RECIPIENTS: recipient };
    expect((await runInProcess(env, 'demo')).code).toBe(0);
    // Configured: every archive is encrypted, without --encrypt.
    const backup = await runInProcess(env, 'backup', '--out', tempDir());
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.out.encryption).toBe('recipients');
    expect(
      readFileSync(backup.out.archive as string)
        .subarray(0, 21)
        .toString(),
    ).toBe(AGE_HEADER.trim());

    const into = await target.empty();
    const identityFile = secretFile(`# created: now\n# public key: ${recipient}\n${identity}\n`);
    const other = secretFile(`${await generateIdentity()}\n`);
    const refused = await runInProcess(
      into,
      'restore',
      backup.out.archive,
      '--identity-file',
      other,
    );
    expect(refused.err.error).toMatch(/cannot be decrypted/);
    const restored = await runInProcess(
      into,
      'restore',
      backup.out.archive,
      '--identity-file',
      identityFile,
    );
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.out.records).toEqual(backup.out.records);

    // --recipient on the command line (no configuration) does the same.
    const plainEnv = target.source();
    expect((await runInProcess(plainEnv, 'demo')).code).toBe(0);
    const flagged = await runInProcess(
      plainEnv,
      'backup',
      '--out',
      tempDir(),
      '--recipient',
      recipient,
    );
    expect(flagged.out.encryption).toBe('recipients');
    expect(flagged.out.archive).toMatch(/\.tar\.gz\.age$/);
  });

  it('refuses --encrypt without a key, bad recipients and short passphrases, writing nothing', async () => {
    const env = target.source();
    expect((await runInProcess(env, 'demo')).code).toBe(0);
    const out = tempDir();
    const cases: [string[], RegExp][] = [
      [['--encrypt'], /^--encrypt: say how/],
      [['--recipient', 'age1nope'], /^--recipient: "age1nope" is not an age recipient/],
      [['--passphrase-file', secretFile('short')], /^--passphrase-file: .* at least 10 characters/],
      [
        [
          '--recipient',
          await identityToRecipient(await generateIdentity()),
          '--passphrase-file',
          secretFile('long enough passphrase'),
        ],
        /give one or the other/,
      ],
    ];
    for (const [args, message] of cases) {
      const res = await runInProcess(env, 'backup', '--out', out, ...args);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.err.error).toMatch(message);
    }
    expect(readdirSync(out)).toEqual([]);
    // The configuration says the same at start-up.
    expect(() => loadConfig({ ...env, BACKUP_RECIPIENTS: 'ssh-ed25519 AAAA' })).toThrow(
      /^BACKUP_RECIPIENTS: "ssh-ed25519 AAAA" is not an age recipient/,
    );
    expect(() =>
      loadConfig({ ...env, BACKUP_PASSPHRASE_FILE: join(tempDir(), 'missing') }),
    ).toThrow(/^BACKUP_PASSPHRASE_FILE: cannot read/);
  });

  it('restores only the data parts it knows, whatever the manifest lists', async () => {
    const env = target.source();
    expect((await runInProcess(env, 'demo')).code).toBe(0);
    const backup = await runInProcess(env, 'backup', '--out', tempDir());
    expect(backup.code, backup.stderr).toBe(0);

    for (const extra of ['data/vitro.db', 'data/notes.txt', 'data/sub/secret', 'other/x']) {
      // The same archive, with one more part the manifest lists with a right checksum.
      const unpacked = tempDir();
      await extractTar({ file: backup.out.archive as string, cwd: unpacked });
      const content = Buffer.from('planted\n');
      mkdirSync(join(unpacked, extra, '..'), { recursive: true });
      writeFileSync(join(unpacked, extra), content);
      const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'));
      manifest.parts.push({
        path: extra,
        bytes: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
      });
      writeFileSync(join(unpacked, 'manifest.json'), JSON.stringify(manifest));
      const forged = join(tempDir(), 'forged.tar.gz');
      await createTar({ file: forged, cwd: unpacked, gzip: true, portable: true }, [
        'manifest.json',
        ...manifest.parts.map((part: { path: string }) => part.path),
      ]);

      const into = await target.empty();
      const refused = await runInProcess(into, 'restore', forged);
      expect(refused.code, extra).toBe(1);
      expect(refused.err.error).toContain(
        `the archive lists a part Vitro does not restore (${extra})`,
      );
      expect(refused.err.error).toContain('nothing was restored');
      const dataDir = loadConfig(into).dataDir;
      let left: string[] = [];
      try {
        left = readdirSync(dataDir).filter((name) => !name.startsWith('.') && name !== 'secret');
      } catch {
        left = [];
      }
      expect(left, extra).toEqual([]);
    }
  });
});
