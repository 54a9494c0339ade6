// The network edge's public surface. Everything that opens a connection lives behind createFetcher.
export { classifyAddress, isPrivateAddress } from './check-address.js';
export { checkUrl, hostPortOf, privateAddressError, type CheckedUrl } from './check-url.js';
export { decodeBody, type DecodedBody } from './decode.js';
export {
  AddressRefusedError,
  defaultLookup,
  resolveCheckedAddresses,
  type LookupAddresses,
  type ResolvedAddress,
} from './guarded-connect.js';
export { createFetcher, DEFAULT_ACCEPT, RETRY_AFTER_LIMIT_SECONDS, type FetcherDependencies } from './guarded-fetch.js';
export { bindCredentials, credentialHeadersFor, carriesCredentials, type Credentials } from './credentials.js';
export { deadlineSignal, linkSignal } from './linked-signal.js';
export { readBody, type ReadBodyOptions } from './read-body.js';
export type { FetchedPage, FetchOptions, FetchPage } from './types.js';
