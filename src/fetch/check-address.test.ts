import { describe, expect, it } from 'vitest';
import { classifyAddress, isPrivateAddress } from './check-address.js';

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['10.0.0.1', 'private network 10'],
    ['172.16.0.1', 'private network 172.16'],
    ['172.31.255.255', 'private network 172.16'],
    ['192.168.1.1', 'private network 192.168'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.0.1', 'link-local'],
    ['192.0.0.170', 'IETF protocol assignments'],
    ['192.0.2.10', 'TEST-NET-1'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback ::1'],
    ['[::1]', 'loopback ::1'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'AWS metadata'],
    ['fe80::1', 'link-local fe80'],
    ['fe80::1%eth0', 'link-local fe80'],
    ['febf::1', 'link-local fe80'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast ff00'],
    ['::ffff:127.0.0.1', 'IPv4-mapped address of 127.0.0.1, loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped address of 127.0.0.1'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped address of 169.254.169.254'],
    ['::ffff:10.0.0.1', 'IPv4-mapped address of 10.0.0.1'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated address of 127.0.0.1'],
    ['::127.0.0.1', 'outside global unicast'],
    ['::8.8.8.8', 'outside global unicast'],
    ['64:ff9b::7f00:1', 'NAT64 address of 127.0.0.1'],
    ['64:ff9b::169.254.169.254', 'NAT64 address of 169.254.169.254'],
    ['64:ff9b:1::1', 'outside global unicast'],
    ['2002:7f00:1::', '6to4 address of 127.0.0.1'],
    ['2002:c0a8:101::1', '6to4 address of 192.168.1.1'],
    ['2001::1', 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:db8::1', 'documentation 2001:db8'],
    ['3fff::1', 'documentation 3fff'],
    ['100::1', 'outside global unicast'],
  ])('refuses %s (%s)', (ip, reason) => {
    expect(isPrivateAddress(ip)).toBe(true);
    expect(classifyAddress(ip)).toContain(reason);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '192.0.3.1',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700::1',
    '2a00:1450:4001:82a::200e',
    '::ffff:93.184.216.34',
    '64:ff9b::5db8:d822',
    '2002:5db8:d822::1',
    '2001:4860:4860::8888',
  ])('allows the public address %s', (ip) => {
    expect(classifyAddress(ip)).toBeUndefined();
    expect(isPrivateAddress(ip)).toBe(false);
  });

  it.each(['0177.0.0.1', '2130706433', '127.1', 'localhost', '', 'example.com', '1.2.3.4.5'])(
    'refuses %j, which is not a canonical IP literal (fail closed)',
    (input) => {
      expect(isPrivateAddress(input)).toBe(true);
      expect(classifyAddress(input)).toContain('not a canonical IP address');
    },
  );
});
