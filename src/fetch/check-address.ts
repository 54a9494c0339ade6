// Which IP addresses a fetch may connect to. SPEC "Safety and politeness": loopback, private, link-local,
// unique-local, multicast, unspecified, the IPv4-mapped / NAT64 / 6to4 forms of those and cloud metadata
// addresses are refused. Ranges come from the IANA special-purpose registries (RFC 6890 and its updates).
//
// IPv6 is checked as an allow-list: only global unicast 2000::/3 (RFC 4291 §2.4) can be public, so anything
// outside it (::, ::1, ::/96, fc00::/7, fe80::/10, fec0::/10, ff00::/8, 64:ff9b:1::/48, 100::/64, …) is refused
// without having to be listed. Forms that carry an IPv4 address (mapped, NAT64, 6to4) are judged by that address.
//
// Input is a canonical IP literal (what WHATWG URL parsing or dns.lookup produce). Anything else — including
// legacy spellings such as "0177.0.0.1" that only a URL parser should interpret — is refused: fail closed.
import { isIPv4, isIPv6 } from 'node:net';

/** [first address, prefix length, why it is refused]; first address as an unsigned 32-bit number. */
type Ipv4Range = readonly [number, number, string];

const IPV4_RANGES: readonly Ipv4Range[] = [
  [ipv4('0.0.0.0'), 8, '"this network" 0.0.0.0/8 (RFC 791), which reaches this host'],
  [ipv4('10.0.0.0'), 8, 'private network 10.0.0.0/8 (RFC 1918)'],
  [ipv4('100.64.0.0'), 10, 'carrier-grade NAT 100.64.0.0/10 (RFC 6598)'],
  [ipv4('127.0.0.0'), 8, 'loopback 127.0.0.0/8 (RFC 1122)'],
  [ipv4('169.254.0.0'), 16, 'link-local 169.254.0.0/16 (RFC 3927), which includes cloud metadata 169.254.169.254'],
  [ipv4('172.16.0.0'), 12, 'private network 172.16.0.0/12 (RFC 1918)'],
  [ipv4('192.0.0.0'), 24, 'IETF protocol assignments 192.0.0.0/24 (RFC 6890)'],
  [ipv4('192.0.2.0'), 24, 'documentation TEST-NET-1 192.0.2.0/24 (RFC 5737)'],
  [ipv4('192.88.99.0'), 24, '6to4 relay anycast 192.88.99.0/24 (RFC 7526)'],
  [ipv4('192.168.0.0'), 16, 'private network 192.168.0.0/16 (RFC 1918)'],
  [ipv4('198.18.0.0'), 15, 'benchmarking 198.18.0.0/15 (RFC 2544)'],
  [ipv4('198.51.100.0'), 24, 'documentation TEST-NET-2 198.51.100.0/24 (RFC 5737)'],
  [ipv4('203.0.113.0'), 24, 'documentation TEST-NET-3 203.0.113.0/24 (RFC 5737)'],
  [ipv4('224.0.0.0'), 4, 'multicast 224.0.0.0/4 (RFC 5771)'],
  // 240.0.0.0/4 also holds the limited broadcast address 255.255.255.255 (RFC 919).
  [ipv4('240.0.0.0'), 4, 'reserved 240.0.0.0/4 (RFC 1112), including broadcast 255.255.255.255'],
];

