import { createServer } from 'node:net';
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { AddressRefusedError, createPublicOnlyAgent, isPublicAddress } from './public-address.ts';

describe('public addresses', () => {
  it.each([
    '0.0.0.0', '0.1.2.3', '10.0.0.1', '100.64.0.1', '100.127.255.255', '127.0.0.1', '127.255.0.9', '169.254.169.254', '172.16.0.1',
    '172.31.255.255', '192.0.0.8', '192.0.2.1', '192.168.1.1', '198.18.0.1', '198.51.100.7', '203.0.113.9', '224.0.0.1', '239.255.255.250',
    '240.0.0.1', '255.255.255.255',
    '::', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '::127.0.0.1', '64:ff9b::127.0.0.1',
    '64:ff9b::a00:1', '64:ff9b:1::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'fec0::1', 'ff02::1', '100::1', '2001::1',
    '2001:db8::1', '2002:7f00:1::1', '3fff::1', 'localhost', 'fcm.googleapis.com', '', '1.2.3', '999.1.1.1',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8', '1.1.1.1', '142.250.185.74', '100.63.255.255', '100.128.0.1', '172.15.255.255', '172.32.0.1', '192.169.0.1', '223.255.255.255',
    '2a00:1450:4001:82b::200a', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2001:4860:4860::8888',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses to connect to a private IP address given as the host, without any lookup', async () => {
    const server = createServer();
    let connections = 0;
    server.on('connection', (s) => { connections++; s.destroy(); });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    let lookups = 0;
    const agent = createPublicOnlyAgent({ resolve: async () => { lookups++; return [{ address: '8.8.8.8', family: 4 }]; } });
    const error = await new Promise<Error>((resolve) => {
      request({ host: '127.0.0.1', port, path: '/', agent }, () => resolve(new Error('answered'))).on('error', resolve).end();
    });
    server.close();
    expect(error).toBeInstanceOf(AddressRefusedError);
    expect([connections, lookups]).toEqual([0, 0]);
  });
});
