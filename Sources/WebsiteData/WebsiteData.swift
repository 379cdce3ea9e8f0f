// The umbrella module: `import WebsiteData` gives the cookie semantics
// (CookieCore), the stores (WebsiteDataStore) and the libcurl loader
// (WebLoader).
@_exported import CookieCore
@_exported import WebsiteDataStore
@_exported import WebLoader