/** Parses a strict dotted-quad IPv4 address to an unsigned 32-bit number. */
function ipv4(address: string): number {
  return address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

function classifyIpv4(value: number): string | undefined {
  for (const [first, prefix, reason] of IPV4_RANGES) {
    const size = 2 ** (32 - prefix);
    if (value >= first && value < first + size) return reason;
  }
  return undefined;
}

/** Parses a valid IPv6 literal (net.isIPv6 already said yes) to eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    // A trailing dotted IPv4 part stands for the last two groups (RFC 4291 §2.2, form 3).
    const v4 = ipv4(text.slice(lastColon + 1));
    text = `${text.slice(0, lastColon + 1)}${Math.floor(v4 / 0x10000).toString(16)}:${(v4 % 0x10000).toString(16)}`;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head = '', rest] = text.split('::');
  if (rest === undefined) return parse(head);
  const left = parse(head);
  const right = parse(rest);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function embeddedIpv4(high: number, low: number): number {
  return high * 0x10000 + low;
}

function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

function classifyIpv6(groups: number[]): string | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified address :: (RFC 4291)';
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback ::1 (RFC 4291)';

  const viaIpv4 = (form: string, value: number) => {
    const reason = classifyIpv4(value);
    return reason && `${form} of ${formatIpv4(value)}, ${reason}`;
  };
  // IPv4-mapped ::ffff:a.b.c.d (RFC 4291 §2.5.5.2): a dual-stack socket connects to the IPv4 address itself.
  if (upperZero && g5 === 0xffff) return viaIpv4('IPv4-mapped address', embeddedIpv4(g6, g7));
  // IPv4-translated ::ffff:0:a.b.c.d (RFC 2765 §2.1).
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) {
    return viaIpv4('IPv4-translated address', embeddedIpv4(g6, g7));
  }
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052 §2.1): a translator forwards to the embedded IPv4 address.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return viaIpv4('NAT64 address', embeddedIpv4(g6, g7));
  }
  // 6to4 2002:V4ADDR::/48 (RFC 3056 §2): a relay forwards to the embedded IPv4 address.
  if (g0 === 0x2002) return viaIpv4('6to4 address', embeddedIpv4(g1, g2));

  // Not global unicast: ::/96 IPv4-compatible (deprecated, RFC 4291 §2.5.5.1), 64:ff9b:1::/48 local NAT64
  // (RFC 8215), 100::/64 discard (RFC 6666), fc00::/7 unique-local (RFC 4193, includes AWS metadata fd00:ec2::254),
  // fe80::/10 link-local, fec0::/10 site-local (RFC 3879), ff00::/8 multicast (RFC 4291).
  if (g0 < 0x2000 || g0 > 0x3fff) return nonGlobalReason(g0);

  // Special-purpose blocks inside 2000::/3 (IANA IPv6 special-purpose registry, RFC 6890).
  // 2001::/23 IETF protocol assignments, which holds Teredo 2001::/32 (RFC 4380): the client's IPv4 address is
  // embedded (obfuscated) and a relay would forward to it.
  if (g0 === 0x2001 && g1 < 0x200) return 'IETF protocol assignment 2001::/23 (RFC 2928), including Teredo 2001::/32';
  if (g0 === 0x2001 && g1 === 0x0db8) return 'documentation 2001:db8::/32 (RFC 3849)';
  if (g0 === 0x3fff && g1 < 0x1000) return 'documentation 3fff::/20 (RFC 9637)';
  return undefined;
}

function nonGlobalReason(g0: number): string {
  if (g0 >= 0xfc00 && g0 <= 0xfdff)
    return 'unique-local fc00::/7 (RFC 4193), which includes AWS metadata fd00:ec2::254';
  if (g0 >= 0xfe80 && g0 <= 0xfebf) return 'link-local fe80::/10 (RFC 4291)';
  if (g0 >= 0xfec0 && g0 <= 0xfeff) return 'site-local fec0::/10 (RFC 3879)';
  if (g0 >= 0xff00) return 'multicast ff00::/8 (RFC 4291)';
  return 'an IPv6 address outside global unicast 2000::/3 (RFC 4291)';
}

/**
 * Why `ip` must not be connected to, or undefined when it is a public address.
 * Accepts canonical IPv4 / IPv6 literals, optionally in [brackets] or with a %zone; anything else is refused.
 */
export function classifyAddress(ip: string): string | undefined {
  let address = ip.trim().toLowerCase();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  // A zone index (fe80::1%eth0) names an interface; it does not change which range the address is in.
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  if (isIPv4(address)) return classifyIpv4(ipv4(address));
  if (isIPv6(address)) return classifyIpv6(ipv6Groups(address));
  return `'${ip}' is not a canonical IP address`;
}

/** True when `ip` is loopback, private, link-local, reserved, or otherwise not a public unicast address. */
export function isPrivateAddress(ip: string): boolean {
  return classifyAddress(ip) !== undefined;
}
