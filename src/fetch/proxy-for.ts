// Which proxy, if any, a URL goes through: HTTPS_PROXY for https: (falling back to HTTP_PROXY, as undici's
// EnvHttpProxyAgent does), HTTP_PROXY for http:, none when NO_PROXY matches the host (curl's rules: a comma or
// space list; "*" matches everything; "example.com" and ".example.com" match the domain and its subdomains; an
// entry may carry a port).
import type { Config } from '../config.js';

export type ProxyConfig = Pick<Config, 'httpProxy' | 'httpsProxy' | 'noProxy'>;

function isExcluded(url: URL, noProxy: string | undefined): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of (noProxy ?? '').split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry);
    if (!match) continue;
    const [, entryHost = '', entryPort] = match;
    if (entryPort !== undefined && entryPort !== port) continue;
    const domain = entryHost.replace(/^\*?\./, '').replace(/\.$/, '');
    if (host === domain || host.endsWith(`.${domain}`)) return true;
  }
  return false;
}

/** The proxy URL to use for `url`, or undefined to connect directly. */
export function proxyFor(url: URL, config: ProxyConfig): string | undefined {
  const proxy = url.protocol === 'https:' ? (config.httpsProxy ?? config.httpProxy) : config.httpProxy;
  if (!proxy || isExcluded(url, config.noProxy)) return undefined;
  return proxy;
}
