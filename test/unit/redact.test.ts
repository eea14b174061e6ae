import { describe, expect, it } from 'vitest';
import {
  isSecretName,
  maskAccount,
  maskCpf,
  maskEmail,
  maskName,
  maskPersonal,
  maskPersonalJson,
  maskPersonalText,
  maskPhone,
  maskPixKey,
  maskSecret,
  personalKindOfPath,
  redactConnectionString,
  redactConnectionStringIn,
  redactSecretFields,
  redactToken,
} from '../../src/redact.js';

const TOKEN = 'tok_live_9f8e7d6c5b4a39281706';

describe('maskSecret', () => {
  it.each([
    ['', '****'],
    ['abc', '****'],
    ['12345678901', '****'],
    ['123456789012', '****9012'],
    ['ghp_0123456789abcdefWXYZ', '****WXYZ'],
    ['eyJhbGciOiJIUzI1NiJ9.payload.signatureabcd', '****abcd'],
  ])('%j → %s', (value, masked) => {
    expect(maskSecret(value)).toBe(masked);
    if (value) expect(maskSecret(value)).not.toContain(value);
  });
});

describe('redactToken', () => {
  it.each([
    ['the token itself', `a ${TOKEN} b`, TOKEN, 'a [redacted] b'],
    ['twice', `${TOKEN}${TOKEN}`, TOKEN, '[redacted][redacted]'],
    ['any bearer value', 'Authorization: Bearer abc.def', undefined, 'Authorization: Bearer [redacted]'],
    ['nothing to hide', 'plain text', TOKEN, 'plain text'],
    ['empty token leaves text', 'plain', '', 'plain'],
  ] as const)('%s', (_name, text, token, expected) => {
    expect(redactToken(text, token)).toBe(expected);
  });

  it('a token of a few characters does not mangle the words that contain it', () => {
    expect(redactToken('connect ECONNREFUSED 127.0.0.1:4010', 't')).toBe('connect ECONNREFUSED 127.0.0.1:4010');
    expect(redactToken('Authorization: Bearer t', 't')).toBe('Authorization: Bearer [redacted]');
  });
});

describe("a person's data: one mask per kind", () => {
  it.each([
    [maskCpf, '52998224725', '***.982.247-**'],
    [maskCpf, '529.982.247-25', '***.982.247-**'],
    [maskCpf, '1234', '****34'],
    [maskAccount, '1234567-8', '****67-8'],
    [maskAccount, '12345-6', '****5-6'],
    [maskAccount, '1', '****'],
    [maskPhone, '+5511912345678', '+55****5678'],
    [maskPhone, '+4915112345678', '+****5678'],
    [maskPhone, '11912345678', '****5678'],
    [maskEmail, 'maria.silva@example.com', 'm***@***.com'],
    [maskEmail, 'ana@localhost', 'a***@***'],
    [maskPixKey, '52998224725', '***.982.247-**'],
    [maskPixKey, '529.982.247-25', '***.982.247-**'],
    [maskPixKey, '+5511987654321', '+55****4321'],
    [maskPixKey, 'Ana.Lima@Example.com', 'A***@***.com'],
    [maskPixKey, '123e4567-e89b-42d3-a456-426614174000', '****4000'],
    [maskName, 'Maria da Silva', 'M. d. S.'],
  ] as const)('%o(%s) → %s', (mask, value, masked) => {
    expect(mask(value)).toBe(masked);
  });

  it('a CPF keeps the same six middle digits whatever holds it (a Pix key, free text, a payload): no two masks to combine', () => {
    const shown = ['cpf', 'pixKey', 'text'].map((kind) => maskPersonal(kind as 'cpf', '52998224725'));
    expect(new Set(shown)).toEqual(new Set(['***.982.247-**']));
    expect(maskPersonalJson({ cpf: 52998224725 })).toEqual({ cpf: '***.982.247-**' });
  });

  it('free text: CPFs (punctuated or 11 digits), e-mails and phone numbers are masked, the rest stays', () => {
    expect(maskPersonalText('chave 529.982.247-25 ou 52998224725 de maria@example.com, +5511987654321; contrato 7f0c-12 em 2025-01-02, 123456789012')).toBe(
      'chave ***.982.247-** ou ***.982.247-** de m***@***.com, +55****4321; contrato 7f0c-12 em 2025-01-02, 123456789012',
    );
  });

  it('a payload: fields named for a person\'s data by their kind, every other text as free text; ids, numbers and structure kept', () => {
    const payload = {
      idContrato: '0b6c2f1e-1111-4c2a-9a59-2d6c8e6b0a01',
      status: 'REPROVADO',
      motivo: 'CPF 529.982.247-25 com margem insuficiente',
      valor: 1500.5,
      trabalhador: { nome: 'Maria da Silva', cpf: '52998224725', documento: { numero: '123456789' }, endereco: { numero: '1578' } },
      contaBancaria: { compe: '260', agencia: '0001', conta: '1234567-8', chavePix: 'maria@example.com' },
      contatos: [{ telefone: '+5511912345678' }],
    };
    expect(maskPersonalJson(payload)).toEqual({
      idContrato: '0b6c2f1e-1111-4c2a-9a59-2d6c8e6b0a01',
      status: 'REPROVADO',
      motivo: 'CPF ***.982.247-** com margem insuficiente',
      valor: 1500.5,
      trabalhador: { nome: 'M. d. S.', cpf: '***.982.247-**', documento: { numero: '****6789' }, endereco: { numero: '1578' } },
      contaBancaria: { compe: '260', agencia: '0001', conta: '****67-8', chavePix: 'm***@***.com' },
      contatos: [{ telefone: '+55****5678' }],
    });
  });

  it.each([
    ['pessoa.documento.numero', 'document'],
    ['pessoa.endereco.numero', undefined],
    ['pessoa.email', 'email'],
    ['pessoa.telefone', 'phone'],
    ['contaBancaria.conta', 'account'],
    ['contaBancaria.chavePix', 'pixKey'],
    ['contaBancaria.agencia', undefined],
    ['pessoa.endereco.cep', undefined],
  ])('the field %s holds %s', (path, kind) => {
    expect(personalKindOfPath(path)).toBe(kind);
  });
});

