// The umbrella module: `import WebsiteData` gives the cookie semantics
// (CookieCore) and the stores (WebsiteDataStore).
@_exported import CookieCore
@_exported import WebsiteDataStore
