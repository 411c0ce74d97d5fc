import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * A small stand-in for Mollie's API v2 over real HTTPS (the official client only speaks https): payments,
 * methods, customers and mandates with Mollie's JSON shapes and error format. Each API key is its own
 * Mollie account. Tests drive what the payer does (setStatus) and can take the API down.
 *
 * The certificate is self-signed (tests/helpers/fake-mollie/); the client pins its own CA bundle, so the
 * test process accepts it with NODE_TLS_REJECT_UNAUTHORIZED=0 while the server runs (see start()).
 */

interface FakePayment {
  resource: 'payment'; id: string; mode: 'test'; status: string; amount: { value: string; currency: string };
  description: string; method: string | null; sequenceType: string; customerId?: string; mandateId?: string;
  redirectUrl?: string; webhookUrl?: string; metadata: unknown; createdAt: string; profileId: string;
  amountChargedBack?: { value: string; currency: string };
}
interface FakeMandate {
  id: string; customerId: string; method: string; status: 'valid' | 'pending' | 'invalid'; details: Record<string, string>;
  signatureDate?: string; mandateReference?: string | null;
}
interface Account { payments: Map<string, FakePayment>; customers: Map<string, { id: string; name: string; email: string }>; mandates: Map<string, FakeMandate>; idempotency: Map<string, string> }

const METHODS: { id: string; description: string; countries?: string[]; currencies: string[]; min: number; max: number; sequences: string[] }[] = [
  { id: 'ideal', description: 'iDEAL', countries: ['NL'], currencies: ['EUR'], min: 0.01, max: 50000, sequences: ['oneoff', 'first'] },
  { id: 'bancontact', description: 'Bancontact', countries: ['BE'], currencies: ['EUR'], min: 0.02, max: 50000, sequences: ['oneoff', 'first'] },
  { id: 'eps', description: 'EPS', countries: ['AT'], currencies: ['EUR'], min: 1, max: 50000, sequences: ['oneoff', 'first'] },
  { id: 'blik', description: 'BLIK', countries: ['PL'], currencies: ['PLN'], min: 1, max: 50000, sequences: ['oneoff'] },
  { id: 'creditcard', description: 'Card', currencies: ['EUR', 'GBP', 'PLN', 'DKK', 'SEK', 'NOK', 'CHF'], min: 0.01, max: 10000, sequences: ['oneoff', 'first', 'recurring'] },
  { id: 'applepay', description: 'Apple Pay', currencies: ['EUR', 'GBP'], min: 0.01, max: 10000, sequences: ['oneoff', 'first'] },
  { id: 'paypal', description: 'PayPal', currencies: ['EUR', 'GBP', 'PLN', 'DKK', 'SEK', 'NOK', 'CHF'], min: 0.01, max: 8000, sequences: ['oneoff', 'first', 'recurring'] },
  { id: 'banktransfer', description: 'Bank transfer', currencies: ['EUR'], min: 0.01, max: 1000000, sequences: ['oneoff'] },
  { id: 'directdebit', description: 'SEPA Direct Debit', currencies: ['EUR'], min: 0.01, max: 1000, sequences: ['recurring'] },
  // Only for larger amounts: shows that the list depends on the amount.
  { id: 'trustly', description: 'Trustly', currencies: ['EUR'], min: 20, max: 10000, sequences: ['oneoff'] },
];

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex').slice(0, 10)}`;

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': status < 300 ? 'application/hal+json' : 'application/hal+json', ...headers });
  res.end(JSON.stringify(body));
}

function error(res: ServerResponse, status: number, title: string, detail: string, field?: string) {
  send(res, status, {
    status, title, detail, ...(field ? { field } : {}),
    _links: { documentation: { href: 'https://docs.mollie.com/overview/handling-errors', type: 'text/html' } },
  });
}

