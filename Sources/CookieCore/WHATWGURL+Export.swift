// Cookie rules are stated over WHATWG URLs (contexts, sites, partition
// keys): whoever imports CookieCore gets `URLRecord` and `URLHost` with it.
@_exported import WHATWGURL