describe('database URLs', () => {
  it.each([
    ['postgres://econsig:s3cr%40t-pw@db.example:5432/econsig', 'postgres://econsig@db.example:5432/econsig'],
    ['postgresql://u@h/db', 'postgresql://u@h/db'],
    ['postgres://:only-password@h/db', 'postgres://h/db'],
    ['not a url postgres://u:pw-here@h/db', 'not a url postgres://u@h/db'],
    ['postgres://econsig@db/econsig?password=S3cret-pw9&sslmode=require', 'postgres://econsig@db/econsig?password=[redacted]&sslmode=require'],
    ['postgres://u@h/db?sslpassword=k3y-pass&application_name=x', 'postgres://u@h/db?sslpassword=[redacted]&application_name=x'],
    ['postgres://u@h/db?sslkey=/etc/econsig/client.key&sslcert=/etc/econsig/client.pem', 'postgres://u@h/db?sslkey=[redacted]&sslcert=/etc/econsig/client.pem'],
    ['postgres://u@h/db?sslrootcert=-----BEGIN%20CERTIFICATE-----%0AMIIB', 'postgres://u@h/db?sslrootcert=[redacted]'],
    ['postgres://u@h/db?sslcert=-----BEGIN+CERTIFICATE-----', 'postgres://u@h/db?sslcert=[redacted]'],
    ['postgres://u:pw-in-user-info@h/db?PASSWORD=also&api_token=t0k3n&sslmode=disable', 'postgres://u@h/db?PASSWORD=[redacted]&api_token=[redacted]&sslmode=disable'],
    ['postgres://u@h/db?sslmode=verify-full', 'postgres://u@h/db?sslmode=verify-full'],
  ])('redactConnectionString(%s) → %s', (url, shown) => {
    expect(redactConnectionString(url)).toBe(shown);
  });

  it('cuts the password, as written and decoded, out of any text', () => {
    const url = 'postgres://econsig:s3cr%40t-pw@db.example/econsig';
    const text = 'connect failed for postgres://econsig:s3cr%40t-pw@db.example/econsig; password "s3cr@t-pw" rejected; other mysql://a:bcdef@x';
    const out = redactConnectionStringIn(text, url);
    expect(out).not.toContain('s3cr');
    expect(out).not.toContain('bcdef');
    expect(out).toContain('postgres://econsig@db.example/econsig');
  });

  it('cuts every secret parameter, as written, URL-decoded and form-decoded, out of any text', () => {
    const url = 'postgres://econsig@db/econsig?password=p%40ss+word9&sslkey=-----BEGIN+PRIVATE+KEY-----%0AMIIEvQ&sslmode=require';
    const text = [
      `open ${url}`,
      "password authentication failed: 'p@ss word9'",
      "ENOENT: no such file or directory, open '-----BEGIN PRIVATE KEY-----\nMIIEvQ'",
      'p%40ss+word9 and p@ss+word9',
    ].join('\n');
    const out = redactConnectionStringIn(text, url);
    for (const secret of ['p%40ss', 'p@ss', 'MIIEvQ']) expect(out).not.toContain(secret);
    expect(out).toContain('sslmode=require');
  });
});

describe('secret fields', () => {
  it.each([
    ['password', true], ['sslpassword', true], ['passfile', true], ['access_token', true], ['refresh_token', true], ['id_token', true],
    ['client_secret', true], ['sslkey', true], ['api_key', true], ['apiKey', true], ['credentials', true],
    ['token_type', false], ['sslmode', false], ['sslcert', false], ['user', false], ['host', false], ['error', false], ['error_description', false], ['scope', false],
  ])('isSecretName(%s) → %s', (name, secret) => {
    expect(isSecretName(name)).toBe(secret);
  });

  it.each([
    ['a form', 'access_token=abc.def&token_type=bearer&scope=x', 'access_token=[redacted]&token_type=bearer&scope=x'],
    ['JSON', '{"access_token": "abc\\"def", "token_type":"bearer","expires_in":60}', '{"access_token": "[redacted]", "token_type":"bearer","expires_in":60}'],
    ['libpq key=value', "host=db user=u password='a b c' sslmode=require", "host=db user=u password=[redacted] sslmode=require"],
    ['a URL in a sentence', 'cannot reach postgres://u@h/db?sslpassword=xyz:1 now', 'cannot reach postgres://u@h/db?sslpassword=[redacted] now'],
    ['nothing secret', 'Key (id_contrato)=(C-1) already exists; mode=fast', 'Key (id_contrato)=(C-1) already exists; mode=fast'],
  ])('%s', (_name, text, expected) => {
    expect(redactSecretFields(text)).toBe(expected);
  });
});
