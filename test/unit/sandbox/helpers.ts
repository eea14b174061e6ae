import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: any;
}

/** One HTTP exchange without keep-alive, so closing a server never waits on this client. */
export function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'POST', headers: options.headers, agent: false, timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/** A webhook listener on 127.0.0.1 that answers `statusFor(n)` to the n-th delivery (1-based). */
export async function startListener(
  statusFor: (n: number) => number = () => 200,
  port = 0,
): Promise<{ url: string; port: number; deliveries: Delivery[]; close(): Promise<void> }> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = statusFor(deliveries.length + 1);
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/webhook`,
    port: bound,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port that was free a moment ago (for a listener that is "down at first"). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const validSubmission = (idProposta = 'PROP-1001', contaBancaria: Record<string, string> = { compe: '341', agencia: '0001', conta: '12345-6', tipo: 'CORRENTE' }) => ({
  idProposta,
  pessoa: {
    naturalidade: 'São Paulo',
    documento: { numero: '123456789', orgaoExpedidor: 'SSP', uf: 'SP', dataDeEmissao: '2015-03-10', tipoDocumento: 'RG' },
    endereco: { rua: 'Rua das Flores', numero: '100', complemento: '', bairro: 'Centro', cidade: 'São Paulo', uf: 'SP', cep: '01310100' },
    estadoCivil: 'SOLTEIRO',
    email: 'maria@example.com',
    telefone: '+5511987654321',
  },
  contaBancaria,
});
