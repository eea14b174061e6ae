import { describe, expect, it } from 'vitest';
import { TokenEndpointUnavailableError, TokenRefusedError, parseTokenAnswer, tokenRequest, type ClientCredentials } from '../../../src/service/oauth.js';

const creds: ClientCredentials = { tokenUrl: 'https://a/t', clientId: 'my id:1', clientSecret: 's3cr3t+/&=long', clientAuth: 'basic' };

describe('tokenRequest (RFC 6749 §4.4, §2.3.1)', () => {
  it('basic: id and secret form-encoded, then base64, in the Authorization header; not in the body', () => {
    const { headers, body } = tokenRequest({ ...creds, scope: 'a b' });
    expect(Buffer.from(headers.authorization!.replace('Basic ', ''), 'base64').toString()).toBe('my+id%3A1:s3cr3t%2B%2F%26%3Dlong');
    expect(new URLSearchParams(body)).toEqual(new URLSearchParams({ grant_type: 'client_credentials', scope: 'a b' }));
    expect(body).not.toContain('s3cr3t');
  });
  it('post: id and secret in the form, no Authorization header', () => {
    const { headers, body } = tokenRequest({ ...creds, clientAuth: 'post' });
    expect(headers.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(body))).toEqual({ grant_type: 'client_credentials', client_id: 'my id:1', client_secret: 's3cr3t+/&=long' });
  });
});

describe('parseTokenAnswer', () => {
  it('a bearer token with expires_in', () => {
    expect(parseTokenAnswer(200, '{"access_token":"abc","token_type":"bearer","expires_in":"3599"}', creds, 5)).toEqual({
      accessToken: 'abc',
      tokenType: 'Bearer',
      expiresIn: 3599,
      obtainedAt: 5,
    });
  });
  it.each([
    [400, '{"error":"invalid_scope","error_description":"no such scope"}', 'invalid_scope', 'no such scope'],
    [401, '{"error":"invalid_client"}', 'invalid_client', undefined],
    [401, '', 'invalid_client', undefined],
    [400, '{"error":"invalid_request","error_description":"bad s3cr3t+/&=long"}', 'invalid_request', 'bad [redacted]'],
    [400, '{"error":"invalid_request","error_description":"got Basic bXkraWQlM0ExOnMzY3IzdA=="}', 'invalid_request', 'got Basic [redacted]'],
  ])('HTTP %s %s → refused %s', (status, body, error, description) => {
    try {
      parseTokenAnswer(status, body, creds, 0);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TokenRefusedError);
      expect((e as TokenRefusedError).error).toBe(error);
      expect((e as TokenRefusedError).errorDescription).toBe(description);
    }
  });
  it.each([
    [500, 'oops'],
    [200, '{"token_type":"bearer"}'],
    [200, '<html>'],
    [200, '{"access_token":"abc","token_type":"mac"}'],
    [404, 'not found'],
  ])('HTTP %s %s → unavailable', (status, body) => {
    expect(() => parseTokenAnswer(status, body, creds, 0)).toThrow(TokenEndpointUnavailableError);
  });

  const TOKEN = 'tok-LEAKED-9f8e7d6c5b4a';
  it.each([
    ['a 400 carrying a token and no error', 400, `{"access_token":"${TOKEN}","token_type":"bearer","expires_in":300}`, 'answered HTTP 400 without an access token: fields access_token, token_type, expires_in'],
    ['a 200 whose token has a space', 200, `{"access_token":"${TOKEN} x","refresh_token":"${TOKEN}"}`, 'answered HTTP 200 without an access token: fields access_token, refresh_token'],
    ['a 500 with an error naming the token', 500, `{"error":"server_error","error_description":"could not store ${TOKEN}","access_token":"${TOKEN}"}`, 'failed with HTTP 500: error "server_error"; error_description "could not store [redacted]"; fields access_token'],
    ['a form-encoded answer', 502, `access_token=${TOKEN}&token_type=bearer`, 'failed with HTTP 502: access_token=[redacted]&token_type=bearer'],
    ['an HTML page', 502, '<html>Bad gateway</html>', 'failed with HTTP 502: <html>Bad gateway</html>'],
  ])('an odd answer (%s) is summarised, no token quoted', (_name, status, body, said) => {
    const error = (() => {
      try {
        parseTokenAnswer(status, body, creds, 0);
      } catch (e) {
        return e as Error;
      }
      throw new Error('no error');
    })();
    expect(error).toBeInstanceOf(TokenEndpointUnavailableError);
    expect(error.message).toBe(`the token endpoint ${said}`);
    expect(error.message).not.toContain('LEAKED');
  });
  it('a refusal quotes its error and description, without a token the same answer carries', () => {
    const body = `{"error":"invalid_grant","error_description":"token ${TOKEN} was revoked","access_token":"${TOKEN}"}`;
    expect(() => parseTokenAnswer(400, body, creds, 0)).toThrow('the token endpoint refused: invalid_grant (token [redacted] was revoked) [HTTP 400]');
  });
});
