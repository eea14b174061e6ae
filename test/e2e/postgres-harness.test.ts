import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { havePostgres, startPostgres } from './postgres.js';

describe.skipIf(!havePostgres())('the throwaway PostgreSQL of the tests', () => {
  it('starts on a free port with a password, pauses, resumes, and leaves nothing behind', async () => {
    const pg = await startPostgres();
    try {
      expect(pg.url).toMatch(new RegExp(`^postgres://econsig:[^@]+@127\\.0\\.0\\.1:${pg.port}/econsig$`));
      expect(await pg.psql('select 40 + 2', 'econsig')).toBe('42\n');
      await pg.pause();
      await expect(pg.psql('select 1')).rejects.toThrow();
      await pg.resume();
      expect(await pg.psql('select 1')).toBe('1\n');
    } finally {
      await pg.stop();
    }
    await expect(pg.psql('select 1')).rejects.toThrow();
  });
});
