// The umbrella module: `import WebsiteData` gives the cookie semantics
// (CookieCore), the stores (WebsiteDataStore), cookie files and browser
// databases (CookieInterchange) and the libcurl loader (WebLoader).
@_exported import CookieCore
@_exported import CookieInterchange
@_exported import WebLoader
@_exported import WebsiteDataStore