export interface FakeMollie {
  /** The API endpoint for the client (apiEndpoint / MOLLIE_API_ENDPOINT). */
  url: string;
  /** Every request: method, path and which API key sent it. */
  requests: { method: string; path: string; key: string }[];
  /** Registers an API key (a Mollie account). */
  addKey(key: string): void;
  /** What the payer (or the bank) did; a paid first payment creates the mandate. */
  setStatus(paymentId: string, status: 'paid' | 'failed' | 'canceled' | 'expired' | 'pending'): void;
  /** The payer's bank takes a paid payment back: as at Mollie, it stays 'paid' and names amountChargedBack. */
  chargeBack(paymentId: string): void;
  payment(paymentId: string): FakePayment | undefined;
  mandate(mandateId: string): FakeMandate | undefined;
  /** Refunds asked for, in order. */
  refunds: { id: string; paymentId: string; amount: { value: string; currency: string }; status: string }[];
  /** 503 for every request while down. */
  down: boolean;
  close(): Promise<void>;
}

export async function startFakeMollie(): Promise<FakeMollie> {
  const accounts = new Map<string, Account>();
  const requests: FakeMollie['requests'] = [];
  const dir = new URL('./fake-mollie/', import.meta.url);
  const payments = new Map<string, { key: string; payment: FakePayment }>();
  const mandates = new Map<string, FakeMandate>();
  const refunds: FakeMollie['refunds'] = [];

  const mandateBody = (mandate: FakeMandate) => ({
    resource: 'mandate', id: mandate.id, mode: 'test', status: mandate.status, method: mandate.method, details: mandate.details,
    mandateReference: mandate.mandateReference ?? null, signatureDate: mandate.signatureDate ?? '2026-06-01', createdAt: new Date().toISOString(),
    _links: { self: { href: `${fake.url}customers/${mandate.customerId}/mandates/${mandate.id}`, type: 'application/hal+json' } },
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    requests.push({ method: req.method ?? '', path: url.pathname, key });
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (fake.down) return send(res, 503, { status: 503, title: 'Service Unavailable', detail: 'Down for maintenance' }, { 'retry-after': '0' });
    const account = accounts.get(key);
    if (!account) return error(res, 401, 'Unauthorized Request', 'Missing authentication, or failed to authenticate');
    const body = raw ? JSON.parse(raw) as Record<string, any> : {};
    const parts = url.pathname.replace(/^\/v2\//, '').split('/');

    if (req.method === 'GET' && parts[0] === 'methods' && parts.length === 1) {
      const seq = url.searchParams.get('sequenceType') ?? 'oneoff';
      const value = url.searchParams.get('amount[value]');
      const currency = url.searchParams.get('amount[currency]');
      const country = url.searchParams.get('billingCountry');
      if (value !== null && !/^\d+\.\d{2}$/.test(value)) return error(res, 422, 'Unprocessable Entity', 'The amount is invalid', 'amount.value');
      const list = METHODS.filter((m) => m.sequences.includes(seq)
        && (!currency || m.currencies.includes(currency))
        && (!value || (Number(value) >= m.min && Number(value) <= m.max))
        && (!country || !m.countries || m.countries.includes(country)));
      return send(res, 200, {
        count: list.length,
        _embedded: {
          methods: list.map((m) => ({
            resource: 'method', id: m.id, description: m.description, status: 'activated',
            minimumAmount: { value: m.min.toFixed(2), currency: currency ?? 'EUR' },
            maximumAmount: { value: m.max.toFixed(2), currency: currency ?? 'EUR' },
            image: { size1x: `https://www.mollie.com/external/icons/payment-methods/${m.id}.png`, size2x: `https://www.mollie.com/external/icons/payment-methods/${m.id}%402x.png`, svg: `https://www.mollie.com/external/icons/payment-methods/${m.id}.svg` },
            _links: { self: { href: `${fake.url}methods/${m.id}`, type: 'application/hal+json' } },
          })),
        },
        _links: { self: { href: `${fake.url}methods`, type: 'application/hal+json' }, documentation: { href: 'https://docs.mollie.com/reference/list-methods', type: 'text/html' } },
      });
    }

    if (req.method === 'POST' && parts[0] === 'payments' && parts.length === 1) {
      const idem = req.headers['idempotency-key'];
      if (typeof idem === 'string' && account.idempotency.has(idem)) return send(res, 201, account.payments.get(account.idempotency.get(idem)!));
      if (!body.amount || !/^\d+\.\d{2}$/.test(body.amount.value ?? '')) return error(res, 422, 'Unprocessable Entity', 'The amount is invalid', 'amount');
      if (!body.description) return error(res, 422, 'Unprocessable Entity', 'The description is invalid', 'description');
      const seq = body.sequenceType ?? 'oneoff';
      let status = 'open';
      if (seq === 'first' && !account.customers.has(body.customerId)) return error(res, 422, 'Unprocessable Entity', 'A first payment needs a customer', 'customerId');
      if (seq === 'recurring') {
        const m = account.mandates.get(body.mandateId);
        if (!m || m.customerId !== body.customerId || m.status !== 'valid') return error(res, 422, 'Unprocessable Entity', 'The mandate is invalid', 'mandateId');
        status = m.method === 'directdebit' ? 'pending' : 'paid';
      } else if (!body.redirectUrl) {
        return error(res, 422, 'Unprocessable Entity', 'The redirect URL is invalid', 'redirectUrl');
      }
      const payment: FakePayment = {
        resource: 'payment', id: id('tr'), mode: 'test', status, amount: body.amount, description: body.description,
        method: body.method ?? null, sequenceType: seq, customerId: body.customerId, mandateId: seq === 'recurring' ? body.mandateId : undefined,
        redirectUrl: body.redirectUrl, webhookUrl: body.webhookUrl, metadata: body.metadata ?? null, createdAt: new Date().toISOString(), profileId: 'pfl_fake',
      };
      account.payments.set(payment.id, payment);
      payments.set(payment.id, { key, payment });
      if (typeof idem === 'string') account.idempotency.set(idem, payment.id);
      return send(res, 201, {
        ...payment,
        _links: {
          self: { href: `${fake.url}payments/${payment.id}`, type: 'application/hal+json' },
          ...(status === 'open' ? { checkout: { href: `https://www.mollie.com/checkout/select-method/${payment.id.slice(3)}`, type: 'text/html' } } : {}),
        },
      });
    }

    if (req.method === 'GET' && parts[0] === 'payments' && parts.length === 2) {
      const payment = account.payments.get(parts[1]);
      if (!payment) return error(res, 404, 'Not Found', `No payment exists with token ${parts[1]}.`);
      return send(res, 200, { ...payment, _links: { self: { href: `${fake.url}payments/${payment.id}`, type: 'application/hal+json' } } });
    }

    if (req.method === 'DELETE' && parts[0] === 'payments' && parts.length === 2) {
      const payment = account.payments.get(parts[1]);
      if (!payment) return error(res, 404, 'Not Found', `No payment exists with token ${parts[1]}.`);
      if (payment.status !== 'open' && payment.status !== 'pending') return error(res, 422, 'Unprocessable Entity', 'The payment cannot be canceled.');
      payment.status = 'canceled';
      return send(res, 200, { ...payment, _links: { self: { href: `${fake.url}payments/${payment.id}`, type: 'application/hal+json' } } });
    }

    if (req.method === 'POST' && parts[0] === 'payments' && parts[2] === 'refunds' && parts.length === 3) {
      const payment = account.payments.get(parts[1]);
      if (!payment) return error(res, 404, 'Not Found', `No payment exists with token ${parts[1]}.`);
      if (payment.status !== 'paid') return error(res, 422, 'Unprocessable Entity', 'The payment has not been paid.');
      const amount = body.amount as { value: string; currency: string };
      const refund = { resource: 'refund' as const, id: id('re'), amount, status: 'pending', paymentId: payment.id, createdAt: new Date().toISOString() };
      refunds.push(refund);
      return send(res, 201, { ...refund, _links: { self: { href: `${fake.url}payments/${payment.id}/refunds/${refund.id}`, type: 'application/hal+json' } } });
    }

    if (req.method === 'POST' && parts[0] === 'customers' && parts.length === 1) {
      const customer = { id: id('cst'), name: String(body.name ?? ''), email: String(body.email ?? '') };
      account.customers.set(customer.id, customer);
      return send(res, 201, {
        resource: 'customer', mode: 'test', ...customer, locale: null, metadata: body.metadata ?? null, createdAt: new Date().toISOString(),
        _links: { self: { href: `${fake.url}customers/${customer.id}`, type: 'application/hal+json' } },
      });
    }

    // A SEPA mandate signed elsewhere (our direct-debit form): Mollie checks the IBAN and answers it valid.
    if (req.method === 'POST' && parts[0] === 'customers' && parts[2] === 'mandates' && parts.length === 3) {
      const idem = req.headers['idempotency-key'];
      if (typeof idem === 'string' && account.idempotency.has(`mandate:${idem}`)) {
        const held = account.mandates.get(account.idempotency.get(`mandate:${idem}`)!)!;
        return send(res, 201, mandateBody(held));
      }
      if (!account.customers.has(parts[1])) return error(res, 404, 'Not Found', `No customer exists with token ${parts[1]}.`);
      if (body.method !== 'directdebit') return error(res, 422, 'Unprocessable Entity', 'The method is invalid', 'method');
      if (!body.consumerName) return error(res, 422, 'Unprocessable Entity', 'The consumer name is invalid', 'consumerName');
      if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$/.test(body.consumerAccount ?? '')) return error(res, 422, 'Unprocessable Entity', 'The consumer account is invalid', 'consumerAccount');
      if (body.signatureDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(body.signatureDate)) return error(res, 422, 'Unprocessable Entity', 'The signature date is invalid', 'signatureDate');
      const mandate: FakeMandate = {
        id: id('mdt'), customerId: parts[1], method: 'directdebit', status: 'valid',
        details: { consumerName: body.consumerName, consumerAccount: body.consumerAccount, consumerBic: body.consumerBic ?? 'FAKEBIC' },
        signatureDate: body.signatureDate, mandateReference: body.mandateReference ?? null,
      };
      account.mandates.set(mandate.id, mandate);
      mandates.set(mandate.id, mandate);
      if (typeof idem === 'string') account.idempotency.set(`mandate:${idem}`, mandate.id);
      return send(res, 201, mandateBody(mandate));
    }

    if (parts[0] === 'customers' && parts[2] === 'mandates' && parts.length === 4) {
      const mandate = account.mandates.get(parts[3]);
      if (!mandate || mandate.customerId !== parts[1]) return error(res, 404, 'Not Found', `No mandate exists with token ${parts[3]}.`);
      if (req.method === 'DELETE') {
        mandate.status = 'invalid';
        return send(res, 204);
      }
      if (req.method === 'GET') return send(res, 200, mandateBody(mandate));
    }
    return error(res, 404, 'Not Found', 'The resource does not exist');
  };

  const server = createServer({ key: readFileSync(new URL('key.pem', dir)), cert: readFileSync(new URL('cert.pem', dir)) }, (req, res) => {
    handle(req, res).catch((e: unknown) => send(res, 500, { status: 500, title: 'Internal', detail: String(e) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const previousTls = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

  const fake: FakeMollie = {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/v2/`,
    requests,
    refunds,
    down: false,
    addKey(k) {
      accounts.set(k, { payments: new Map(), customers: new Map(), mandates: new Map(), idempotency: new Map() });
    },
    setStatus(paymentId, status) {
      const held = payments.get(paymentId);
      if (!held) throw new Error(`no payment ${paymentId}`);
      const { payment, key } = held;
      payment.status = status;
      if (status === 'paid' && payment.sequenceType === 'first' && payment.customerId) {
        const card = payment.method === 'creditcard';
        const mandate: FakeMandate = {
          id: id('mdt'), customerId: payment.customerId, status: 'valid', method: card ? 'creditcard' : 'directdebit',
          details: card
            ? { cardHolder: 'T. Tester', cardNumber: '6787', cardLabel: 'Mastercard', cardFingerprint: 'fp', cardExpiryDate: '2030-12-31' }
            : { consumerName: 'T. Tester', consumerAccount: 'NL55INGB0000000000', consumerBic: 'INGBNL2A' },
        };
        accounts.get(key)!.mandates.set(mandate.id, mandate);
        mandates.set(mandate.id, mandate);
        payment.mandateId = mandate.id;
      }
    },
    chargeBack(paymentId) {
      const payment = payments.get(paymentId)?.payment;
      if (payment?.status !== 'paid') throw new Error(`no paid payment ${paymentId}`);
      payment.amountChargedBack = { ...payment.amount };
    },
    payment: (paymentId) => payments.get(paymentId)?.payment,
    mandate: (mandateId) => mandates.get(mandateId),
    close: () => new Promise<void>((resolve) => {
      if (previousTls === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previousTls;
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  return fake;
}
